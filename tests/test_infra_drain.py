"""Issue 9 item 16: on SIGTERM the gateway finishes in-flight calls within the grace period,
refuses new ones with UNAVAILABLE, and ends streams with UNAVAILABLE and the sequence to
resume after in the trailing metadata. Real processes; Redis writes are paused
(CLIENT PAUSE WRITE) to hold an action in flight across the signal."""

from __future__ import annotations

import asyncio
import signal

import grpc
import redis.asyncio as aioredis
from grpc_health.v1 import health_pb2, health_pb2_grpc

from parlour.client import GatewayClient
from parlour.gateway.fanout import RESUME_TRAILER
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.launcher import LocalStack


async def wait_until(condition, timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while not await condition():
            await asyncio.sleep(0.02)


async def a_write_is_held(redis: aioredis.Redis) -> bool:
    """Some client is blocked on a script (the commit of the held action)."""
    clients = await redis.client_list()
    return any("b" in c["flags"] and c["cmd"] in ("eval", "evalsha") for c in clients)


def trailer(metadata, key: str) -> str | None:
    return next((value for k, value in metadata or () if k == key), None)


def last_sequence(message) -> int:
    """The highest sequence a StreamEvents or Play message shows (-1: none)."""
    kind = message.WhichOneof("kind")
    if kind == "event":
        return message.event.sequence
    if kind == "heartbeat":
        return message.heartbeat.last_sequence
    if kind == "batch":
        events = getattr(message.batch, "events", None)
        if events is not None:
            return max((e.sequence for e in events), default=-1)
        return max((last_sequence(item) for item in message.batch.items), default=-1)
    return -1


async def read_until_sequence(stream, sequence: int) -> None:
    async for message in stream:
        if last_sequence(message) >= sequence:
            return


async def test_item16_drain_finishes_in_flight_refuses_new_and_ends_streams_with_resume_point():
    env = {"PARLOUR_DRAIN_SECONDS": "30", "PARLOUR_HEARTBEAT_SECONDS": "0.2"}
    with LocalStack(["tinycards"], env=env) as stack:
        redis = aioredis.from_url(stack.redis_url)
        async with GatewayClient(stack.address) as client:
            match = await client.create_match("tinycards", 2, seed=5, spectators=True)
            players = [await client.join(match.name, f"p{i}", seat=i) for i in range(2)]
            first = await players[0].submit((await players[0].actions()).actions[0])
            seen = first.result.progress.last_sequence
            request = gw.StreamEventsRequest(match=match.name)
            spectator = client.stub.StreamEvents(request)
            await read_until_sequence(spectator, seen)
            outbox: asyncio.Queue = asyncio.Queue()
            outbox.put_nowait(gw.PlayRequest(open=gw.OpenSession(match=match.name)))

            async def play_requests():
                while (item := await outbox.get()) is not None:
                    yield item

            play = client.stub.Play(play_requests(), metadata=players[1].metadata)
            await read_until_sequence(play, seen)

            mover = players[first.result.progress.pending[0].seat]
            action = (await mover.actions()).actions[0]
            await redis.client_pause(60_000, all=False)
            try:
                held = asyncio.create_task(mover.submit(action, request_id="held"))
                await wait_until(lambda: a_write_is_held(redis))
                stack.gateway.popen.send_signal(signal.SIGTERM)
                with stack.gateway.channel() as channel:
                    health = health_pb2_grpc.HealthStub(channel)

                    async def not_serving() -> bool:
                        reply = await asyncio.to_thread(
                            health.Check, health_pb2.HealthCheckRequest(), timeout=5
                        )
                        return reply.status == health_pb2.HealthCheckResponse.NOT_SERVING

                    await wait_until(not_serving)
                try:
                    await client.match(match.name)
                    raise AssertionError("a new call during the drain was served")
                except grpc.aio.AioRpcError as error:
                    assert error.code() == grpc.StatusCode.UNAVAILABLE
                for stream in (spectator, play):
                    try:
                        async for _ in stream:
                            pass
                        raise AssertionError("the stream ended without a status")
                    except grpc.aio.AioRpcError as error:
                        assert error.code() == grpc.StatusCode.UNAVAILABLE
                        assert trailer(error.trailing_metadata(), RESUME_TRAILER) == str(seen)
                assert not held.done()
            finally:
                await redis.client_unpause()
            response = await held
            assert response.result.progress.version == first.result.progress.version + 1
            outbox.put_nowait(None)
        assert await asyncio.to_thread(stack.gateway.popen.wait, 30) == 0
        await redis.aclose()
