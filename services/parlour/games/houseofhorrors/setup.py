"""Setup (Rulebook: Setup): the Room deck in three piles, six cards each, the first reveal."""

from __future__ import annotations

from parlour.engine.game import InvalidOptions
from parlour.engine.rng import Rng, state_rng
from parlour.engine.zones import take_top
from parlour.games.houseofhorrors.catalogue import DAWN, HAND_SIZE, HOUSE_DECK, MIDNIGHT, ROOM_DECK
from parlour.games.houseofhorrors.decks import reveal_rooms
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

MIN_SEATS, MAX_SEATS = 3, 6


def build_room_deck(rng: Rng) -> list[int]:
    """Three piles of the shuffled Room deck, Dawn shuffled into the bottom, Midnight into the top.

    The result is bottom-first: the top of the deck is the last element.
    """
    others = [c for c in ROOM_DECK if c not in (MIDNIGHT, DAWN)]
    rng.shuffle(others)
    third = len(others) // 3
    bottom, middle, top = others[:third], others[third : 2 * third], others[2 * third :]
    bottom.append(DAWN)
    top.append(MIDNIGHT)
    rng.shuffle(bottom)
    rng.shuffle(top)
    return bottom + middle + top


def new_state(options: pb.Options, seats: int, seed: int) -> pb.State:
    """Shuffle both decks, deal six cards to each player; the first Butler reveals the Rooms
    and owes her choice of Room (RULES.md: Setup)."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidOptions("seats", f"House of Horrors takes 3 to 6 players, not {seats}")
    if options.first_butler >= seats:
        raise InvalidOptions(
            "first_butler", f"player {options.first_butler + 1} is not at a table of {seats}"
        )
    state = pb.State(seats=seats, rng=Rng.from_seed(seed).state, butler=options.first_butler)
    with state_rng(state) as rng:
        state.room_deck[:] = build_room_deck(rng)
        house = list(HOUSE_DECK)
        rng.shuffle(house)
        state.house_deck[:] = house
    for _ in range(seats):
        state.hands.add(cards=take_top(state.house_deck, HAND_SIZE))
        state.spoils.add()
        state.showings.add()
    state.phase = pb.PHASE_CHOOSE_ROOM
    state.turn = state.butler
    reveal_rooms(state)
    return state
