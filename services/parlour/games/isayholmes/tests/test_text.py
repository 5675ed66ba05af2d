"""The words a person reads: labels, event lines and the table (issue 24; Rulebook 2 and 7 for
the cards' names, values and printed rules)."""

from __future__ import annotations

import pytest

from parlour.engine import runtime
from parlour.engine.rng import Rng
from parlour.engine.simulate import steps
from parlour.engine.text import label_problems, seats_named, table_lines, text_problems
from parlour.engine.v1.table_pb2 import TableText
from parlour.games.isayholmes import GAME
from parlour.games.isayholmes.catalogue import KINDS
from parlour.games.isayholmes.tests.positions import act, play, position, target
from parlour.games.isayholmes.text import detail
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb

AFOOT = pb.CARD_THE_GAME_IS_AFOOT


def _seat_problems(text: str, seats: int) -> list[str]:
    return [f"no seat {n} in {text!r}" for n in seats_named(text) if n >= seats]


def _table_texts(text: TableText) -> list[str]:
    """Every title, line and detail of a table, seat references left in."""
    return [t for part in text.sections for t in (part.title, *(i.text for i in part.items),
                                                  *(i.detail for i in part.items)) if t]


def _words_problems(seats: int, seed: int, tables_every: int) -> list[str]:
    """Play one seeded random match of every variant; collect every wording problem."""
    problems: list[str] = []
    for variant in GAME.variants():
        state = GAME.new_state(variant.options, seats, seed)
        for step in steps(GAME, state, Rng.from_seed(seed)):
            labels = GAME.label_actions(step.before, step.seat, step.actions)
            problems += label_problems(labels)
            problems += [p for label in labels for p in _seat_problems(label, seats)]
            if (step.number - 1) % tables_every == 0:
                for viewer in [*range(seats), None]:
                    view = runtime.view(GAME, step.before, viewer)
                    for line in _table_texts(GAME.describe_view(view, viewer)):
                        problems += text_problems([line]) + _seat_problems(line, seats)
            state = step.after
            for emitted in step.events:
                line = GAME.describe_event(emitted.event)
                problems += text_problems([line]) + _seat_problems(line, seats)
        assert not runtime.pending(GAME, state), "the match did not finish"
    return problems


@pytest.mark.parametrize("seats", [3, 4, 6, 8])
def test_every_label_event_and_table_line_reads_right(seats):
    """Whole seeded matches: no two labels of a decision alike, no ids anywhere, and every seat
    reference a real seat, in labels, event lines and every seat's and the spectator's table."""
    for seed in range(3):
        assert _words_problems(seats, seed, tables_every=4) == []


@pytest.mark.slow
@pytest.mark.parametrize("seats", range(3, 9))
def test_many_matches_read_right(seats):
    """As above over more matches, the tables at every other step."""
    for seed in range(10, 20):
        assert _words_problems(seats, seed, tables_every=2) == []


def test_the_two_scotland_yards_are_told_apart():
    """Scotland Yard hits "the previous (or next) opponent (as indicated on the card)"
    (Rulebook 7): the two kinds read differently in the labels."""
    hands = [
        [pb.CARD_SCOTLAND_YARD_PREVIOUS, pb.CARD_SCOTLAND_YARD_NEXT, pb.CARD_LONDON],
        [pb.CARD_CLUE],
        [pb.CARD_CLUE],
    ]
    state = position(hands, discard=(AFOOT, pb.CARD_HANSOM_CAB))
    labels = GAME.label_actions(state, 0, runtime.legal_actions(GAME, state, 0))
    assert labels == [
        "play London (1)",
        "play Scotland Yard (previous opponent, 5)",
        "play Scotland Yard (next opponent, 5)",
    ]


def test_labels_name_the_opponent_and_what_the_card_does_to_them():
    """Inspector: "Name an opponent who must draw 2 cards or play an Alibi card" (Rulebook 7);
    the labels say so for each opponent, by seat reference, and the defence labels name the
    threat."""
    state = position(
        [[pb.CARD_INSPECTOR, pb.CARD_TRAIN], [pb.CARD_ALIBI], [pb.CARD_CLUE]],
        discard=(AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_LONDON, pb.CARD_CLUE),
    )
    state, _ = act(state, 0, play(pb.CARD_INSPECTOR))
    assert GAME.label_actions(state, 0, runtime.legal_actions(GAME, state, 0)) == [
        "make {seat:1} draw 2 cards (Inspector)",
        "make {seat:2} draw 2 cards (Inspector)",
    ]
    state, _ = act(state, 0, target(1))
    assert set(GAME.label_actions(state, 1, runtime.legal_actions(GAME, state, 1))) == {
        "do not defend against the Inspector",
        "defend with Alibi (15) against the Inspector",
    }


def test_an_i_say_in_sequence_is_labelled_with_its_cost():
    """An I Say played "in sequence" deducts ten points (Rulebook 2, I Say); its label says so,
    and out of sequence it does not."""
    hands = [[pb.CARD_I_SAY, pb.CARD_TRAIN], [pb.CARD_CLUE], [pb.CARD_CLUE]]
    for shows_i_say, label in [
        (pb.CARD_BAKER_STREET, "play I Say (10): -10 points, in sequence"),
        (pb.CARD_LONDON, "play I Say (10)"),
    ]:
        pile = (AFOOT, pb.CARD_HANSOM_CAB, shows_i_say)
        state = position(hands, discard=pile)
        assert label in GAME.label_actions(state, 0, runtime.legal_actions(GAME, state, 0))


def test_the_table_shows_the_hand_by_name_and_value_with_the_printed_rules():
    """Rulebook 2: a card shows its Title, Point Value, special rules and Story Sequence. Your
    hand lists each card so, its printed text behind it; the others' hands only by size."""
    hands = [[pb.CARD_HOLMES, pb.CARD_TRAIN, pb.CARD_TRAIN], [pb.CARD_MORIARTY], [pb.CARD_TELEGRAM]]
    state = position(hands, discard=(AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_LONDON), scores=[3, 0, 7])
    mine = GAME.describe_view(runtime.view(GAME, state, 0), 0)
    (hand,) = [s for s in mine.sections if s.title.startswith("Your hand")]
    assert hand.title == "Your hand: 3 cards, 52 points at printed values"
    assert [(i.text, i.detail) for i in hand.items] == [
        ("Train (1) ×2", detail(pb.CARD_TRAIN)),
        ("Holmes (50)", detail(pb.CARD_HOLMES)),
    ]
    assert KINDS[pb.CARD_HOLMES].text in hand.items[1].detail
    assert "Next: Train, Hansom Cab." in hand.items[1].detail
    lines = table_lines(mine, viewer=0)
    assert "  Player 2: 1 card in hand, score 0 ← to play" not in lines
    assert "  You: 3 cards in hand, score 3 ← to play" in lines
    assert "  Player 3: 1 card in hand, score 7" in lines
    assert "  Top: London (1)" in lines
    assert not any("Moriarty" in line or "Telegram" in line for line in lines)
    watching = table_lines(GAME.describe_view(runtime.view(GAME, state, None), None))
    assert not any(line.startswith("Your hand") for line in watching)


def test_the_round_end_line_names_the_villains_and_shows_the_hands():
    """The round-end line says whose Villains were caught, shows the hands revealed for
    scoring (Rulebook 6: "All players total the Value of the cards that they still hold")
    and, where points differ from a shown hand's values, how they add up (issue 43: "+241"
    beside a hand the screen totalled at 141)."""
    hands = [[pb.CARD_ARREST, pb.CARD_TRAIN], [pb.CARD_MORAN, pb.CARD_CLUE], [pb.CARD_TELEGRAM]]
    state = position(hands, discard=(AFOOT, pb.CARD_TRAIN, pb.CARD_THE_COUNTRY))
    state, _ = act(state, 0, play(pb.CARD_ARREST))
    state, _ = act(state, 0, target(1))
    state, events = act(state, 1, pb.Action(decline=pb.Decline()))
    (ended,) = [e.event for e in events if e.event.WhichOneof("kind") == "round_ended"]
    assert GAME.describe_event(ended) == (
        "round 1 ended with an Arrest: {seat:0} caught {seat:1} with Moran; hands shown: "
        "{seat:0}: Train; {seat:1}: Moran, Clue; {seat:2}: Telegram; "
        "points {seat:0} -39 (cards 1, minus 40 for the Villains caught), "
        "{seat:1} +85 (cards 5, plus Villains 40 counted twice), {seat:2} +10; "
        "totals {seat:0} -39, {seat:1} 85, {seat:2} 10"
    )
