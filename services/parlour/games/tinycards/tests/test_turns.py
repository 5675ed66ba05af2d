"""Tiny Cards' rules (RULES.md, the clause named in each docstring), on exact positions."""

from __future__ import annotations

import pytest

from parlour.engine.game import IllegalAction, InvalidOptions
from parlour.games.tinycards import GAME
from parlour.games.tinycards.catalogue import DECK, check_catalogue
from parlour.games.tinycards.tests.positions import draw, play, position
from parlour.games.tinycards.v1 import tinycards_pb2 as pb


def test_components_are_twelve_cards_numbered_1_to_12():
    """Components: twelve cards numbered 1 to 12, one of each."""
    check_catalogue()
    assert DECK == tuple(range(1, 13))


def test_setup_deals_each_seat_its_hand_from_the_shuffled_deck():
    """Setup: each seat gets `hand_size` cards; the rest stays in the deck; seeded."""
    state = GAME.new_state(pb.Options(hand_size=3), 4, seed=7)
    assert [len(h.cards) for h in state.hands] == [3, 3, 3, 3]
    assert len(state.deck) == 0
    assert GAME.new_state(pb.Options(hand_size=3), 4, seed=7) == state
    assert GAME.new_state(pb.Options(), 2, seed=7).hands[0].cards.__len__() == 2


def test_setup_refuses_a_deal_larger_than_the_deck():
    """Setup: 4 cards for 4 seats would need 16 of 12 cards."""
    with pytest.raises(InvalidOptions, match="exceeds the deck"):
        GAME.new_state(pb.Options(hand_size=4), 4, seed=1)
    with pytest.raises(InvalidOptions, match="2 to 4 seats"):
        GAME.new_state(pb.Options(), 5, seed=1)


def test_a_turn_is_a_card_from_hand_or_a_draw():
    """A turn: play a card from your hand, or draw while the deck has cards."""
    state = position([[3, 9], [5]])
    labels = [(a.WhichOneof("kind"), a.play.card) for a in GAME.legal_actions(state, 0)]
    assert labels == [("play", 3), ("play", 9), ("draw", 0)]
    with pytest.raises(IllegalAction) as refused:
        play(state, 0, 5)
    assert refused.value.reason == "CARD_NOT_IN_HAND"
    play(state, 0, 9)
    assert list(state.played[0].cards) == [9] and state.turn == 1


def test_a_draw_shows_the_card_only_to_the_drawer():
    """A draw is private: the drawer sees the card, the others only that a card was drawn."""
    state = position([[3], [5]])
    top = state.deck[-1]
    public, private = draw(state, 0)
    assert public.event.drawn.card == 0 and public.hidden_from == frozenset([0])
    assert private.event.drawn.card == top and private.to == frozenset([0])
    assert top in GAME.view(state, 0).hand and top not in GAME.view(state, 1).hand


def test_a_seat_with_nothing_to_do_is_skipped():
    """A seat with an empty hand and nothing to draw is skipped."""
    rest = [c for c in DECK if c not in (3, 7)]
    state = position([[3], [], [7]], played=[[], rest, []], deck=[])
    play(state, 0, 3)
    assert state.turn == 2


def test_the_game_ends_when_every_card_is_played_and_ties_share_the_win():
    """The end: every card played; score = sum of your played cards; ties share the win."""
    rest = [c for c in DECK if c not in (1, 2, 12)]
    state = position([[1], [2]], played=[[12], rest], deck=[])
    assert sum(rest) == 63
    play(state, 0, 1)
    assert GAME.outcome(state) is None
    events = play(state, 1, 2)
    assert state.finished and list(events[-1].event.ended.scores) == [13, 65]
    assert GAME.outcome(state).winners == (1,)
    tie = position([[1], [2]], played=[[12, 11, 10, 5], [9, 8, 7, 6, 4, 3]], deck=[])
    play(tie, 0, 1)
    play(tie, 1, 2)
    assert GAME.outcome(tie).scores == (39, 39)
    assert GAME.outcome(tie).winners == (0, 1)
