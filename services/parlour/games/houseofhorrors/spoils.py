"""The Spoils: the leader takes one, hands one to each eligible ally, and repeats."""

from __future__ import annotations

from parlour.engine.game import Emitted, IllegalAction
from parlour.engine.zones import remove_one
from parlour.games.houseofhorrors.copies import first_copies, require_first_copy
from parlour.games.houseofhorrors.events import public
from parlour.games.houseofhorrors.rounds import after_encounter
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb


def hand_out(state: pb.State, pool: list[int], leader: int, allies: list[int]) -> list[Emitted]:
    """Set out the spoils; with no eligible ally the leader simply takes them all."""
    if not pool or not allies:
        events = [_give(state, leader, c) for c in pool]
        return events + after_encounter(state)
    state.phase = pb.PHASE_SPOILS
    state.spoils_pool[:] = pool
    state.spoils_leader = leader
    state.spoils_allies[:] = allies
    del state.spoils_served[:]
    state.leader_took = False
    return []


def owed(state: pb.State) -> list[int]:
    """Allies still owed a spoil in this cycle."""
    return [a for a in state.spoils_allies if a not in state.spoils_served]


def legal(state: pb.State) -> list[pb.Action]:
    """The leader's choices: take one for herself, or hand one to an ally still owed one
    (copies of a card once)."""
    cards = first_copies(state.spoils_pool)
    if not state.leader_took:
        return [pb.Action(take_spoil=pb.TakeSpoil(card=c)) for c in cards]
    return [
        pb.Action(give_spoil=pb.GiveSpoil(card=c, seat=a)) for a in owed(state) for c in cards
    ]


def take(state: pb.State, _seat: int, action: pb.TakeSpoil) -> list[Emitted]:
    """The leader takes one spoil for herself."""
    if state.leader_took:
        raise IllegalAction("ALLIES_FIRST", "hand one spoil to each ally before taking another")
    _require_spoil(state, action.card)
    remove_one(state.spoils_pool, action.card, "NOT_A_SPOIL")
    state.leader_took = True
    events = [_give(state, state.spoils_leader, action.card)]
    return events + _next(state)


def give(state: pb.State, _seat: int, action: pb.GiveSpoil) -> list[Emitted]:
    """The leader hands one spoil to an ally."""
    if not state.leader_took:
        raise IllegalAction("LEADER_FIRST", "the leader takes her own spoil first")
    if action.seat not in owed(state):
        raise IllegalAction("NOT_OWED", f"player {action.seat + 1} is not owed a spoil now")
    _require_spoil(state, action.card)
    remove_one(state.spoils_pool, action.card, "NOT_A_SPOIL")
    state.spoils_served.append(action.seat)
    if not owed(state):
        state.leader_took = False
        del state.spoils_served[:]
    return [_give(state, action.seat, action.card), *_next(state)]


def _require_spoil(state: pb.State, card_id: int) -> None:
    if card_id not in state.spoils_pool:
        raise IllegalAction("NOT_A_SPOIL", "that card is not among the spoils")
    require_first_copy(state.spoils_pool, card_id)


def _next(state: pb.State) -> list[Emitted]:
    if state.spoils_pool:
        return []
    del state.spoils_allies[:]
    del state.spoils_served[:]
    state.leader_took = False
    return after_encounter(state)


def _give(state: pb.State, seat: int, card_id: int) -> Emitted:
    state.spoils[seat].cards.append(card_id)
    return public(spoil=pb.SpoilTaken(seat=seat, card=card_id))
