"""Between encounters: the Butler passes left, hands are refilled, the next Room is revealed."""

from __future__ import annotations

from parlour.engine.game import Emitted
from parlour.games.houseofhorrors.catalogue import card
from parlour.games.houseofhorrors.decks import draw_up, reveal_rooms
from parlour.games.houseofhorrors.events import public
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb


def scores(state: pb.State) -> list[int]:
    """Hourglasses in each seat's spoils."""
    return [sum(card(c).hourglasses for c in pile.cards) for pile in state.spoils]


def winners(state: pb.State) -> list[int]:
    """Every seat with the most hourglasses (a shared win on a tie)."""
    points = scores(state)
    best = max(points)
    return [s for s, p in enumerate(points) if p == best]


def finish(state: pb.State, reason: str) -> list[Emitted]:
    """End the game."""
    state.phase = pb.PHASE_OVER
    return [public(ended=pb.GameEnded(scores=scores(state), winners=winners(state), reason=reason))]


def after_encounter(state: pb.State) -> list[Emitted]:
    """After the spoils: the game ends at Dawn, else a new round in a new Room."""
    if state.final_round:
        return finish(state, "the Dawn round is over")
    return _next_round(state, new_room=True)


def after_tie(state: pb.State) -> list[Emitted]:
    """After a tie: a new Butler fights again in the same Room, at Dawn too (Special Cases)."""
    return _next_round(state, new_room=False)


def _next_round(state: pb.State, *, new_room: bool) -> list[Emitted]:
    state.butler = (state.butler + 1) % state.seats
    events = [public(butler=pb.ButlerPassed(seat=state.butler))]
    events += draw_up(state, state.butler)
    if not any(hand.cards for hand in state.hands):
        return events + finish(state, "no cards are left to play")
    state.battle = pb.BATTLE_UNSPECIFIED
    state.turn = state.butler
    state.turns_done = 0
    if new_room:
        state.phase = pb.PHASE_CHOOSE_ROOM
        events += reveal_rooms(state)
    else:
        state.phase = pb.PHASE_DECLARE
    return events
