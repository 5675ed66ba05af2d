"""Hidden information: views, private events, resampling (Rulebook 3; DESIGN)."""

from __future__ import annotations

from parlour.engine import runtime
from parlour.engine.conformance import play_random
from parlour.engine.rng import Rng
from parlour.games.isayholmes import GAME
from parlour.games.isayholmes.tests.positions import act, decline, play, position, target
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb

AFOOT = pb.CARD_THE_GAME_IS_AFOOT


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others():
    """Players keep their cards secret; a view shows the viewer's hand and others' hand sizes
    (Rulebook 3, Setup)."""
    state = GAME.new_state(pb.Options(), 5, seed=3)
    mine = GAME.view(state, 2)
    assert list(mine.hand) == sorted(state.hands[2].cards)
    assert list(mine.hand_sizes) == [len(h.cards) for h in state.hands]
    assert not GAME.view(state, None).hand
    assert mine.draw_pile_size == len(state.draw_pile)


def test_a_peek_is_shown_only_to_the_seat_that_looked():
    """Deduction's look is private: only the looker's view carries it (Rulebook 2, Deduction)."""
    hands = [[pb.CARD_DEDUCTION, pb.CARD_CLUE], [pb.CARD_MORIARTY], [pb.CARD_BOAT]]
    state = position(hands, discard=(AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_LONDON))
    state, _ = act(state, 0, play(pb.CARD_DEDUCTION))
    state, _ = act(state, 0, target(1))
    state, _ = act(state, 1, decline())
    assert list(GAME.view(state, 0).peek.cards) == [pb.CARD_MORIARTY]
    assert not GAME.view(state, 2).peek.cards and not GAME.view(state, None).peek.cards


def test_resampling_changes_hidden_cards_but_not_the_view():
    """resample_hidden shuffles the Draw Pile and other hands, keeping what the seat sees."""
    state = GAME.new_state(pb.Options(), 6, seed=11)
    for seat in (None, 0, 3):
        twin = GAME.resample_hidden(state, seat, Rng.from_seed(5))
        assert runtime.serialize(GAME.view(twin, seat)) == runtime.serialize(GAME.view(state, seat))
        assert twin.draw_pile != state.draw_pile
        GAME.check_conservation(twin)


def test_every_event_and_action_has_a_readable_line():
    """describe_action and describe_event give one line for every move and event of a game."""
    record = play_random(GAME, pb.Options(rounds=2), 5, seed=4)
    state = GAME.new_state(pb.Options(rounds=2), 5, seed=4)
    for seat, action in record.actions:
        line = GAME.describe_action(action)
        assert line and "\n" not in line
        state, events = runtime.apply(GAME, state, seat, action)
        for emitted in events:
            text = GAME.describe_event(emitted.event)
            assert text and "\n" not in text and "?" not in text
