"""Issue 17 item 4, undo with a policy: a seat takes back its own last action as a new version
(the log keeps both) only while no other seat acted since and the action revealed nothing."""

from __future__ import annotations

import grpc
import pytest
from lifecycle_support import Table, client_fixture, new_match, reason, stack_fixture

from parlour.engine import runtime
from parlour.engine.registry import get_game
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rules.matchlog import verified
from parlour.rules.records import read_actions
from parlour.rules.v1 import rules_pb2 as rules
from parlour.store import keys
from parlour.store.matchstore import MatchStore

GAME = get_game("murdercastle")
SEATS = max(3, GAME.min_seats)


stack = stack_fixture(("murdercastle",))
client = client_fixture()


@pytest.fixture
async def table(client, stack):
    match, players = await new_match(
        client, seats=SEATS, seed=5, game="murdercastle", allow_undo=True
    )
    table = Table(GAME, client, stack, match, players)
    yield table
    await table.close()


async def test_undo_restores_the_earlier_state_as_a_new_version(table, stack):
    """Item 4: an action that revealed nothing is taken back; the seat sees the view it had,
    the version moves on, an Undone event tells everyone, the log keeps both and replays."""
    seat, action = await table.find(None)
    player = table.players[seat]
    before = await player.get_view()
    done = await player.submit(action)
    undone = await table.undo(seat)
    assert undone.result.progress.version == done.result.progress.version + 1
    again = await player.get_view()
    assert again.view == before.view and again.progress.pending == before.progress.pending
    assert (await table.undo(seat)).replayed  # the same request id answers the same
    raw = await table.redis.lrange(keys.actions(table.id), -2, -1)
    taken, undo = (rules.LoggedAction.FromString(r) for r in raw)
    assert undo.undoes == taken.version and undo.seat == taken.seat == seat
    # the stored log, undo included, recomputes through the engine to the stored events
    store = MatchStore.from_url(stack.redis_url)
    try:
        records = await store.match_log(table.id)
    finally:
        await store.close()
    actions = read_actions(GAME, records.actions)
    verified(GAME, records, actions)
    notices = [e for e in records.events if b"parlour.engine.v1.Undone" in e.payload]
    assert [e.version for e in notices] == [undo.version]


@pytest.mark.parametrize("wanted", ["UNDO_AFTER_REVEAL", "UNDO_AFTER_RANDOMNESS"])
async def test_undo_refused_after_a_reveal_or_a_draw(table, wanted):
    """Item 4: an action that showed hidden information (or drew from the RNG) stays."""
    seat, action = await table.find(wanted)
    done = await table.players[seat].submit(action)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await table.undo(seat)
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert reason(refused.value) == wanted
    current = await table.client.match(table.match.name)
    assert current.progress.version == done.result.progress.version


async def test_undo_refused_once_another_seat_acted(table):
    """Item 4: only while no other seat acted since (checked before anything else)."""
    first = None
    while True:
        state = await table.state()
        seat = runtime.pending(GAME, state)[0].seat
        await table.players[seat].submit(runtime.legal_actions(GAME, state, seat)[0])
        if first is None:
            first = seat
        elif seat != first:
            break
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await table.undo(first)
    assert reason(refused.value) == "OTHER_SEAT_ACTED"


async def test_undo_refused_unless_the_match_allows_it(client):
    """Item 4: undo is off unless the match's options turn it on."""
    match, players = await new_match(client, seats=SEATS, game="murdercastle")
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await client.stub.UndoAction(
            gw.UndoActionRequest(match=match.name), metadata=players[0].metadata
        )
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert reason(refused.value) == "UNDO_NOT_ALLOWED"
