"""Issue 31 item 4: request records live only as long as a retry can arrive (the retry
window past a match's last action), and a retry inside the window still gets its first
answer. Real Redis, real rules service and gateway."""

from __future__ import annotations

import asyncio
import time

import grpc
import pytest
from edge_helpers import seated

from parlour.client import GatewayClient
from parlour.store import keys
from parlour.store.matchstore import MatchStore
from parlour.store.retention import Retention
from stack import running_stack

WINDOW = 2  # seconds: PARLOUR_REQUEST_RETRY_SECONDS for these tests


async def gone(redis, key: str, seconds: float) -> bool:
    """Whether `key` is gone within `seconds` (waiting for Redis to expire it)."""
    deadline = time.monotonic() + seconds
    while await redis.exists(key):
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.1)
    return True


async def test_item4_a_retry_in_the_window_gets_its_answer_and_records_go_after_it(
    redis_url, monkeypatch
):
    """Item 4: retries of the first and the last action of a finished match are answered
    with their first answers while the window lasts; after it the request records are
    gone, the rest of the finished match is kept, and a late retry applies nothing."""
    monkeypatch.setenv("PARLOUR_REQUEST_RETRY_SECONDS", str(WINDOW))
    async with running_stack(redis_url) as (address, gateway):
        async with GatewayClient(address) as client:
            match, players = await seated(client)
            match_id = match.name.removeprefix("matches/")
            redis = gateway.rules_stores[0].redis
            answers, progress = [], (await players[0].get_view()).progress
            while not progress.HasField("outcome"):
                seat = progress.pending[0].seat
                action = (await players[seat].actions()).actions[0]
                request_id = f"r{len(answers)}"
                first = await players[seat].submit(action, request_id=request_id)
                answers.append((players[seat], action, request_id, first))
                progress = first.result.progress
            for player, action, request_id, first in (answers[0], answers[-1]):
                again = await player.submit(action, request_id=request_id)
                assert again.replayed and again.result == first.result
            assert 0 < await redis.ttl(keys.requests(match_id)) <= WINDOW
            assert not await redis.hget(keys.meta(match_id), "joinrid:0")  # no join retries

            assert await gone(redis, keys.requests(match_id), WINDOW + 5)
            whole = [keys.meta(match_id), keys.state(match_id), keys.events(match_id)]
            assert await redis.exists(*whole, keys.actions(match_id)) == 4
            player, action, request_id, _ = answers[-1]
            with pytest.raises(grpc.aio.AioRpcError) as late:
                await player.submit(action, request_id=request_id)
            assert late.value.code() == grpc.StatusCode.FAILED_PRECONDITION
            final = await client.match(match.name)
            assert final.progress.version == 1 + len(answers), "a late retry was applied"


async def test_item4_an_unfinished_match_keeps_records_the_window_past_its_last_action(
    redis_url, match_id
):
    """Item 4: each commit pushes the request records' expiry the window ahead (so a match
    in play keeps all of them), never the idle retention; they go once it stays idle."""
    retention = Retention(finished_seconds=600, abandoned_seconds=60, request_seconds=WINDOW)
    store = MatchStore.from_url(redis_url, retention=retention)
    try:
        await store.create_state(match_id, b"state", b"progress", {"game": "t", "seats": "2"})
        await store.commit(match_id, 1, b"s", [(b"e", b"*", 0)], "r1", b"rec1", b"p")
        await asyncio.sleep(WINDOW / 2)  # the pace of play, not a wait for a result
        await store.commit(match_id, 2, b"s", [(b"e", b"*", 0)], "r2", b"rec2", b"p")
        assert await store.request_record(match_id, "r1") == b"rec1"
        assert 0 < await store.redis.ttl(keys.requests(match_id)) <= WINDOW
        assert 50 < await store.redis.ttl(keys.state(match_id)) <= 60
        assert await gone(store.redis, keys.requests(match_id), WINDOW + 5)
        assert await store.redis.exists(keys.state(match_id), keys.events(match_id)) == 2
    finally:
        await store.close()
