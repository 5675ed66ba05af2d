"""Out-of-turn defence: Alibi and Mastermind (Rulebook 7, Alibi; Mastermind)."""

from __future__ import annotations

import pytest

from parlour.engine.game import IllegalAction
from parlour.games.isayholmes import GAME
from parlour.games.isayholmes.tests.positions import (
    A,
    act,
    actions,
    decline,
    defend,
    hand,
    kinds,
    legal_set,
    play,
    position,
    target,
)
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb

AFOOT = pb.CARD_THE_GAME_IS_AFOOT
IN_LONDON = (AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_LONDON)


def arrest_on_seat_2(defender_hand):
    """Seat 0 plays Arrest in London and names seat 2, who holds `defender_hand`."""
    hands = [
        [pb.CARD_ARREST, pb.CARD_CLUE, pb.CARD_BOAT],
        [pb.CARD_TELEGRAM, pb.CARD_TRAIN],
        defender_hand,
        [pb.CARD_ESTATE],
    ]
    state = position(hands, discard=IN_LONDON)
    state, _ = act(state, 0, play(pb.CARD_ARREST))
    state, _ = act(state, 0, target(2))
    return state


def pass_left(card):
    return A(pass_left=pb.PassLeft(card=card))


def test_the_threatened_player_may_defend_or_decline():
    """The player about to suffer the penalty may play an Alibi out of turn (Rulebook 7, Alibi)."""
    state = arrest_on_seat_2([pb.CARD_ALIBI, pb.CARD_MORIARTY])
    assert [d.seat for d in GAME.pending(state)] == [2]
    assert legal_set(state, 2) == actions(decline(), defend(pb.CARD_ALIBI))


def test_an_alibi_makes_everyone_pass_one_card_left_in_secret():
    """Alibi: the penalty is prevented; every player secretly passes one card to the left; play
    continues left of the card's player (Rulebook 7, Alibi)."""
    state = arrest_on_seat_2([pb.CARD_ALIBI, pb.CARD_MORIARTY])
    state, _ = act(state, 2, defend(pb.CARD_ALIBI))
    assert state.discard_pile[-1] == pb.CARD_ALIBI
    assert state.phase == pb.PHASE_PASS_LEFT
    assert sorted(d.seat for d in GAME.pending(state)) == [0, 1, 2, 3]
    state, events = act(state, 2, pass_left(pb.CARD_MORIARTY))
    assert [e.to for e in events] == [None] and events[0].event.HasField("pass_chosen")
    assert GAME.view(state, 3).passing == pb.CARD_UNSPECIFIED
    assert GAME.view(state, 2).passing == pb.CARD_MORIARTY
    assert list(GAME.view(state, 3).pass_chosen) == [False, False, True, False]
    with pytest.raises(IllegalAction) as refused:
        act(state, 2, pass_left(pb.CARD_MORIARTY))
    assert refused.value.reason == "NOT_YOUR_TURN"
    state, _ = act(state, 0, pass_left(pb.CARD_BOAT))
    state, _ = act(state, 1, pass_left(pb.CARD_TELEGRAM))
    state, events = act(state, 3, pass_left(pb.CARD_ESTATE))
    assert hand(state, 3) == [pb.CARD_MORIARTY]
    assert hand(state, 1) == sorted([pb.CARD_TRAIN, pb.CARD_BOAT])
    assert hand(state, 2) == [pb.CARD_TELEGRAM]
    assert hand(state, 0) == sorted([pb.CARD_CLUE, pb.CARD_ESTATE])
    assert kinds(events, "passed_left", viewer=3)[-1].received == pb.CARD_MORIARTY
    assert kinds(events, "passed_left", viewer=None)[0].received == pb.CARD_UNSPECIFIED
    assert state.phase == pb.PHASE_TURN and state.turn == 1


def test_a_seat_with_no_cards_owes_no_pass():
    """A player holding nothing has nothing to pass (our reading of Rulebook 7, Alibi)."""
    state = arrest_on_seat_2([pb.CARD_ALIBI])
    state, _ = act(state, 2, defend(pb.CARD_ALIBI))
    assert sorted(d.seat for d in GAME.pending(state)) == [0, 1, 3]


def test_a_mastermind_passes_every_hand_right_and_takes_the_turn():
    """Mastermind: the penalty is cancelled, all hands pass to the right and play skips to the
    Mastermind's player (Rulebook 7, Mastermind)."""
    state = arrest_on_seat_2([pb.CARD_MASTERMIND, pb.CARD_MORIARTY])
    state, events = act(state, 2, defend(pb.CARD_MASTERMIND))
    assert state.discard_pile[-1] == pb.CARD_MASTERMIND
    assert hand(state, 1) == [pb.CARD_MORIARTY]
    assert hand(state, 0) == sorted([pb.CARD_TELEGRAM, pb.CARD_TRAIN])
    assert hand(state, 3) == sorted([pb.CARD_CLUE, pb.CARD_BOAT])
    assert hand(state, 2) == [pb.CARD_ESTATE]
    assert list(kinds(events, "passed_right", viewer=1)[-1].hand) == [pb.CARD_MORIARTY]
    assert state.phase == pb.PHASE_TURN and state.turn == 2


def test_a_mastermind_also_cancels_a_telegram():
    """Mastermind also cancels Telegram, which an Alibi cannot (Rulebook 7, Mastermind)."""
    hands = [[pb.CARD_TELEGRAM, pb.CARD_CLUE], [pb.CARD_ALIBI, pb.CARD_MASTERMIND], [pb.CARD_BOAT]]
    state = position(hands, discard=(AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_BAKER_STREET))
    state, _ = act(state, 0, play(pb.CARD_TELEGRAM))
    state, _ = act(state, 0, target(1))
    assert legal_set(state, 1) == actions(decline(), defend(pb.CARD_MASTERMIND))
    state, _ = act(state, 1, defend(pb.CARD_MASTERMIND))
    assert list(state.scores) == [0, 0, 0] and state.turn == 1


def test_the_defence_window_opens_even_without_a_defence_card():
    """The threatened seat always owes "defend or decline", so the window tells nobody whether it
    holds an Alibi (DESIGN: Hidden information)."""
    state = arrest_on_seat_2([pb.CARD_MORIARTY])
    assert legal_set(state, 2) == actions(decline())
    with pytest.raises(IllegalAction) as refused:
        act(state, 2, defend(pb.CARD_ALIBI))
    assert refused.value.reason == "CARD_NOT_IN_HAND"


@pytest.mark.parametrize(
    ("card", "pile"),
    [
        (pb.CARD_TELEGRAM, (AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_BAKER_STREET)),
        (pb.CARD_DISGUISE, IN_LONDON),
        (pb.CARD_CLUE, IN_LONDON),
        (pb.CARD_DEDUCTION, IN_LONDON),
        (pb.CARD_MYCROFT, IN_LONDON),
        (pb.CARD_HOLMES, IN_LONDON),
    ],
)
def test_a_mastermind_cancels_the_cards_an_alibi_cannot(card, pile):
    """Mastermind also cancels the penalties and actions of Telegram, Disguise, Clue, Deduction,
    Mycroft and Holmes: no points, no look, no trade, no Arrest (Rulebook 7, Mastermind)."""
    hands = [[card, pb.CARD_CLUE], [pb.CARD_MASTERMIND, pb.CARD_MORIARTY], [pb.CARD_BOAT]]
    state = position(hands, discard=pile)
    state, _ = act(state, 0, play(card))
    state, _ = act(state, 0, target(1))
    state, events = act(state, 1, defend(pb.CARD_MASTERMIND))
    assert list(state.scores) == [0, 0, 0] and not state.peeks[0].source
    assert not kinds(events, "arrested") and not kinds(events, "traded")
    assert hand(state, 0) == [pb.CARD_MORIARTY] and hand(state, 2) == [pb.CARD_CLUE]
    assert state.phase == pb.PHASE_TURN and state.turn == 1


def test_an_alibi_answers_scotland_yard():
    """Scotland Yard's victim "must draw 2 cards or play an Alibi card" (Rulebook 7)."""
    hands = [
        [pb.CARD_SCOTLAND_YARD_NEXT, pb.CARD_CLUE],
        [pb.CARD_ALIBI, pb.CARD_BOAT],
        [pb.CARD_TRAIN],
    ]
    state = position(hands, discard=(AFOOT, pb.CARD_HANSOM_CAB))
    state, _ = act(state, 0, play(pb.CARD_SCOTLAND_YARD_NEXT))
    assert legal_set(state, 1) == actions(decline(), defend(pb.CARD_ALIBI))
    state, _ = act(state, 1, defend(pb.CARD_ALIBI))
    assert state.phase == pb.PHASE_PASS_LEFT and len(state.hands[1].cards) == 1


def test_an_alibi_answers_the_inspectors_arrest():
    """The Inspector's extra Arrest is an Arrest, so an Alibi blocks it (Rulebook 7, Inspector)."""
    hands = [
        [pb.CARD_INSPECTOR, pb.CARD_CLUE],
        [pb.CARD_BOAT],
        [pb.CARD_ALIBI, pb.CARD_MORIARTY],
    ]
    state = position(hands, discard=(AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_SCOTLAND_YARD_PREVIOUS))
    state, _ = act(state, 0, play(pb.CARD_INSPECTOR))
    state, _ = act(state, 0, target(1))
    state, _ = act(state, 1, decline())
    state, _ = act(state, 0, target(2))
    assert legal_set(state, 2) == actions(decline(), defend(pb.CARD_ALIBI))


def inspector_on_scotland_yard(victim_hand):
    """Seat 0 plays an Inspector on a Scotland Yard and names seat 1, who holds `victim_hand`."""
    hands = [
        [pb.CARD_INSPECTOR, pb.CARD_CLUE],
        victim_hand,
        [pb.CARD_MORIARTY, pb.CARD_TRAIN],
    ]
    state = position(hands, discard=(AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_SCOTLAND_YARD_PREVIOUS))
    state, _ = act(state, 0, play(pb.CARD_INSPECTOR))
    state, _ = act(state, 0, target(1))
    return state


def test_an_alibi_against_the_inspector_on_scotland_yard_leaves_its_arrest():
    """An Alibi "prevents the penalty" (the draw); only a Mastermind cancels "the penalties and
    actions" of an Inspector, so after the Alibi's passing the Inspector's player may still
    make the Arrest (Rulebook 7, Inspector; Alibi; Mastermind)."""
    state = inspector_on_scotland_yard([pb.CARD_ALIBI, pb.CARD_BOAT])
    state, _ = act(state, 1, defend(pb.CARD_ALIBI))
    for seat, card in ((0, pb.CARD_CLUE), (1, pb.CARD_BOAT), (2, pb.CARD_TRAIN)):
        state, events = act(state, seat, pass_left(card))
    assert not kinds(events, "drawn") and len(state.hands[1].cards) == 1
    assert state.phase == pb.PHASE_EXTRA_ARREST and [d.seat for d in GAME.pending(state)] == [0]
    state, _ = act(state, 0, target(2))
    state, _ = act(state, 2, decline())
    assert state.phase == pb.PHASE_OVER and state.last_result.villain_seat == 2


def test_a_mastermind_against_the_inspector_on_scotland_yard_cancels_its_arrest():
    """A Mastermind cancels "the penalties and actions" of the Inspector: no draw and no Arrest;
    play skips to the Mastermind's player (Rulebook 7, Mastermind)."""
    state = inspector_on_scotland_yard([pb.CARD_MASTERMIND, pb.CARD_BOAT])
    state, events = act(state, 1, defend(pb.CARD_MASTERMIND))
    assert not kinds(events, "drawn") and state.phase == pb.PHASE_TURN and state.turn == 1
