"""The words a person reads: labels, event lines and the table (issue 24; text.py).

(Rulebook: Cards Description, Gameplay Overview; every card named as printed, the Crime
Threads numbered from 1 as Moriarty lays them out in a row.)
"""

from __future__ import annotations

import re

import pytest

from parlour.engine import runtime
from parlour.engine.rng import Rng
from parlour.engine.simulate import steps
from parlour.engine.text import label_problems, seats_named, table_lines, text_problems
from parlour.games.clashofminds import GAME, text
from parlour.games.clashofminds.catalogue import CATALOGUE
from parlour.games.clashofminds.tests.positions import (
    CARD_ID,
    HOLMES,
    MORIARTY,
    act,
    course,
    give,
    legal,
    place,
)
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

THREAD_NUMBER = re.compile(r"Crime Threads? (\d+)")
VIEWERS = (HOLMES, MORIARTY, None)


def _word_problems(lines: list[str]) -> list[str]:
    """Internal ids, threads not numbered 1 to 3, and seat references to no seat."""
    problems = text_problems(lines)
    for line in lines:
        problems += [f"thread {n} in {line!r}" for n in THREAD_NUMBER.findall(line)
                     if not 1 <= int(n) <= 3]
        problems += [f"seat {n} in {line!r}" for n in seats_named(line) if n not in (0, 1)]
    return problems


def _check_match(options: pb.Options, seed: int) -> list[str]:
    """Every decision's labels, every event line and every table of one seeded random match."""
    state = GAME.new_state(options, 2, seed)
    problems: list[str] = []
    for step in steps(GAME, state, Rng.from_seed(seed), first_seat=True):
        labels = GAME.label_actions(step.before, step.seat, step.actions)
        problems += label_problems(labels) + _word_problems(labels)
        for viewer in VIEWERS:
            view = runtime.view(GAME, step.before, viewer)
            problems += _word_problems(table_lines(GAME.describe_view(view, viewer)))
        problems += _word_problems([GAME.describe_event(e.event) for e in step.events])
        problems += _word_problems([GAME.describe_action(a) for a in step.actions])
    return [f"seed {seed}: {p}" for p in problems]


@pytest.mark.parametrize("variant", GAME.variants(), ids=lambda v: v.name)
def test_every_label_event_and_table_line_reads_as_words(variant):
    """Over seeded random matches of each variant: no two labels of a decision alike, no ids,
    threads numbered 1 to 3, every seat reference a real seat. (Issue 24)"""
    problems = [p for seed in range(1, 6) for p in _check_match(variant.options, seed)]
    assert problems == []


@pytest.mark.slow
@pytest.mark.parametrize("variant", GAME.variants(), ids=lambda v: v.name)
def test_every_label_event_and_table_line_reads_as_words_many_matches(variant):
    """The same over 60 matches of each variant. (Issue 24)"""
    problems = [p for seed in range(6, 66) for p in _check_match(variant.options, seed)]
    assert problems == []


def test_labels_reveal_nothing_the_seat_cannot_see():
    """Labels come from the seat's View: resampling what it cannot see leaves them unchanged.
    (DESIGN: Hidden information)"""
    rng = Rng.from_seed(3)
    for seed in range(1, 4):
        state = GAME.new_state(pb.Options(agents=True), 2, seed)
        for step in steps(GAME, state, Rng.from_seed(seed), first_seat=True):
            twin = GAME.resample_hidden(step.before, step.seat, rng)
            assert GAME.label_actions(twin, step.seat, step.actions) == GAME.label_actions(
                step.before, step.seat, step.actions)


def test_two_copies_in_one_thread_are_told_apart_by_place():
    """Two Informants on one side of a Crime Thread: 'the first' and 'the second', counted
    from the Crime Plan Card outward as the table lists them. (Rulebook: Use one Influence Card)
    """
    state = course()
    place(state, HOLMES, 0, "informant")
    place(state, HOLMES, 0, "informant")
    labels = GAME.label_actions(state, HOLMES, legal(state, HOLMES))
    uses = [label for label in labels if label.startswith("use ")]
    assert "use the first Informant (2, used 1) in Crime Thread 1 with the Draw/Use card" in uses
    assert "use the second Informant (2, used 1) in Crime Thread 1 with the Draw/Use card" in uses
    assert label_problems(labels) == []


def test_labels_name_the_card_its_values_the_thread_and_the_action_card():
    """Put into play, Support and draw labels name the card as printed and the Action Card.
    (Rulebook: Action Cards)"""
    state = course(hands=(("witness",), ()))
    give(state, HOLMES, "bribe")
    labels = GAME.label_actions(state, HOLMES, legal(state, HOLMES))
    assert "put Witness (2, used 2) into play in Crime Thread 3" in labels
    support = "add Bribe (2, used 3) as a Support Card in Crime Thread 2 with the Use/Support card"
    assert support in labels
    assert "draw one Influence Card with the Draw/Support card" in labels


def test_witness_names_the_opposing_card_by_role():
    """A Witness target is named by its owner's role and its printed value.
    (Rulebook: Influence Cards; card text of Witness)"""
    state = course()
    witness = place(state, HOLMES, 0, "witness")
    place(state, MORIARTY, 0, "bribe")
    place(state, MORIARTY, 0, "cipher", used=True)
    state, _ = act(state, HOLMES, use_influence=dict(
        action_card=pb.ACTION_CARD_DRAW_OR_USE, thread=0, index=witness))
    labels = GAME.label_actions(state, HOLMES, legal(state, HOLMES))
    assert labels == [
        "return Moriarty's Bribe (2) in Crime Thread 1 to Moriarty's hand (Witness)",
        "return Moriarty's Cipher (used, 3) in Crime Thread 1 to Moriarty's hand (Witness)"]
    lines = table_lines(GAME.describe_view(GAME.view(state, MORIARTY), MORIARTY))
    assert "  Waiting for Player 1 (Holmes) to choose a target for Witness" in lines


def test_the_clock_reads_hours_gone_not_hours_left():
    """The Time Marker starts at 12 o'clock and moves forward: the table says how many hours
    have gone ('Hour 1 of 12'), so no client can take it for hours left. (Rulebook: Start of the
    Investigation, 1; End of the Game)"""
    state = course(site="buckingham_palace")
    lines = table_lines(GAME.describe_view(GAME.view(state, HOLMES), HOLMES))
    assert "  Hour 1 of 12 (1 hour gone, 11 left)" in lines
    state.hours = 13
    lines = table_lines(GAME.describe_view(GAME.view(state, None), None))
    assert "  Hour 12 of 12 (the clock has struck twelve: 13 hours gone)" in lines


def test_the_table_shows_the_hand_the_threads_and_the_printed_text():
    """Your hand as cards with names and values, each Crime Thread with both sides and their
    Influence, and each card's printed text as its detail. (Rulebook: Course of the
    Investigation, the example of page 9: 1 + 2 + 3 + 2 = 8 against 3)"""
    state = course(hands=(("telegram",), ()))
    place(state, HOLMES, 0, "informant", support=True)
    place(state, HOLMES, 0, "street_urchin", used=True)
    place(state, HOLMES, 0, "forged_letter")
    place(state, HOLMES, 0, "witness")
    place(state, MORIARTY, 0, "forged_letter")
    shown = GAME.describe_view(GAME.view(state, HOLMES), HOLMES)
    sections = {s.title: s for s in shown.sections}
    hand = sections["Your hand"].items
    assert [i.text for i in hand] == ["Telegram (4, used 0)"]
    assert CATALOGUE.influence[CARD_ID["telegram"]].text in hand[0].detail
    holmes, moriarty = (i.text for i in sections["Crime Thread 1"].items[1:])
    assert holmes == ("{seat:0} (Holmes), Influence 8: Informant (Support Card), "
                      "Street Urchin (used, 2), Forged Letter (3), Witness (2)")
    assert moriarty == "{seat:1} (Moriarty), Influence 3: Forged Letter (3)"
    rival = GAME.describe_view(GAME.view(state, MORIARTY), MORIARTY)
    line = next(s for s in rival.sections if s.title == "Crime Thread 1").items[1].text
    assert line.startswith("{seat:0} (Holmes), Influence 8: Support Card, Street Urchin")


def test_the_crime_plan_reads_face_down_to_holmes_and_by_name_to_moriarty():
    """Moriarty knows his Crime Plan; Holmes sees face-down cards until one is revealed.
    (Rulebook: Preparing the Crime)"""
    state = course(crime=("duchess", "robbery", "poison"))
    state.threads[2].revealed = True
    for viewer, first in ((HOLMES, "Crime Plan Card: face down"),
                          (MORIARTY, "Crime Plan Card: The Duchess (Victim), face down")):
        shown = GAME.describe_view(GAME.view(state, viewer), viewer)
        threads = [s for s in shown.sections if s.title.startswith("Crime Thread")]
        assert threads[0].items[0].text == first
        assert threads[2].items[0].text == "Crime Plan Card: The Poison (Object), revealed"


def test_private_twins_name_the_cards_and_public_ones_do_not():
    """A draw names its cards only in the drawer's copy; the actor is a seat reference.
    (DESIGN: Hidden information; Rulebook: Initiating Contacts)"""
    public = pb.Event(cards_drawn=pb.CardsDrawn(seat=1, count=2))
    private = pb.Event(cards_drawn=pb.CardsDrawn(seat=1, count=2, cards=[2, 4]))
    assert text.describe_event(public) == "{seat:1} drew 2 Influence Cards"
    assert text.describe_event(private) == "{seat:1} drew 2 Influence Cards: Informant, Witness"
    ended = pb.Event(game_ended=pb.GameEnded(result=pb.RESULT_UNRESOLVED_DUEL, hours=12))
    assert text.describe_event(ended).startswith("Unresolved Duel")


def test_action_lines_do_not_name_secret_cards():
    """Lines for face-down placements and Supports name no card, so a feed cannot leak them.
    (DESIGN: Hidden information and trust)"""
    secret = [
        pb.Action(place_setup_card=pb.PlaceSetupCard(card=1, thread=0)),
        pb.Action(add_support=pb.AddSupport(action_card=3, card=1, thread=1)),
        pb.Action(place_action_card=pb.PlaceActionCard(card=pb.ACTION_CARD_MANDATORY, thread=2)),
        pb.Action(arrange_crime=pb.ArrangeCrime(order=[1, 4, 7])),
    ]
    names = [c.name for c in CATALOGUE.influence.values()] + ["Mandatory"]
    names += [c.name for c in CATALOGUE.crime.values()]
    for action in secret:
        line = GAME.describe_action(action)
        assert not any(name in line for name in names), line
