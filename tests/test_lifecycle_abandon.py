"""Issue 17 item 5, abandonment: a seat that lets its timer run out too often in a row is
played by the platform, or the match is ended, as the host's options say; the outcome says
why and the log still verifies."""

from __future__ import annotations

import grpc
import pytest
from lifecycle_support import (
    Watcher,
    cli,
    client_fixture,
    new_match,
    reason,
    stack_fixture,
    wait_finished,
)

from parlour.engine.abandon import streak
from parlour.engine.v1 import platform_pb2
from parlour.games.tinycards.v1 import tinycards_pb2 as tc
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rules.v1 import rules_pb2 as rules

stack = stack_fixture()
client = client_fixture()


def abandonments(watcher):
    found = []
    for event in watcher.events:
        if event.event.Is(platform_pb2.Abandoned.DESCRIPTOR):
            notice = platform_pb2.Abandoned()
            event.event.Unpack(notice)
            found.append((notice.seat, notice.ended))
    return found


def verifies(stack, match, path):
    saved = cli("replay", match.name, "--gateway", stack.address, "--all", "--save", str(path))
    assert saved.returncode == 0, saved.stderr
    done = cli("verify", str(path))
    assert done.returncode == 0, done.stderr


async def test_end_match_policy_ends_it_with_the_reason(client, stack, tmp_path):
    """Item 5: with ABANDON_POLICY_END_MATCH and 2 timeouts in a row, the seat that times out
    twice ends the match: it scores 0, the other seat wins, the outcome says why, and nothing
    can be played afterwards."""
    match, _ = await new_match(
        client,
        turn_timer_ms=40,
        abandon_after_timeouts=2,
        on_abandon=gw.ABANDON_POLICY_END_MATCH,
    )
    watcher = Watcher(client.spectate(match.name))
    final = await wait_finished(client, match, watcher)
    watcher.stop()
    outcome = final.progress.outcome
    assert "abandoned" in outcome.summary
    assert abandonments(watcher) == [(0, True)]
    assert list(outcome.winners) == [1] and list(outcome.scores) == [0, 0]
    timeouts = [e for e in watcher.events if e.event.Is(platform_pb2.TimedOut.DESCRIPTOR)]
    assert [e.actor for e in timeouts] == [0, 1]
    verifies(stack, match, tmp_path / "ended.json")


async def test_platform_plays_an_abandoned_seat(client, stack, tmp_path):
    """Item 5: with the default policy, each seat abandons once (one Abandoned event each) and
    the platform plays it to the end; the outcome says so and the log verifies."""
    match, _ = await new_match(client, turn_timer_ms=40, abandon_after_timeouts=1)
    watcher = Watcher(client.spectate(match.name))
    final = await wait_finished(client, match, watcher)
    watcher.stop()
    assert sorted(abandonments(watcher)) == [(0, False), (1, False)]
    assert "The platform played for {seat:0} and {seat:1} after leaving." in (
        final.progress.outcome.summary)
    verifies(stack, match, tmp_path / "played.json")


def test_a_move_of_its_own_breaks_the_streak():
    """Item 5: only timeouts in a row count; the seat's own move starts the count again."""
    log = [
        rules.LoggedAction(seat=0, timed_out="turn"),
        rules.LoggedAction(seat=1),
        rules.LoggedAction(seat=0),
        rules.LoggedAction(seat=1, timed_out="turn"),
        rules.LoggedAction(seat=0, timed_out="turn"),
    ]
    assert streak(log, 0) == 1 and streak(log, 1) == 1
    assert streak(log[:1], 0) == 1 and streak(log[:3], 0) == 0


async def test_refused_after_the_end_names_the_reason(client):
    """Item 5: a finished match refuses actions with GAME_OVER."""
    match, players = await new_match(
        client, turn_timer_ms=40, abandon_after_timeouts=1, on_abandon=gw.ABANDON_POLICY_END_MATCH
    )
    watcher = Watcher(client.spectate(match.name))
    await wait_finished(client, match, watcher)
    watcher.stop()
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await players[0].submit(tc.Action(draw=tc.DrawCard()))  # seat 0 still owes a turn
    assert reason(refused.value) == "GAME_OVER"
