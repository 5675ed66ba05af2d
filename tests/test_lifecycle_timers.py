"""Issue 17 item 1, turn timers: deadlines in Redis, any rules replica plays the default for an
expired decision exactly once, across replica kills and a restart of everything."""

from __future__ import annotations

import json
import signal

import grpc
import pytest
import redis.asyncio as aioredis
from lifecycle_support import (
    Watcher,
    cli,
    new_match,
    own_redis,
    reason,
    start_stack,
    stored_progress,
    wait_finished,
    wire,
)

from parlour.client import GatewayClient
from parlour.demo import timer_demo
from parlour.engine.v1 import platform_pb2
from parlour.gateway.routing import rank_addresses
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rules.v1 import rules_pb2 as rules
from parlour.store import keys
from parlour.store.server import EmbeddedRedis


async def stored_actions(redis_url, match) -> list[rules.LoggedAction]:
    store = aioredis.from_url(redis_url)
    try:
        raw = await store.lrange(keys.actions(match.name.removeprefix("matches/")), 0, -1)
    finally:
        await store.aclose()
    return [rules.LoggedAction.FromString(r) for r in raw]


async def test_replicas_race_and_each_deadline_fires_once(redis_url, tmp_path):
    """Item 1: with three replicas polling, a match nobody plays is played to the end by its
    timers; every version has one timed-out action and one TimedOut event, and the log
    (with the TimedOut events) recomputes under `parlour verify`."""
    stack = start_stack(redis_url, replicas=3)
    try:
        async with GatewayClient(stack.address) as client:
            match, _ = await new_match(client, turn_timer_ms=60)
            assert all(d.deadline_unix_ms > 0 for d in match.progress.pending)
            watcher = Watcher(client.spectate(match.name))
            final = await wait_finished(client, match, watcher)
            watcher.stop()
            log = (
                await client.stub.GetMatchLog(
                    gw.GetMatchLogRequest(match=match.name, reveal_all=True)
                )
            ).log
        actions = list(log.actions)
        assert [a.version for a in actions] == list(range(2, final.progress.version + 1))
        assert all(a.timed_out and a.request_id.startswith("parlour:timeout:") for a in actions)
        notices = [e for e in log.events if e.event.event.Is(platform_pb2.TimedOut.DESCRIPTOR)]
        assert [e.event.version for e in notices] == [a.version for a in actions]
        assert all("ran out of time" in e.event.text for e in notices)
        path = tmp_path / "timed.json"
        saved = cli("replay", match.name, "--gateway", stack.address, "--all", "--save", str(path))
        assert saved.returncode == 0, saved.stderr
        assert json.loads(path.read_text())["actions"][0]["timedOut"]
        verified = cli("verify", str(path))
        assert verified.returncode == 0, verified.stderr
    finally:
        stack.stop()


async def test_killing_the_replica_that_armed_a_timer_another_fires_it_once():
    """Item 1: the replica that created the match (and armed its first deadline) is killed;
    another replica plays that timeout, once."""
    with own_redis() as redis_url:
        await kill_the_owner_while_a_timer_runs(redis_url)


async def kill_the_owner_while_a_timer_runs(redis_url: str) -> None:
    stack = start_stack(redis_url, replicas=2)
    try:
        async with GatewayClient(stack.address) as client:
            match, _ = await new_match(client, turn_timer_ms=2500)
            replicas = stack.rules["tinycards"]
            match_id = match.name.removeprefix("matches/")
            owner = replicas[rank_addresses(match_id, tuple(p.address for p in replicas))[0]]
            owner.stop(signal.SIGKILL)
            assert (await client.match(match.name)).progress.version == 1  # not fired yet
            watcher = Watcher(client.spectate(match.name))
            await watcher.until(lambda: watcher.timeouts())
            watcher.stop()
            after = await client.match(match.name)
        assert [version for version, _ in watcher.timeouts()] == [2]
        assert after.progress.version == 2
        actions = await stored_actions(redis_url, match)
        assert [(a.version, a.timed_out) for a in actions] == [(2, match.progress.pending[0].kind)]
    finally:
        stack.stop()


async def test_pending_timers_survive_a_restart_of_everything():
    """Item 1: gateway, rules and Redis all stop with a deadline pending; Redis alone comes
    back with the deadline kept (nothing can fire it while no rules replica runs); once the
    services are back, that timer fires exactly once, from what Redis kept."""
    redis = EmbeddedRedis(persistent=True).start()
    try:
        stack = start_stack(redis.url)
        async with GatewayClient(stack.address) as client:
            match, _ = await new_match(client, turn_timer_ms=1500)
        for proc in stack.processes():
            proc.stop(signal.SIGKILL)
        redis.stop(remove=False)
        redis.start()
        kept = await stored_progress(redis.url, match)
        assert kept.version == 1 and wire(kept.pending) == wire(match.progress.pending)
        stack = start_stack(redis.url)
        try:
            async with GatewayClient(stack.address) as client:
                watcher = Watcher(client.spectate(match.name))
                await watcher.until(lambda: watcher.timeouts())
                watcher.stop()
            assert [v for v, _ in watcher.timeouts() if v == 2] == [2]
            first = (await stored_actions(redis.url, match))[0]
            assert (first.version, first.timed_out) == (2, kept.pending[0].kind)
        finally:
            stack.stop()
    finally:
        redis.stop()


async def test_clients_cannot_use_the_platforms_request_ids(redis_url):
    """Item 1: a seat cannot pre-claim a timeout's request id (it would block the timer)."""
    stack = start_stack(redis_url)
    try:
        async with GatewayClient(stack.address) as client:
            match, players = await new_match(client)
            action = (await players[0].actions()).actions[0]
            for request_id in ("parlour:timeout:2:1", "parlour:anything"):
                with pytest.raises(grpc.aio.AioRpcError) as refused:
                    await players[0].submit(action, request_id=request_id)
                assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
                assert reason(refused.value) == "RESERVED_REQUEST_ID"
            assert (await client.match(match.name)).progress.version == 1
    finally:
        stack.stop()


async def test_the_demo_shows_a_timer_firing_once(capsys):
    """Issue 17 "done when": the demo's timed match, where one seat never acts, prints that
    seat's timeout (the game's default played for it) and that it fired once."""
    with own_redis() as redis_url:
        stack = start_stack(redis_url)
        try:
            assert await timer_demo(stack.address, "tinycards", 2026) == 0
        finally:
            stack.stop()
    out = capsys.readouterr().out
    assert "ran out of time; the platform chose “" in out and "{seat:" not in out
    assert "1 TimedOut event at version" in out and "bot2=0 ms" in out
