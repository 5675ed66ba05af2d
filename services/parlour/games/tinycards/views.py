"""What each seat of Tiny Cards may see: its own hand, everyone's hand sizes and played cards."""

from __future__ import annotations

from parlour.engine.game import copy_message
from parlour.engine.rng import Rng
from parlour.engine.zones import take_top
from parlour.games.tinycards.v1 import tinycards_pb2 as pb


def view(state: pb.State, seat: int | None) -> pb.View:
    """The seat's View (None: a spectator, who sees no hand)."""
    return pb.View(
        hand=sorted(state.hands[seat].cards) if seat is not None else [],
        hand_sizes=[len(h.cards) for h in state.hands],
        deck_size=len(state.deck),
        played=state.played,
        turn=state.turn,
        finished=state.finished,
    )


def resample_hidden(state: pb.State, seat: int | None, rng: Rng) -> pb.State:
    """A copy with the deck and the other seats' hands dealt anew from their cards, each
    pile keeping its size: what `seat` cannot tell apart from `state`."""
    other = copy_message(state)
    hidden_hands = [s for s in range(state.seats) if s != seat]
    pool = list(other.deck)
    for s in hidden_hands:
        pool += other.hands[s].cards
    rng.shuffle(pool)
    other.deck[:] = take_top(pool, len(state.deck))
    for s in hidden_hands:
        other.hands[s].cards[:] = take_top(pool, len(state.hands[s].cards))
    return other
