"""Issue 44 item 1, correspondence clocks: hours per move and a bank in hours, set at creation;
a 3-day clock driven by the test clock (no sleeps) times out as the host's policy says, with
each case in the log; the options are bounded at the edge."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from lifecycle_support import Watcher, reason

from parlour.engine.v1 import platform_pb2
from parlour.gateway.v1 import gateway_pb2 as gw

pytest_plugins = ["driven_clock"]  # clock, stack, client

HOUR = 3_600_000
DAYS_3 = 72 * HOUR


async def correspondence_match(client, policy, hours=72, bank_hours=0):
    request = gw.CreateMatchRequest(
        game="tinycards",
        seats=2,
        allow_spectators=True,
        lifecycle=gw.LifecycleOptions(
            correspondence=gw.Correspondence(
                hours_per_move=hours, bank_hours=bank_hours, on_timeout=policy
            )
        ),
    )
    match = (await client.stub.CreateMatch(request)).match
    players = [await client.join(match.name, f"p{i}") for i in range(2)]
    return match, players


def notices(watcher, kind):
    found = []
    for event in watcher.events:
        if event.event.Is(kind.DESCRIPTOR):
            notice = kind()
            event.event.Unpack(notice)
            found.append(notice)
    return found


async def timed_out(client, clock, policy):
    """A fresh 3-day match; the clock jumps past seat 0's deadline; returns what followed."""
    match, _ = await correspondence_match(client, policy)
    deadline = match.progress.pending[0].deadline_unix_ms
    assert abs(deadline - (clock.now() + DAYS_3)) < 60_000  # three days, by the test clock
    watcher = Watcher(client.spectate(match.name))
    clock.advance(DAYS_3 + 60_000)
    fired = (platform_pb2.TimedOut, platform_pb2.Abandoned)
    await asyncio.wait_for(watcher.until(lambda: any(notices(watcher, k) for k in fired)), 60)
    return match, watcher


async def test_default_action_policy_plays_the_default_and_the_seat_keeps_playing(client, clock):
    """The platform plays the game's default once; nobody is abandoned; the next decision has
    a fresh 3-day deadline."""
    match, watcher = await timed_out(client, clock, gw.CORRESPONDENCE_TIMEOUT_DEFAULT_ACTION)
    watcher.stop()
    assert [n.seat for n in notices(watcher, platform_pb2.TimedOut)] == [0]
    assert notices(watcher, platform_pb2.Abandoned) == []
    now = await client.match(match.name)
    assert now.status == gw.MATCH_STATUS_ACTIVE
    assert all(d.deadline_unix_ms > clock.now() + DAYS_3 - HOUR for d in now.progress.pending)


async def test_bot_policy_takes_the_seat_for_the_rest_of_the_match(client, clock):
    """The seat is abandoned (not ended) and the platform plays it from then on, without
    waiting: seat 0 never owes a decision with a 3-day deadline again."""
    match, watcher = await timed_out(client, clock, gw.CORRESPONDENCE_TIMEOUT_BOT_TAKES_SEAT)
    await asyncio.wait_for(watcher.until(lambda: notices(watcher, platform_pb2.Abandoned)), 60)
    watcher.stop()
    assert [(n.seat, n.ended) for n in notices(watcher, platform_pb2.Abandoned)] == [(0, False)]
    now = await client.match(match.name)
    assert now.status == gw.MATCH_STATUS_ACTIVE
    assert [d.seat for d in now.progress.pending] == [1]


async def test_forfeit_policy_ends_the_match_for_the_other_seat(client, clock):
    """The seat forfeits: the match ends at once (no default is played), the seat scores 0
    and the other seat wins."""
    match, watcher = await timed_out(client, clock, gw.CORRESPONDENCE_TIMEOUT_FORFEIT)
    await asyncio.wait_for(watcher.until(lambda: notices(watcher, platform_pb2.Abandoned)), 60)
    watcher.stop()
    assert [(n.seat, n.ended) for n in notices(watcher, platform_pb2.Abandoned)] == [(0, True)]
    assert notices(watcher, platform_pb2.TimedOut) == []
    now = await client.match(match.name)
    assert now.status == gw.MATCH_STATUS_FINISHED
    assert list(now.progress.outcome.winners) == [1]


async def test_the_bank_in_hours_adds_to_the_deadline(client, clock):
    """A 1-hour move with a 48-hour bank is due 49 hours out."""
    match, _ = await correspondence_match(
        client, gw.CORRESPONDENCE_TIMEOUT_DEFAULT_ACTION, hours=1, bank_hours=48
    )
    deadline = match.progress.pending[0].deadline_unix_ms
    assert abs(deadline - (clock.now() + 49 * HOUR)) < 60_000
    assert [c.bank_ms for c in match.progress.clocks] == [48 * HOUR, 48 * HOUR]


@pytest.mark.parametrize(
    ("lifecycle", "expected"),
    [
        (gw.LifecycleOptions(correspondence=gw.Correspondence(hours_per_move=0)), "INVALID_FIELD"),
        (gw.LifecycleOptions(correspondence=gw.Correspondence(hours_per_move=721)),
         "INVALID_FIELD"),
        (gw.LifecycleOptions(correspondence=gw.Correspondence(hours_per_move=1, bank_hours=2161)),
         "INVALID_FIELD"),
        (gw.LifecycleOptions(correspondence=gw.Correspondence(hours_per_move=1,
                                                              max_pause_days=31)),
         "INVALID_FIELD"),
        (gw.LifecycleOptions(turn_timer_ms=1000,
                             correspondence=gw.Correspondence(hours_per_move=1)),
         "CLOCK_CONFLICT"),
    ],
)
async def test_options_are_bounded_at_the_edge(client, lifecycle, expected):
    """Out-of-bounds hours or days, or both kinds of clock at once, are refused."""
    request = gw.CreateMatchRequest(game="tinycards", seats=2, lifecycle=lifecycle)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await client.stub.CreateMatch(request)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert reason(refused.value) == expected
