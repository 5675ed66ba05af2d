"""Issue 17 item 1, the chess-style time bank over real processes: every client sees each seat's
bank and deadline in the match's progress; a bank that runs out makes the platform play the
game's default exactly once, with replicas racing, after a replica kill and after a restart
of everything (the clocks live in Redis, in the committed progress)."""

from __future__ import annotations

import signal

import grpc
import pytest
from lifecycle_support import (
    Watcher,
    new_match,
    own_redis,
    start_stack,
    stored_progress,
    wait_finished,
    wire,
)

from parlour.client import GatewayClient
from parlour.gateway.routing import rank_addresses
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.store.server import EmbeddedRedis

#: A large increment keeps seat 0 far from its deadline while the test reads the progress.
BUDGET, BANK, INCREMENT = 500, 2000, 8000


def clocks(progress) -> list[tuple[int, int]]:
    return [(c.bank_ms, c.bank_runs_from_unix_ms) for c in progress.clocks]


def started(progress, seat: int) -> int:
    """The server time of the change that gave `seat` its current budget."""
    return progress.clocks[seat].bank_runs_from_unix_ms - BUDGET


async def test_exhausted_banks_fire_the_default_once_per_decision_with_replicas_racing(
    redis_url,
):
    """Item 1: with two replicas polling and nobody playing, each seat first spends its bank,
    then (bank 0, no budget) is played for at once; every version has exactly one timed-out
    action and one TimedOut event, and every bank ends at 0."""
    stack = start_stack(redis_url, replicas=2)
    try:
        async with GatewayClient(stack.address) as client:
            match, _ = await new_match(client, time_bank_ms=300)
            created = match.progress
            runs_from = created.clocks[0].bank_runs_from_unix_ms
            assert clocks(created) == [(300, runs_from), (300, 0)]
            assert created.pending[0].deadline_unix_ms == runs_from + 300
            watcher = Watcher(client.spectate(match.name))
            final = await wait_finished(client, match, watcher)
            watcher.stop()
            log = (
                await client.stub.GetMatchLog(
                    gw.GetMatchLogRequest(match=match.name, reveal_all=True)
                )
            ).log
        versions = [a.version for a in log.actions]
        assert versions == list(range(2, final.progress.version + 1))
        assert all(a.timed_out for a in log.actions)
        assert [version for version, _ in watcher.timeouts()] == versions
        assert [bank for bank, _ in clocks(final.progress)] == [0, 0]
    finally:
        stack.stop()


async def test_killing_the_replica_that_armed_a_bank_deadline_another_fires_it_once():
    """Item 1: seat 0 moves (charged beyond the budget, earning the increment); seat 1 does
    not. The replica owning the match is killed; another plays seat 1's default once, when its
    budget and whole bank are spent, and its bank is 0 from then on. A seat and a spectator
    see the same clocks."""
    with own_redis() as redis_url:
        await kill_the_owner_while_a_bank_runs(redis_url)


async def kill_the_owner_while_a_bank_runs(redis_url: str) -> None:
    stack = start_stack(redis_url, replicas=2)
    try:
        async with GatewayClient(stack.address) as client:
            match, players = await new_match(
                client, turn_timer_ms=BUDGET, time_bank_ms=BANK, time_bank_increment_ms=INCREMENT
            )
            first = (await players[0].actions()).actions[0]
            moved = (await players[0].submit(first)).result.progress
            spent = started(moved, 1) - started(match.progress, 0)
            bank0 = BANK - max(0, spent - BUDGET) + INCREMENT
            assert clocks(moved) == [(bank0, 0), (BANK, started(moved, 1) + BUDGET)]
            assert moved.pending[0].deadline_unix_ms == started(moved, 1) + BUDGET + BANK
            replicas = stack.rules["tinycards"]
            match_id = match.name.removeprefix("matches/")
            owner = replicas[rank_addresses(match_id, tuple(p.address for p in replicas))[0]]
            owner.stop(signal.SIGKILL)
            watcher = Watcher(client.spectate(match.name))
            await watcher.until(lambda: watcher.timeouts())
            watcher.stop()
            after = (await client.match(match.name)).progress
            seen = (await players[1].get_view()).progress
        assert [(version, notice.seat) for version, notice in watcher.timeouts()] == [(3, 1)]
        assert after.version == 3 and seen.clocks == after.clocks
        assert clocks(after) == [(bank0, started(after, 0) + BUDGET), (0, 0)]
        assert after.pending[0].deadline_unix_ms == started(after, 0) + BUDGET + bank0
    finally:
        stack.stop()


async def test_banks_survive_a_restart_of_everything():
    """Item 1: gateway, rules and Redis all stop while seat 1's bank runs; Redis alone comes
    back with the clocks committed before (nothing can fire while no rules replica runs);
    once the services are back, seat 1's bank runs out and its default is played once."""
    redis = EmbeddedRedis(persistent=True).start()
    try:
        stack = start_stack(redis.url)
        async with GatewayClient(stack.address) as client:
            match, players = await new_match(client, turn_timer_ms=BUDGET, time_bank_ms=1000)
            first = (await players[0].actions()).actions[0]
            before = (await players[0].submit(first)).result.progress
        for proc in stack.processes():
            proc.stop(signal.SIGKILL)
        redis.stop(remove=False)
        redis.start()
        kept = await stored_progress(redis.url, match)
        assert kept.version == 2 and wire(kept.clocks) == wire(before.clocks)
        assert wire(kept.pending) == wire(before.pending)
        stack = start_stack(redis.url)
        try:
            async with GatewayClient(stack.address) as client:
                watcher = Watcher(client.spectate(match.name))
                await watcher.until(lambda: watcher.timeouts())
                watcher.stop()
            fired = [(v, notice.seat) for v, notice in watcher.timeouts() if v == 3]
            assert fired == [(3, 1)]
        finally:
            stack.stop()
    finally:
        redis.stop()


async def test_bank_options_are_bounded(redis_url):
    """Item 1 at the edge: a bank over a day is refused with INVALID_FIELD, nothing created."""
    stack = start_stack(redis_url)
    try:
        async with GatewayClient(stack.address) as client:
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await new_match(client, time_bank_ms=86_400_001)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    finally:
        stack.stop()
