"""Setup and the ordinary turn: Story Sequence, drawing, I Say, the Location chit."""

from __future__ import annotations

from collections import Counter

import pytest

from parlour.engine.game import IllegalAction, InvalidOptions
from parlour.games.isayholmes import GAME
from parlour.games.isayholmes.catalogue import deal_out_stack
from parlour.games.isayholmes.tests.positions import (
    A,
    act,
    draw,
    empty_draw_pile,
    hand,
    kinds,
    legal,
    play,
    position,
)
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb

AFOOT = pb.CARD_THE_GAME_IS_AFOOT


@pytest.mark.parametrize("seats", range(3, 9))
def test_setup_deals_the_deal_out_stack(seats):
    """Six cards each from the cards numbered <= players; the rest is the Draw Pile;
    the chit shows LONDON (Rulebook 3, Setup)."""
    state = GAME.new_state(pb.Options(), seats, seed=seats)
    dealt = Counter(c for h in state.hands for c in h.cards)
    dealt[AFOOT] += 1
    assert dealt == Counter(deal_out_stack(seats))
    assert sorted(len(h.cards) for h in state.hands) == [5] + [6] * (seats - 1)
    assert len(state.draw_pile) == 120 - 6 * seats
    assert state.location == pb.REGION_LONDON


@pytest.mark.parametrize("seed", range(6))
def test_holder_of_the_game_is_afoot_opens(seed):
    """Whoever holds The Game is Afoot! places it; play proceeds to the left (Rulebook 4, Play)."""
    state = GAME.new_state(pb.Options(), 5, seed=seed)
    opener = next(s for s, h in enumerate(state.hands) if len(h.cards) == 5)
    assert list(state.discard_pile) == [AFOOT]
    assert state.turn == (opener + 1) % 5
    assert GAME.pending(state)[0].seat == state.turn


def test_bad_seat_counts_and_rounds_are_refused():
    """The game is for 3 to 8 players (Rulebook 1); a match has a sane number of rounds."""
    for seats in (2, 9):
        with pytest.raises(InvalidOptions):
            GAME.new_state(pb.Options(), seats, seed=0)
    with pytest.raises(InvalidOptions):
        GAME.new_state(pb.Options(rounds=1000), 4, seed=0)


def test_only_a_suitable_card_may_be_played():
    """The next card must be of a type shown on the last card played (Rulebook 4, Play)."""
    state = position([[pb.CARD_TRAIN, pb.CARD_CLUE], [pb.CARD_CLUE], [pb.CARD_CLUE]])
    assert legal(state, 0) == [play(pb.CARD_TRAIN)]
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, play(pb.CARD_CLUE))
    assert refused.value.reason == "NOT_SUITABLE"
    after, _ = act(state, 0, play(pb.CARD_TRAIN))
    assert after.discard_pile[-1] == pb.CARD_TRAIN and after.turn == 1


def test_draw_only_without_a_suitable_card():
    """Only a player without a Suitable Card must draw (Rulebook 4, Play)."""
    state = position([[pb.CARD_TRAIN, pb.CARD_CLUE], [pb.CARD_CLUE], [pb.CARD_CLUE]])
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, draw())
    assert refused.value.reason == "HAS_SUITABLE_CARD"
    state.turn = 1
    assert legal(state, 1) == [draw()]


def test_a_drawn_suitable_card_is_played_immediately():
    """A drawn Suitable Card must be played at once (Rulebook 4, Play)."""
    state = position([[pb.CARD_CLUE], [pb.CARD_CLUE], [pb.CARD_CLUE]], draw_top=(pb.CARD_TRAIN,))
    after, events = act(state, 0, draw())
    assert after.discard_pile[-1] == pb.CARD_TRAIN
    assert kinds(events, "played")[0].drawn
    assert hand(after, 0) == [pb.CARD_CLUE] and after.turn == 1


def test_a_drawn_unsuitable_card_is_kept_and_play_passes_left():
    """A drawn card that is not Suitable joins the hand; play passes left (Rulebook 4, Play).
    The drawer reads one line naming the card, the others one without it (issue 43)."""
    state = position([[pb.CARD_CLUE], [pb.CARD_CLUE], [pb.CARD_CLUE]], draw_top=(pb.CARD_ARREST,))
    after, events = act(state, 0, draw())
    assert hand(after, 0) == [pb.CARD_CLUE, pb.CARD_ARREST] and after.turn == 1
    assert [list(d.cards) for d in kinds(events, "drawn")] == [[]]
    assert [list(d.cards) for d in kinds(events, "drawn", viewer=0)] == [[pb.CARD_ARREST]]
    assert [list(d.cards) for d in kinds(events, "drawn", viewer=1)] == [[]]


def test_i_say_out_of_sequence_costs_nothing_and_keeps_the_sequence():
    """An I Say may be played out of sequence with no penalty; play then follows the previous
    card as if it had not been played (Rulebook 2, I Say)."""
    state = position([[pb.CARD_I_SAY, pb.CARD_CLUE], [pb.CARD_TRAIN], [pb.CARD_CLUE]])
    assert play(pb.CARD_I_SAY) in legal(state, 0) and draw() in legal(state, 0)
    after, _ = act(state, 0, play(pb.CARD_I_SAY))
    assert after.scores[0] == 0
    assert legal(after, 1) == [play(pb.CARD_TRAIN)]


def test_i_say_in_sequence_deducts_ten():
    """An I Say played after a card showing "I Say (-10)" deducts ten points (Rulebook 2, I Say)."""
    state = position(
        [[pb.CARD_I_SAY, pb.CARD_LONDON], [pb.CARD_CLUE], [pb.CARD_CLUE]],
        discard=(AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_LONDON, pb.CARD_CLUE),
    )
    after, events = act(state, 0, play(pb.CARD_I_SAY))
    assert after.scores[0] == -10
    assert kinds(events, "score_changed")[0].delta == -10


def test_train_goes_to_the_other_region():
    """Train flips the Location chit; a Location in the other region follows (Rulebook 7)."""
    state = position(
        [[pb.CARD_TRAIN, pb.CARD_CLUE], [pb.CARD_LONDON, pb.CARD_VILLAGE], [pb.CARD_CLUE]]
    )
    after, _ = act(state, 0, play(pb.CARD_TRAIN))
    assert after.location == pb.REGION_COUNTRY
    assert legal(after, 1) == [play(pb.CARD_VILLAGE)]


def test_hansom_cab_stays_in_the_region():
    """Hansom Cab leaves the chit alone; a Location in the same region follows (Rulebook 7)."""
    state = position(
        [[pb.CARD_HANSOM_CAB, pb.CARD_CLUE], [pb.CARD_LONDON, pb.CARD_VILLAGE], [pb.CARD_CLUE]]
    )
    after, _ = act(state, 0, play(pb.CARD_HANSOM_CAB))
    assert after.location == pb.REGION_LONDON
    assert legal(after, 1) == [play(pb.CARD_LONDON)]


def test_a_location_names_what_may_follow():
    """The Country may be followed by Arrest, Clue, Telegram, Train, Hansom Cab (and Thick Fog,
    our catalogue), not by Disguise (Rulebook 2, Story Sequence)."""
    held = [pb.CARD_ARREST, pb.CARD_CLUE, pb.CARD_TELEGRAM, pb.CARD_TRAIN, pb.CARD_DISGUISE]
    state = position(
        [held, [pb.CARD_CLUE], [pb.CARD_CLUE]],
        discard=(AFOOT, pb.CARD_TRAIN, pb.CARD_THE_COUNTRY),
        location=pb.REGION_COUNTRY,
    )
    assert pb.CARD_DISGUISE not in {a.play.card for a in legal(state, 0)}
    assert len(legal(state, 0)) == 4


def test_the_draw_pile_is_refilled_from_the_discards():
    """When the Draw Pile runs out, the discards below the card in force are reshuffled into it,
    The Game is Afoot! set aside (our choice; the rulebook is silent)."""
    state = position(
        [[pb.CARD_CLUE], [pb.CARD_CLUE], [pb.CARD_CLUE]],
        discard=(AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_LONDON, pb.CARD_ARREST),
    )
    empty_draw_pile(state)
    after, events = act(state, 0, draw())
    assert list(after.discard_pile) == [pb.CARD_ARREST]
    assert AFOOT in after.set_aside
    assert len(after.draw_pile) + len(after.hands[0].cards) == 1 + 2
    assert kinds(events, "reshuffled")[0].draw_pile == 2


def test_the_game_is_afoot_is_never_reshuffled_into_the_draw_pile():
    """Rulebook 2, Plot Thickens: the discards are shuffled into the Draw Pile "setting aside
    The Game is Afoot! card", and so when the Draw Pile runs out (RULES.md, Running out of
    cards). With only The Game is Afoot! below the card in force there is nothing to draw:
    the player without a Suitable Card passes, and a draw is refused."""
    state = position(
        [[pb.CARD_CLUE], [pb.CARD_CLUE], [pb.CARD_CLUE]], discard=(AFOOT, pb.CARD_HANSOM_CAB)
    )
    empty_draw_pile(state)
    assert legal(state, 0) == [A(pass_turn=pb.PassTurn())]
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, draw())
    assert refused.value.reason == "DRAW_PILE_EMPTY"
    after, _ = act(state, 0, A(pass_turn=pb.PassTurn()))
    assert list(after.discard_pile) == [AFOOT, pb.CARD_HANSOM_CAB]
    assert not after.draw_pile


def test_nothing_to_play_or_draw_passes_and_a_lap_of_passes_ends_the_round():
    """With nothing to play or draw a player passes; a full lap of passes ends the round
    (our choice; the rulebook is silent)."""
    state = position([[pb.CARD_CLUE], [pb.CARD_CLUE], [pb.CARD_CLUE]])
    empty_draw_pile(state)
    assert legal(state, 0) == [A(pass_turn=pb.PassTurn())]
    for seat in range(3):
        state, _ = act(state, seat, A(pass_turn=pb.PassTurn()))
    assert state.phase == pb.PHASE_OVER
    assert state.last_result.end == pb.ROUND_END_STALEMATE
    assert list(state.scores) == [5, 5, 5]
