"""Issue 44 item 1, "away until ...": a seat of a correspondence match pauses its clock within
the limits the match set (SetAway); every seat and spectator gets an Away event; the pause is
a platform action in the log, which replays and verifies; the timeout sweep fires at the
shifted deadline, driven by the test clock (no sleeps). Real gateway, rules and Redis."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import grpc
import pytest
import redis.asyncio as aioredis
from lifecycle_support import Watcher, cli, reason

from parlour.engine.v1 import platform_pb2
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.matchlogs import lines, verify
from parlour.notify.outbox import Outbox
from parlour.rpc.errors import ServiceError
from parlour.rules.away import paused
from parlour.rules.v1 import rules_pb2 as rules
from parlour.store import keys
from parlour.store.outbox import OutboxStore

pytest_plugins = ["driven_clock"]  # clock, stack, client

HOUR = 3_600_000
DAY = 24 * HOUR
#: Slack for the time between the test reading its clock and a replica reading its own.
SLACK = 60_000


async def away_match(client, max_days=3, total_days=0, hours=72, **life):
    """A 2-seat tinycards match with a 3-day correspondence clock and pauses allowed."""
    corr = gw.Correspondence(
        hours_per_move=hours, max_pause_days=max_days, max_pause_days_total=total_days
    )
    request = gw.CreateMatchRequest(
        game="tinycards",
        seats=2,
        allow_spectators=True,
        lifecycle=gw.LifecycleOptions(correspondence=corr, **life),
    )
    match = (await client.stub.CreateMatch(request)).match
    players = [await client.join(match.name, f"p{i}") for i in range(2)]
    return match, players


def aways(watcher) -> list[tuple[platform_pb2.Away, str]]:
    found = []
    for event in watcher.events:
        if event.event.Is(platform_pb2.Away.DESCRIPTOR):
            notice = platform_pb2.Away()
            event.event.Unpack(notice)
            found.append((notice, event.text))
    return found


def deadline_of(progress, seat) -> int:
    return next(d.deadline_unix_ms for d in progress.pending if d.seat == seat)


async def refusal(call) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await call
    return refused.value.code(), reason(refused.value)


async def test_a_two_day_pause_moves_a_three_day_timeout_two_days_later(client, clock, stack):
    """Seat 0 owes its move with 3 days left and goes away for 2: its clock stands still, so
    the timeout fires at 5 days (the timer set points there), not at 3."""
    match, players = await away_match(client)
    first = deadline_of(match.progress, 0)
    answer = await players[0].set_away(clock.now() + 2 * DAY)
    shifted = deadline_of(answer.result.progress, 0)
    assert abs(shifted - (first + 2 * DAY)) < SLACK
    redis = aioredis.from_url(stack.redis_url)
    try:
        assert await redis.zscore(keys.timers("tinycards"), match.name.split("/")[1]) == shifted
    finally:
        await redis.aclose()
    watcher = Watcher(client.spectate(match.name))
    clock.advance(3 * DAY + SLACK)  # past the first deadline, inside the pause's shift
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(watcher.until(lambda: watcher.timeouts()), 3)
    assert (await client.match(match.name)).progress.version == answer.result.progress.version
    clock.advance(2 * DAY)
    await asyncio.wait_for(watcher.until(lambda: watcher.timeouts()), 60)
    watcher.stop()
    assert [n.seat for _, n in watcher.timeouts()] == [0]


async def test_every_seat_and_spectators_see_who_is_away_until_when(client, clock):
    """An Away event with the date in words reaches both seats and a spectator; the match's
    progress lists the pause; the game's views are what they were (nothing hidden moves)."""
    match, players = await away_match(client)
    before = [(await p.get_view()).view for p in players]
    watchers = [Watcher(p.events()) for p in players] + [Watcher(client.spectate(match.name))]
    until = clock.now() + DAY
    await players[1].set_away(until)
    for watcher in watchers:
        await asyncio.wait_for(watcher.until(lambda w=watcher: aways(w)), 60)
        watcher.stop()
    seen = [aways(w) for w in watchers]
    assert all(s == seen[0] for s in seen)
    (notice, text), = seen[0]
    assert (notice.seat, notice.until_unix_ms) == (1, until)
    assert text.startswith("{seat:1|is|are} away until ") and text.endswith(" UTC")
    progress = (await client.match(match.name)).progress
    assert [(a.seat, a.until_unix_ms) for a in progress.away] == [(1, until)]
    assert [(await p.get_view()).view for p in players] == before


async def test_a_seat_away_when_its_turn_comes_gets_its_budget_from_the_pause_end(client, clock):
    """Seat 1 (not to move) is away for 2 days; when seat 0 moves, seat 1's 3 days start at the
    pause's end."""
    match, players = await away_match(client)
    until = clock.now() + 2 * DAY
    await players[1].set_away(until)
    action = (await players[0].actions()).actions[0]
    progress = (await players[0].submit(action)).result.progress
    assert abs(deadline_of(progress, 1) - (until + 3 * DAY)) < SLACK


async def test_a_pause_cut_short_or_ended_gives_back_only_the_time_taken(client, clock):
    """Cut to 1 day, the deadline is 1 day later than without the pause; back (0), as if there
    had been none; the pause counts against the match's total as long as it lasted."""
    match, players = await away_match(client, total_days=3)
    first = deadline_of(match.progress, 0)
    await players[0].set_away(clock.now() + 2 * DAY)
    cut = (await players[0].set_away(clock.now() + DAY)).result.progress
    assert abs(deadline_of(cut, 0) - (first + DAY)) < SLACK
    back = (await players[0].set_away(0)).result.progress
    assert abs(deadline_of(back, 0) - first) < SLACK
    (record,) = back.away
    assert record.until_unix_ms == 0 and record.taken_ms < SLACK


async def test_the_same_request_id_is_answered_once(client, clock):
    """A repeated request id answers the first result and commits nothing more."""
    match, players = await away_match(client)
    until = clock.now() + DAY
    first = await players[0].set_away(until, request_id="away-1")
    again = await players[0].set_away(until, request_id="away-1")
    assert again.replayed and again.result == first.result
    assert (await client.match(match.name)).progress.version == first.result.progress.version
    code, why = await refusal(players[0].set_away(until + HOUR, request_id="away-1"))
    assert (code, why) == (grpc.StatusCode.INVALID_ARGUMENT, "REQUEST_ID_REUSED")


async def test_bad_pauses_are_refused_with_their_reasons(client, clock):
    """A past date, a pause beyond the limit or the match's total, coming back while not away,
    a match without pauses or without correspondence clocks, a finished match, another
    match's seat: each refused with its stable reason, nothing committed."""
    match, players = await away_match(client, max_days=2, total_days=3)
    bad = grpc.StatusCode.INVALID_ARGUMENT
    late = grpc.StatusCode.FAILED_PRECONDITION
    assert await refusal(players[0].set_away(clock.now() - HOUR)) == (bad, "AWAY_IN_PAST")
    assert await refusal(players[0].set_away(clock.now() + 3 * DAY)) == (bad, "PAUSE_TOO_LONG")
    assert await refusal(players[0].set_away(0)) == (late, "NOT_AWAY")
    assert await refusal(players[0].set_away(-1)) == (bad, "INVALID_FIELD")
    await players[0].set_away(clock.now() + 2 * DAY)
    await players[0].set_away(0)  # back at once: almost nothing taken
    await players[0].set_away(clock.now() + 2 * DAY)
    clock.advance(2 * DAY + SLACK)  # the second pause ran its course: 2 of 3 days taken
    assert await refusal(players[0].set_away(clock.now() + 2 * DAY)) == (
        late, "PAUSE_ALLOWANCE_USED"
    )
    assert (await client.match(match.name)).progress.version == 4

    _, no_pauses = await away_match(client, max_days=0)
    assert await refusal(no_pauses[0].set_away(clock.now() + DAY)) == (late, "PAUSES_NOT_ALLOWED")
    plain = (await client.stub.CreateMatch(gw.CreateMatchRequest(game="tinycards", seats=2))).match
    seat = await client.join(plain.name, "p0")
    assert await refusal(seat.set_away(clock.now() + DAY)) == (late, "NOT_CORRESPONDENCE")
    other = type(seat)(client, match.name, 0, seat.token)  # a token of another match
    assert await refusal(other.set_away(clock.now() + DAY)) == (
        grpc.StatusCode.UNAUTHENTICATED, "INVALID_SEAT_TOKEN"
    )
    request = gw.SetAwayRequest(match=match.name, until_unix_ms=clock.now() + DAY)
    assert await refusal(client.stub.SetAway(request)) == (  # a spectator
        grpc.StatusCode.UNAUTHENTICATED, "MISSING_SEAT_TOKEN"
    )

    finished, ended = await away_match(client, hours=1)
    while not (await ended[0].progress()).HasField("outcome"):
        progress = await ended[0].progress()
        seat_to_move = ended[progress.pending[0].seat]
        await seat_to_move.submit((await seat_to_move.actions()).actions[0])
    assert await refusal(ended[0].set_away(clock.now() + DAY)) == (late, "GAME_OVER")


async def test_limits_that_contradict_are_refused_at_creation(client):
    """A match total below one pause is refused PAUSE_LIMITS_CONFLICT."""
    code, why = await refusal(away_match(client, max_days=5, total_days=2))
    assert (code, why) == (grpc.StatusCode.INVALID_ARGUMENT, "PAUSE_LIMITS_CONFLICT")


async def test_a_log_with_pauses_replays_and_verifies(client, clock):
    """A finished match whose log holds a pause and a return: GetMatchLog lists them as the
    seat's platform entries, `parlour verify` recomputes every event (the Away ones too) and
    `parlour replay` prints them."""
    match, players = await away_match(client)
    until = clock.now() + DAY
    await players[1].set_away(until)
    await players[1].set_away(0)
    while not (await players[0].progress()).HasField("outcome"):
        progress = await players[0].progress()
        seat = players[progress.pending[0].seat]
        await seat.submit((await seat.actions()).actions[0])
    log = (
        await client.stub.GetMatchLog(gw.GetMatchLogRequest(match=match.name, reveal_all=True))
    ).log
    pauses = [(a.seat, a.away.until_unix_ms) for a in log.actions if a.HasField("away")]
    assert pauses == [(1, until), (1, 0)]
    assert "verified" in verify(log).lower()
    printed = "\n".join(lines(log))
    assert "seat 1: is away until " in printed and "seat 1: is back" in printed


async def test_a_paused_clock_is_not_low_until_the_pause_ends(stack, clock):
    """The notices' sweep writes no "clock_low" for a seat while it is away (its deadline may
    be near: 1 hour left plus a 2-hour pause), and writes it once the pause is over."""
    match, now = "away-notices", clock.now()
    redis = aioredis.from_url(stack.redis_url)
    try:
        await redis.hset(keys.meta(match), mapping={"seats": 2, "game": "tinycards",
                                                    "token:0": "t0", "token:1": "t1"})
        progress = rules.MatchProgress(version=3)
        progress.pending.add(seat=0, kind="turn", deadline_unix_ms=now + 3 * HOUR)
        progress.away.add(seat=0, until_unix_ms=now + 2 * HOUR, since_unix_ms=now)
        outbox, low = Outbox(OutboxStore(redis)), 12 * HOUR
        assert await outbox.changed(match, progress, low, now) == 1  # your_turn alone
        assert await outbox.changed(match, progress, low, now + 2 * HOUR + 1) == 1  # clock_low
        written = await redis.hkeys(keys.notified(match))
        assert sorted(k.decode().split(":")[0] for k in written if b":" in k) == [
            "clock_low", "turn", "your_turn"
        ]
    finally:
        await redis.aclose()


async def test_the_terminal_command_sets_and_ends_a_pause(client, clock, stack):
    """`parlour away MATCH --token T --until DATE` then `--back`; a refusal is one line and
    exit status 2."""
    match, players = await away_match(client)
    until = datetime.fromtimestamp((clock.now() + DAY) // 60_000 * 60, UTC)
    base = ["away", match.name, "--token", players[0].token, "--gateway", stack.address]
    done = cli(*base, "--until", until.isoformat())
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("You are away until ")
    assert [a.until_unix_ms for a in (await client.match(match.name)).progress.away] == [
        int(until.timestamp() * 1000)
    ]
    assert cli(*base, "--back").stdout.strip() == "You are back: your clock runs again."
    refused = cli(*base, "--back")
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1


def test_a_pause_extended_counts_from_its_start_and_its_total_from_every_pause():
    """Pure pause arithmetic: extending a running pause is bounded from its start, not from
    the change; a pause that ran its course counts in full toward the match's total; seat 1's
    clock never moves for seat 0's pause."""
    start, limits = 10 * DAY, (3 * DAY, 4 * DAY)
    progress = rules.MatchProgress(version=2)
    progress.pending.add(seat=0, kind="turn", deadline_unix_ms=start + DAY)
    progress.pending.add(seat=1, kind="turn", deadline_unix_ms=start + DAY)
    first = paused(progress, 0, start + 2 * DAY, start, limits)
    assert [d.deadline_unix_ms for d in first.pending] == [start + 3 * DAY, start + DAY]
    later = start + DAY
    with pytest.raises(ServiceError) as refused:
        paused(first, 0, later + 2 * DAY + 1, later, limits)  # 3 days and 1 ms from its start
    assert refused.value.reason == "PAUSE_TOO_LONG"
    longer = paused(first, 0, start + 3 * DAY, later, limits)
    assert longer.pending[0].deadline_unix_ms == start + 4 * DAY
    assert (longer.away[0].since_unix_ms, longer.away[0].taken_ms) == (start, 3 * DAY)
    after = start + 5 * DAY
    idle = rules.MatchProgress()
    idle.CopyFrom(longer)
    del idle.pending[:]  # the seats moved meanwhile
    again = paused(idle, 0, after + DAY, after, limits)  # 3 days taken + 1 = the total
    assert (again.away[0].since_unix_ms, again.away[0].taken_ms) == (after, 4 * DAY)
    with pytest.raises(ServiceError) as refused:
        paused(again, 0, after + DAY + 1, after, limits)
    assert refused.value.reason == "PAUSE_ALLOWANCE_USED"
    with pytest.raises(ServiceError) as refused:  # its deadline passed, not yet fired
        paused(progress, 1, start + 2 * DAY + 1, start + DAY, limits)
    assert refused.value.reason == "TIME_RAN_OUT"
