"""Issue 17 item 4, undo agreed by the other seats (`undo_needs_agreement`): a seat asks, every
other seat still playing accepts or refuses; the undo applies only once all accepted. Each step
is a new version with a public event that every seat's stream and the spectators' see alike;
a refusal or any seat's move closes the request; the log recomputes through the engine."""

from __future__ import annotations

import grpc
import pytest
from lifecycle_support import (
    Table,
    Watcher,
    client_fixture,
    new_match,
    reason,
    stack_fixture,
)

from parlour.engine.registry import get_game
from parlour.engine.v1 import platform_pb2
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rules.matchlog import verified
from parlour.rules.records import read_actions
from parlour.store.matchstore import MatchStore

GAME = get_game("murdercastle")
SEATS = max(3, GAME.min_seats)
UNDO_EVENTS = (
    platform_pb2.UndoRequested,
    platform_pb2.UndoAnswered,
    platform_pb2.UndoExpired,
    platform_pb2.Undone,
)


stack = stack_fixture(("murdercastle",))
client = client_fixture()


@pytest.fixture
async def table(client, stack):
    match, players = await new_match(
        client,
        seats=SEATS,
        seed=5,
        game="murdercastle",
        allow_undo=True,
        undo_needs_agreement=True,
    )
    table = Table(GAME, client, stack, match, players)
    yield table
    await table.close()


class Streams:
    """Every seat's live stream and a spectator's, followed from the start."""

    def __init__(self, table: Table) -> None:
        self.watchers = [Watcher(p.events()) for p in table.players]
        self.watchers.append(Watcher(table.client.spectate(table.match.name)))

    async def undo_events(self, until_sequence: int) -> list[list[tuple]]:
        """Per stream, the undo events (sequence, version, type, event bytes) it got."""
        seen = []
        for watcher in self.watchers:
            await watcher.until(lambda w=watcher: w.reached >= until_sequence)
            seen.append(
                [
                    (e.sequence, e.version, kind.DESCRIPTOR.name, e.event.value)
                    for e in watcher.events
                    for kind in UNDO_EVENTS
                    if e.event.Is(kind.DESCRIPTOR)
                ]
            )
        return seen

    def stop(self) -> None:
        for watcher in self.watchers:
            watcher.stop()


def others(table: Table, seat: int) -> list[int]:
    return [s for s in range(SEATS) if s != seat]


async def recomputed(stack, table: Table) -> None:
    """The stored log, every undo step included, recomputes to the stored events."""
    store = MatchStore.from_url(stack.redis_url)
    try:
        records = await store.match_log(table.id)
    finally:
        await store.close()
    verified(GAME, records, read_actions(GAME, records.actions))


async def test_undo_applies_once_every_other_seat_accepted(table, stack):
    """Item 4: the request opens (state unchanged, progress shows who is awaited); the first
    accept is recorded; the last one takes the action back. Repeats replay; the asking seat
    cannot answer; a seat cannot accept twice. Every stream sees the same four events."""
    seat, action = await table.find(None)
    player = table.players[seat]
    streams = Streams(table)
    before = await player.get_view()
    done = (await player.submit(action)).result.progress
    moved = await player.get_view()
    asked = (await table.undo(seat)).result.progress
    assert asked.version == done.version + 1
    assert asked.undo_request.seat == seat and asked.undo_request.undoes == done.version
    assert list(asked.undo_request.awaiting) == others(table, seat)
    assert (await player.get_view()).view == moved.view
    assert (await table.undo(seat)).replayed
    with pytest.raises(grpc.aio.AioRpcError) as own:
        await table.answer(seat, accept=True)
    assert reason(own.value) == "ANSWER_NOT_AWAITED"
    first, last = others(table, seat)[0], others(table, seat)[-1]
    half = (await table.answer(first, accept=True)).result.progress
    assert list(half.undo_request.accepted) == [first]
    with pytest.raises(grpc.aio.AioRpcError) as twice:
        await table.answer(first, accept=True, request_id="answer-2")
    assert reason(twice.value) == "ALREADY_ANSWERED"
    for middle in others(table, seat)[1:-1]:
        await table.answer(middle, accept=True)
    undone = await table.answer(last, accept=True)
    assert (await table.answer(last, accept=True)).replayed
    final = undone.result.progress
    assert not final.HasField("undo_request")
    again = await player.get_view()
    assert again.view == before.view and again.progress.pending == before.progress.pending
    seen = await streams.undo_events(final.last_sequence)
    streams.stop()
    assert all(stream == seen[0] for stream in seen)
    kinds = [kind for _, _, kind, _ in seen[0]]
    answers = ["UndoAnswered"] * (SEATS - 1)
    assert kinds == ["UndoRequested", *answers, "Undone"]
    await recomputed(stack, table)


async def test_one_refusal_closes_the_request_and_the_action_stays(table, stack):
    """Item 4: a refusal is a new version that closes the request (reason NO_UNDO_REQUEST
    for later answers); asking again for the same action is refused with UNDO_REFUSED."""
    seat, action = await table.find(None)
    streams = Streams(table)
    done = (await table.players[seat].submit(action)).result.progress
    moved = await table.players[seat].get_view()
    await table.undo(seat)
    first, last = others(table, seat)[0], others(table, seat)[-1]
    closed = (await table.answer(first, accept=False)).result.progress
    assert closed.version == done.version + 2 and not closed.HasField("undo_request")
    with pytest.raises(grpc.aio.AioRpcError) as late:
        await table.answer(last, accept=True)
    assert late.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert reason(late.value) == "NO_UNDO_REQUEST"
    with pytest.raises(grpc.aio.AioRpcError) as again:
        await table.undo(seat, request_id="undo-2")
    assert reason(again.value) == "UNDO_REFUSED"
    assert (await table.players[seat].get_view()).view == moved.view
    seen = await streams.undo_events(closed.last_sequence)
    streams.stop()
    assert all(stream == seen[0] for stream in seen)
    assert [kind for _, _, kind, _ in seen[0]] == ["UndoRequested", "UndoAnswered"]
    refusal = platform_pb2.UndoAnswered.FromString(seen[0][1][3])
    assert (refusal.seat, refusal.requester, refusal.accepted) == (first, seat, False)
    await recomputed(stack, table)


async def test_a_request_expires_when_anyone_acts(table, stack):
    """Item 4: the seat owing a decision plays instead of answering: an UndoExpired event comes
    first in that version, the request is closed and answers are refused."""
    seat, action = await table.find(None)
    streams = Streams(table)
    await table.players[seat].submit(action)
    await table.undo(seat)
    state = await table.state()
    mover = GAME.pending(state)[0].seat
    move = (await table.players[mover].actions()).actions[0]
    acted = (await table.players[mover].submit(move)).result
    assert not acted.progress.HasField("undo_request")
    with pytest.raises(grpc.aio.AioRpcError) as late:
        await table.answer(others(table, seat)[0], accept=True)
    assert reason(late.value) == "NO_UNDO_REQUEST"
    seen = await streams.undo_events(acted.progress.last_sequence)
    streams.stop()
    assert all(stream == seen[0] for stream in seen)
    assert [kind for _, _, kind, _ in seen[0]] == ["UndoRequested", "UndoExpired"]
    assert seen[0][1][:2] == (acted.first_sequence, acted.progress.version)
    await recomputed(stack, table)


async def test_the_policy_still_refuses_before_any_request_opens(table):
    """Item 4: with agreement too, an action that revealed something cannot be asked back
    (UNDO_AFTER_REVEAL): no request opens and the version stays."""
    seat, action = await table.find("UNDO_AFTER_REVEAL")
    done = (await table.players[seat].submit(action)).result.progress
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await table.undo(seat)
    assert reason(refused.value) == "UNDO_AFTER_REVEAL"
    current = (await table.client.match(table.match.name)).progress
    assert current.version == done.version and not current.HasField("undo_request")


async def test_an_answer_must_say_accept_or_refuse(table):
    """Item 4 at the edge: an unset answer is INVALID_ARGUMENT MISSING_ANSWER."""
    request = gw.AnswerUndoRequest(match=table.match.name, request_id="a")
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await table.client.stub.AnswerUndo(request, metadata=table.players[1].metadata)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert reason(refused.value) == "MISSING_ANSWER"
