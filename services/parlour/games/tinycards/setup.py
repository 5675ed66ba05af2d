"""Tiny Cards' setup: shuffle the twelve cards, deal `hand_size` to each seat."""

from __future__ import annotations

from parlour.engine.game import InvalidOptions
from parlour.engine.rng import Rng, state_rng
from parlour.engine.zones import take_top
from parlour.games.tinycards.catalogue import DECK
from parlour.games.tinycards.v1 import tinycards_pb2 as pb

MIN_SEATS, MAX_SEATS = 2, 4


def new_state(options: pb.Options, seats: int, seed: int) -> pb.State:
    """The deck shuffled from `seed` and each seat's hand dealt from its top (RULES.md, "Setup")."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidOptions("seats", f"Tiny Cards takes 2 to 4 seats, not {seats}")
    hand_size = options.hand_size or 2
    if hand_size * seats > len(DECK):
        raise InvalidOptions("hand_size", f"{hand_size} cards for {seats} seats exceeds the deck")
    state = pb.State(seats=seats, rng=Rng.from_seed(seed).state, deck=DECK)
    with state_rng(state) as rng:
        rng.shuffle(state.deck)
    for _ in range(seats):
        state.hands.add(cards=take_top(state.deck, hand_size))
        state.played.add()
    return state
