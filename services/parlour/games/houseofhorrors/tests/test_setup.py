"""Setup rules (Rulebook: Setup) and the declared player count (RULES.md: Player count)."""

from __future__ import annotations

import pytest

from parlour.engine.game import InvalidOptions
from parlour.engine.rng import Rng
from parlour.games.houseofhorrors import GAME
from parlour.games.houseofhorrors.catalogue import DAWN, HAND_SIZE, MIDNIGHT, ROOM_DECK, card
from parlour.games.houseofhorrors.setup import build_room_deck
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb


@pytest.mark.parametrize("seed", range(50))
def test_room_deck_has_dawn_in_bottom_pile_and_midnight_in_top_pile(seed):
    """Three piles; Dawn shuffled into the bottom, Midnight into the top (Rulebook: Setup)."""
    deck = build_room_deck(Rng.from_seed(seed))
    assert sorted(deck) == sorted(ROOM_DECK)
    assert DAWN in deck[:9] and MIDNIGHT in deck[-9:]  # bottom-first: 8 cards + Dawn, 8 + Midnight


def test_six_cards_dealt_to_each_player():
    """Each player is dealt six cards from the shuffled House of Horrors deck (Rulebook: Setup)."""
    state = GAME.new_state(GAME.default_options(5), 5, seed=3)
    assert HAND_SIZE == 6
    assert [len(h.cards) for h in state.hands] == [6] * 5
    assert len(state.house_deck) == 80 - 30


def test_oldest_player_is_the_first_butler_and_reveals_two_rooms():
    """The oldest player (first_butler) is the first Butler and reveals (Rulebook: Setup)."""
    state = GAME.new_state(pb.Options(first_butler=2), 4, seed=11)
    assert state.butler == 2 and state.phase == pb.PHASE_CHOOSE_ROOM
    assert len(state.revealed_rooms) == 2
    assert all(card(c).kind == pb.CARD_KIND_ROOM for c in state.revealed_rooms)
    assert [d.seat for d in GAME.pending(state)] == [2]


@pytest.mark.parametrize("seats", [1, 2, 7])
def test_three_to_six_players(seats):
    """The game seats 3 to 6 players (RULES.md: Player count)."""
    with pytest.raises(InvalidOptions):
        GAME.new_state(GAME.default_options(3), seats, seed=0)


def test_first_butler_must_be_at_the_table():
    """The first Butler is one of the seats (Rulebook: Setup)."""
    with pytest.raises(InvalidOptions) as refused:
        GAME.new_state(pb.Options(first_butler=4), 4, seed=0)
    assert refused.value.field == "first_butler"
