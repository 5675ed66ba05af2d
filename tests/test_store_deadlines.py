"""Issue 41 item 2: the store's Redis commands keep their timeout through one watchdog per
event loop instead of a timer per read and a task per write (parlour.store.deadlines).

A stopped Redis (SIGSTOP) still fails a command with redis-py's TimeoutError, the next
command after it comes back works, and a pub/sub poll with its own timeout is not cut.
"""

from __future__ import annotations

import asyncio
import signal

import pytest
from redis.exceptions import TimeoutError as RedisTimeoutError

from parlour.store import connection, deadlines
from parlour.store.server import EmbeddedRedis


@pytest.fixture
def server():
    with EmbeddedRedis() as redis_server:
        yield redis_server


async def test_issue41_a_stopped_redis_still_times_a_command_out(server) -> None:
    client = connection.connect(server.url, timeout=0.5)
    assert issubclass(client.connection_pool.connection_class, deadlines.Deadlines)
    try:
        assert await client.ping()
        server.process.send_signal(signal.SIGSTOP)
        try:
            with pytest.raises(RedisTimeoutError):
                # (the guard only keeps a broken watchdog from hanging the test run)
                await asyncio.wait_for(client.set("k", "v"), 60)
        finally:
            server.process.send_signal(signal.SIGCONT)
        assert await client.set("k", "w")
        assert await client.get("k") == b"w"
    finally:
        await client.aclose()


async def test_issue41_a_poll_with_its_own_timeout_outlives_the_deadline(server) -> None:
    client = connection.connect(server.url, timeout=0.3)
    pubsub = client.pubsub()
    try:
        await pubsub.subscribe("news")
        for _ in range(8):  # 1.6 s of idle polls, past the 0.3 s deadline
            await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.2)
        await client.publish("news", "hello")
        for _ in range(50):
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.2)
            if message is not None:
                break
        assert message is not None and message["data"] == b"hello"
    finally:
        await pubsub.aclose()
        await client.aclose()
