"""Ending a round (Rulebook 5) and scoring it (Rulebook 6)."""

from __future__ import annotations

import pytest

from parlour.engine.game import IllegalAction
from parlour.games.isayholmes import GAME
from parlour.games.isayholmes.tests.positions import (
    A,
    act,
    actions,
    decline,
    hand,
    kinds,
    legal_set,
    play,
    position,
    target,
)
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb

AFOOT = pb.CARD_THE_GAME_IS_AFOOT
IN_COUNTRY = (AFOOT, pb.CARD_TRAIN, pb.CARD_THE_COUNTRY)


def arrest(hands, accused, **kw):
    """Seat 0 plays an Arrest in the Country against `accused`, who declines to defend."""
    state = position(hands, discard=IN_COUNTRY, location=pb.REGION_COUNTRY, **kw)
    state, _ = act(state, 0, play(pb.CARD_ARREST))
    state, _ = act(state, 0, target(accused))
    return act(state, accused, decline())


def test_guilty_arrest_ends_the_round_and_scores_the_villains():
    """Guilty: play stops; "All players total the Value of the cards that they still hold" (the
    Guilty player's detected Villains included), "the Arresting player then subtracts" and "the
    Guilty player then adds" the detected Villains, so they count twice against him; undetected
    Villains are not scored (Rulebook 5, Arrest; Rulebook 6, After an Arrest)."""
    hands = [
        [pb.CARD_ARREST, pb.CARD_TRAIN],
        [pb.CARD_MILVERTON, pb.CARD_MORAN, pb.CARD_CLUE],
        [pb.CARD_MORIARTY, pb.CARD_TELEGRAM],
    ]
    state, events = arrest(hands, 1)
    assert kinds(events, "arrested")[0].guilty
    assert state.phase == pb.PHASE_OVER
    assert list(state.last_result.points) == [1 - 60, 5 + 60 + 60, 10]
    assert list(state.scores) == [-59, 125, 10]
    assert GAME.outcome(state).winners == (0,)


def test_not_guilty_arrest_swaps_in_a_fresh_hand():
    """Not Guilty: the arrester takes all the accused's cards, the accused draws a fresh hand of
    the same size, and play continues left of the arrester (Rulebook 5, Arrest)."""
    hands = [[pb.CARD_ARREST, pb.CARD_TRAIN], [pb.CARD_CLUE, pb.CARD_BOAT], [pb.CARD_TELEGRAM]]
    state, events = arrest(hands, 1, draw_top=(pb.CARD_CASTLE, pb.CARD_MANOR))
    assert hand(state, 0) == sorted([pb.CARD_TRAIN, pb.CARD_CLUE, pb.CARD_BOAT])
    assert hand(state, 1) == sorted([pb.CARD_CASTLE, pb.CARD_MANOR])
    assert kinds(events, "arrested")[0].taken == 2 and not kinds(events, "arrested")[0].cards
    assert state.phase == pb.PHASE_TURN and state.turn == 1


def test_escape_when_only_villains_are_left():
    """On your turn with only Villains in hand you must reveal them: they Escape; the escaper
    subtracts their value, the others add their hands (Rulebook 5, Escape; Rulebook 6)."""
    hands = [[pb.CARD_MORIARTY, pb.CARD_CLAY], [pb.CARD_CLUE, pb.CARD_MORAN], [pb.CARD_TELEGRAM]]
    state = position(hands)
    assert legal_set(state, 0) == actions(A(escape=pb.Escape()))
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, A(draw=pb.DrawCard()))
    assert refused.value.reason == "MUST_ESCAPE"
    state, events = act(state, 0, A(escape=pb.Escape()))
    assert list(kinds(events, "escaped")[0].villains) == [pb.CARD_MORIARTY, pb.CARD_CLAY]
    assert list(state.scores) == [-80, 5, 10]
    assert state.last_result.end == pb.ROUND_END_ESCAPE


def test_escape_is_refused_while_other_cards_are_held():
    """Only a hand of nothing but Villains escapes (Rulebook 5, Escape)."""
    state = position([[pb.CARD_MORIARTY, pb.CARD_CLUE], [pb.CARD_CLUE], [pb.CARD_CLUE]])
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, A(escape=pb.Escape()))
    assert refused.value.reason == "NOT_ONLY_VILLAINS"


def went_out(hands):
    """Seat 0 plays its last card, a Train."""
    state = position([[pb.CARD_TRAIN], *hands])
    return act(state, 0, play(pb.CARD_TRAIN))


def test_going_out_forces_an_arrest():
    """Playing your last card means you Went Out and must make an Arrest (Rulebook 5)."""
    state, events = went_out([[pb.CARD_CLUE], [pb.CARD_MORAN], [pb.CARD_BOAT]])
    assert kinds(events, "went_out")[0].seat == 0
    assert state.phase == pb.PHASE_ACCUSE
    assert legal_set(state, 0) == actions(target(1), target(2), target(3))
    state, _ = act(state, 0, target(2))
    assert state.phase == pb.PHASE_OVER and state.last_result.arrester == 0


def test_a_not_guilty_suspect_keeps_its_cards_and_accuses_next():
    """Went Out chain: a Not Guilty accused keeps his cards and must arrest an opponent, until a
    Guilty player is exposed (Rulebook 5)."""
    state, _ = went_out([[pb.CARD_CLUE], [pb.CARD_BOAT], [pb.CARD_MORAN, pb.CARD_CLUE]])
    state, _ = act(state, 0, target(1))
    assert hand(state, 1) == [pb.CARD_CLUE] and state.chain.accuser == 1
    assert legal_set(state, 1) == actions(target(2), target(3))
    with pytest.raises(IllegalAction) as refused:
        act(state, 1, target(0))
    assert refused.value.reason == "BAD_TARGET"
    state, _ = act(state, 1, target(2))
    state, _ = act(state, 2, target(3))
    assert state.last_result.arrester == 2 and state.last_result.villain_seat == 3
    assert list(state.last_result.points) == [0, 5, 5 - 40, 5 + 40 + 40]


def test_a_chain_that_finds_no_villain_ends_the_round():
    """If every opponent is found Not Guilty the round ends with no Villain scored (our choice;
    the rulebook assumes a Villain is always held)."""
    state, _ = went_out([[pb.CARD_CLUE], [pb.CARD_BOAT]])
    state, _ = act(state, 0, target(1))
    state, _ = act(state, 1, target(2))
    assert state.phase == pb.PHASE_OVER
    assert state.last_result.end == pb.ROUND_END_NO_VILLAIN
    assert list(state.scores) == [0, 5, 5]


def test_a_match_lasts_the_agreed_rounds_and_the_lowest_total_wins():
    """A new game is dealt after each round; after the agreed rounds the lowest score wins
    (Rulebook 6)."""
    hands = [[pb.CARD_MORIARTY], [pb.CARD_CLUE], [pb.CARD_TELEGRAM]]
    state = position(hands, rounds=2, scores=[0, 0, 0])
    state, events = act(state, 0, A(escape=pb.Escape()))
    assert state.round == 2 and state.phase == pb.PHASE_TURN
    assert list(state.scores) == [-50, 5, 10]
    assert sum(len(h.cards) for h in state.hands) == 17
    assert kinds(events, "round_started")[0].round == 2
    assert GAME.outcome(state) is None


def test_a_went_out_arrest_cannot_be_defended():
    """The Went Out Arrest is not an Arrest card, so no Alibi window opens (our reading of
    Rulebook 5 and 7)."""
    state, _ = went_out([[pb.CARD_ALIBI, pb.CARD_MORAN], [pb.CARD_BOAT], [pb.CARD_BOAT]])
    state, _ = act(state, 0, target(1))
    assert state.phase == pb.PHASE_OVER and state.last_result.villain_seat == 1


def test_going_out_is_judged_after_the_last_card_has_resolved():
    """A last card whose rule refills the hand (Mycroft's trade) does not go out; one whose rule
    empties it (Constabulary giving the last card) does (our reading of Rulebook 5, Went Out)."""
    hands = [[pb.CARD_MYCROFT], [pb.CARD_CLUE, pb.CARD_BOAT], [pb.CARD_TRAIN, pb.CARD_ARREST]]
    state = position(hands, discard=(AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_LONDON))
    state, _ = act(state, 0, play(pb.CARD_MYCROFT))
    state, _ = act(state, 0, target(1))
    state, events = act(state, 1, decline())
    assert not kinds(events, "went_out") and hand(state, 0) == sorted([pb.CARD_CLUE, pb.CARD_BOAT])
    assert state.phase == pb.PHASE_TURN and state.turn == 1
    hands = [[pb.CARD_CONSTABULARY, pb.CARD_CLUE], [pb.CARD_BOAT], [pb.CARD_TRAIN]]
    state = position(hands, discard=(AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_WEST_END))
    state, _ = act(state, 0, play(pb.CARD_CONSTABULARY))
    state, _ = act(state, 0, target(1))
    state, events = act(state, 0, A(give=pb.GiveCard(card=pb.CARD_CLUE)))
    assert kinds(events, "went_out") and state.phase == pb.PHASE_ACCUSE


def test_thick_fog_as_the_last_card_goes_out():
    """Thick Fog deals each player back as many cards as they had, so its player, who had none
    left, gets none and Went Out (Rulebook 7, Thick Fog; Rulebook 5, Went Out)."""
    hands = [[pb.CARD_THICK_FOG], [pb.CARD_CLUE, pb.CARD_BOAT], [pb.CARD_TRAIN, pb.CARD_ARREST]]
    state = position(hands, discard=(AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_LONDON))
    state, events = act(state, 0, play(pb.CARD_THICK_FOG))
    assert kinds(events, "went_out")[0].seat == 0 and state.phase == pb.PHASE_ACCUSE
    assert [len(h.cards) for h in state.hands] == [0, 2, 2]


def test_a_card_drawn_and_played_from_an_empty_hand_does_not_go_out():
    """A drawn Suitable Card "must be played immediately" and is never "added to the player's
    hand" (Rulebook 4), so it is not "the last card in their hand" (Rulebook 5, Went Out): a
    player who starts the turn with no cards, draws and plays, stays in and play passes left."""
    hands = [[], [pb.CARD_CLUE, pb.CARD_BOAT], [pb.CARD_TRAIN, pb.CARD_ARREST]]
    state = position(hands, discard=(AFOOT, pb.CARD_TRAIN), draw_top=(pb.CARD_LONDON,))
    assert legal_set(state, 0) == actions(A(draw=pb.DrawCard()))
    state, events = act(state, 0, A(draw=pb.DrawCard()))
    assert kinds(events, "played")[0].drawn
    assert not kinds(events, "went_out")
    assert state.phase == pb.PHASE_TURN and state.turn == 1 and hand(state, 0) == []


def test_a_drawn_card_whose_rule_empties_the_hand_does_not_go_out():
    """Drawing never goes out, even when the drawn card's rule gives away the last card held
    (a drawn Constabulary; our reading of Rulebook 4 and Rulebook 5, Went Out)."""
    hands = [[pb.CARD_TELEGRAM], [pb.CARD_CLUE, pb.CARD_BOAT], [pb.CARD_TRAIN, pb.CARD_ARREST]]
    state = position(
        hands,
        discard=(AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_WEST_END),
        draw_top=(pb.CARD_CONSTABULARY,),
    )
    state, _ = act(state, 0, A(draw=pb.DrawCard()))
    state, _ = act(state, 0, target(1))
    state, events = act(state, 0, A(give=pb.GiveCard(card=pb.CARD_TELEGRAM)))
    assert hand(state, 0) == [] and not kinds(events, "went_out")
    assert state.phase == pb.PHASE_TURN and state.turn == 1
