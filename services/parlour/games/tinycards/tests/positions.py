"""Build exact Tiny Cards positions and play moves on them, for scenario tests."""

from __future__ import annotations

from parlour.engine.game import Emitted
from parlour.games.tinycards import GAME
from parlour.games.tinycards.catalogue import DECK
from parlour.games.tinycards.v1 import tinycards_pb2 as pb


def position(
    hands: list[list[int]],
    *,
    played: list[list[int]] | None = None,
    turn: int = 0,
    deck: list[int] | None = None,
) -> pb.State:
    """A state with these hands (and played piles); every other card lies in the deck, in
    value order (top = last) unless `deck` gives it."""
    played = played or [[] for _ in hands]
    used = {c for pile in [*hands, *played] for c in pile}
    if deck is None:
        deck = [c for c in DECK if c not in used]
    state = pb.State(seats=len(hands), deck=deck, turn=turn)
    for hand, pile in zip(hands, played, strict=True):
        state.hands.add(cards=hand)
        state.played.add(cards=pile)
    GAME.check_conservation(state)
    return state


def play(state: pb.State, seat: int, card: int) -> list[Emitted]:
    """Seat plays `card` from its hand."""
    return GAME.apply(state, seat, pb.Action(play=pb.PlayCard(card=card)))


def draw(state: pb.State, seat: int) -> list[Emitted]:
    """Seat draws the top card of the deck."""
    return GAME.apply(state, seat, pb.Action(draw=pb.DrawCard()))
