"""Issue 24: every game's words read as a person expects, in every variant — each decision's
labels differ and name things (no ids), event text and the table carry no ids, and every
seat reference is a seat of the match (parlour.engine.text). Each game folder's
tests/test_text.py goes deeper; this holds every registered game to the same bar."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from parlour.engine import runtime, timeouts, undo
from parlour.engine.registry import games
from parlour.engine.rng import Rng
from parlour.engine.simulate import steps
from parlour.engine.text import (
    SEAT,
    label_problems,
    person_problems,
    render,
    table_lines,
    text_problems,
)
from parlour.engine.v1.platform_pb2 import UndoRequested

MATCHES = 2
CASES = [(g, v) for g in games().values() for v in g.variants()]


def _seats_named(texts, seats):
    return [t for t in texts for m in SEAT.finditer(t) if int(m.group(1)) >= seats]


@pytest.mark.parametrize(("game", "variant"), CASES, ids=[f"{g.name}-{v.name}" for g, v in CASES])
def test_words_of_whole_matches(game, variant):
    """Issue 24 "Tests": labels unique and named, text without ids, real seats only."""
    low, high = game.seat_range(variant.options)
    for match in range(MATCHES):
        seats = (low, high)[match % 2]
        state = game.new_state(variant.options, seats, 100 + match)
        problems: list[str] = []
        for step in steps(game, state, Rng.from_seed(match)):
            labels = game.label_actions(step.before, step.seat, step.actions)
            problems += label_problems(labels) + _seats_named(labels, seats)
            texts = [game.describe_event(e.event) for e in step.events]
            problems += text_problems(texts) + _seats_named(texts, seats)
            state = step.after
        for viewer in [*range(seats), None]:
            lines = table_lines(game.describe_view(runtime.view(game, state, viewer), viewer))
            problems += text_problems(lines)
        assert not problems, f"{game.name} {variant.name} seats={seats}: {problems[:5]}"


NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana")


def _read(texts, seats):
    """Texts written out for every seat and a spectator, as each would read them."""
    return [render(t, viewer, NAMES[:seats]) for t in texts for viewer in [*range(seats), None]]


@pytest.mark.parametrize(("game", "variant"), CASES, ids=[f"{g.name}-{v.name}" for g, v in CASES])
def test_words_read_in_the_right_person(game, variant):
    """Issue 33 item 1: every label, event, notice, table line and summary of seeded matches,
    written out for each seat and a spectator, has no reference left unwritten ("{"), no
    "you holds", no "(s)", no 0-based seat number; summaries start with a capital."""
    low, high = game.seat_range(variant.options)
    for match in range(MATCHES):
        seats = (low, high)[match % 2]
        state = game.new_state(variant.options, seats, 200 + match)
        rng = Rng.from_seed(match)
        lines: list[str] = []
        for step in steps(game, state, rng):
            seat, action = step.seat, step.action
            lines += [render(t, seat, NAMES[:seats])
                      for t in game.label_actions(step.before, seat, step.actions)]
            lines += _read([timeouts.describe(timeouts.timed_out_event(game, seat, "x", action)),
                            undo.describe_requested(UndoRequested(
                                seat=seat, took_back=game.describe_action(action),
                                awaiting=[s for s in range(seats) if s != seat]))], seats)
            state = step.after
            lines += _read([game.describe_event(e.event) for e in step.events], seats)
            if rng.below(20) == 0 or not runtime.pending(game, state):
                for viewer in [*range(seats), None]:
                    view = game.describe_view(runtime.view(game, state, viewer), viewer)
                    lines += table_lines(view, viewer, NAMES[:seats])
        outcome = game.outcome(state)
        summaries = _read([outcome.summary], seats) if outcome else []
        problems = person_problems(lines + summaries) + text_problems(lines + summaries)
        problems += [f"lower case: {s!r}" for s in summaries if s[:1].islower()]
        assert not problems, f"{game.name} {variant.name} seats={seats}: {problems[:8]}"


@pytest.mark.parametrize(("game", "variant"), CASES, ids=[f"{g.name}-{v.name}" for g, v in CASES])
def test_described_actions_differ_within_a_decision(game, variant):
    """Issue 33 item 5: `describe_action` (undo and timeout notices, logs) tells a decision's
    actions apart, as `label_actions` does, except where the difference is a secret card
    (the game's text.SECRET_ACTIONS)."""
    secret = getattr(game.text, "SECRET_ACTIONS", frozenset())
    low, high = game.seat_range(variant.options)
    for match in range(MATCHES):
        seats = (low, high)[match % 2]
        state = game.new_state(variant.options, seats, 300 + match)
        repeats: list[str] = []
        for step in steps(game, state, Rng.from_seed(match)):
            told = Counter(game.describe_action(a) for a in step.actions
                           if a.WhichOneof("kind") not in secret)
            repeats += [f"{n}x {text!r}" for text, n in told.items() if n > 1]
        assert not repeats, f"{game.name} {variant.name} seats={seats}: {repeats[:5]}"


def test_refusals_read_as_one_sentence_in_every_client():
    """Issue 33 item 3: a refusal reads as one sentence from its reason, the same in the
    terminal (refusals.py) and the web page (errors.ts); every reason in the table is a
    reason the platform declares; a reason without a sentence reads as the server's
    message, never as "REASON: …"."""
    from parlour.client.refusals import SENTENCES, refusal_text
    from parlour.rpc.reasons import PLATFORM_REASONS

    web = Path(__file__).resolve().parent.parent / "clients/web/src/errors.ts"
    table = dict(re.findall(r'^  ([A-Z_]+): "(.*)",$', web.read_text(), re.MULTILINE))
    assert table == SENTENCES
    assert not set(SENTENCES) - set(PLATFORM_REASONS)
    assert all(s[:1].isupper() and s.endswith(".") and s.count(". ") == 0
               for s in SENTENCES.values())
    assert refusal_text("", "BAD_OPTIONS: round_limit out of range") == SENTENCES["BAD_OPTIONS"]
    assert refusal_text("", "CARD_NOT_IN_HAND: that card is not in your hand") == (
        "That card is not in your hand.")


def test_seat_references_are_written_in_the_viewers_person():
    """Issue 33 item 1: the three forms of a seat reference, for the seat itself, another
    seat and a spectator; the viewer's reference capitalised where a sentence starts."""
    line = "{seat:1|holds|hold} the Key; {seat:0} took {seat:1's} card. {seat:1|is|are} next"
    names = ["Ada", "Ben"]
    assert render(line, 1, names) == "You hold the Key; Ada took your card. You are next"
    assert render(line, 0, names) == "Ben holds the Key; you took Ben's card. Ben is next"
    assert render(line, None, ["Ada", ""]) == (
        "Player 2 holds the Key; Ada took Player 2's card. Player 2 is next")
    assert person_problems(["you holds the Key", "Event Card(s)", "seat 0 escaped"]) == [
        "'you holds the Key'", "'Event Card(s)'", "'seat 0 escaped'"]


#: A pronoun for a player, where the text should name the seat ("his hand" for whose?).
PRONOUN = re.compile(r"\b(?:his|her)\s+(?:hand|cards?|own)\b", re.IGNORECASE)
FEED_MATCHES = 6


def _doubled(lines: list[str]) -> list[str]:
    """Lines one viewer read twice for one action: a line, then the same line with more
    after it ("You drew 1 card" then "You drew 1 card: Clue"), a public line and its private
    twin. (Two equal lines are two events: two copies of one card turned up.)"""
    return [f"{a!r} then {b!r}" for i, a in enumerate(lines) for b in lines[i + 1:]
            if b.startswith(a) and b[len(a):][:1] in (":", ";")]


def _third_person(game, viewer: int, line: str) -> bool:
    """The viewer's own seat told in the third person: a pronoun, or (Clash of Minds) the
    viewer's role's possessive ("Holmes's Forged Letter" while you are Holmes)."""
    if PRONOUN.search(line):
        return True
    if game.name == "clashofminds":
        from parlour.games.clashofminds.names import ROLES
        return bool(re.search(rf"\b{ROLES[viewer]}'s (?!Advantage|Victory)", line))
    return False


@pytest.mark.parametrize(("game", "variant"), CASES, ids=[f"{g.name}-{v.name}" for g, v in CASES])
def test_the_feed_reads_once_per_event_in_the_viewers_person(game, variant):
    """Issue 43 item 3: in seeded whole matches, each seat's feed has one line per event
    (never a public line and its private twin), no raw ids ("room 0") and the viewer's own
    seat never in the third person."""
    low, high = game.seat_range(variant.options)
    problems: list[str] = []
    for match in range(FEED_MATCHES):
        seats = (low, high, (low + high) // 2)[match % 3]
        state = game.new_state(variant.options, seats, 400 + match)
        for step in steps(game, state, Rng.from_seed(match)):
            texts = {id(e): game.describe_event(e.event) for e in step.events}
            problems += text_problems(texts.values())
            for viewer in range(seats):
                lines = [render(texts[id(e)], viewer, NAMES[:seats])
                         for e in step.events if e.visible_to(viewer)]
                problems += _doubled(lines)
                problems += [f"third person for {NAMES[viewer]}: {line!r}" for line in lines
                             if _third_person(game, viewer, line)]
    assert not problems, f"{game.name} {variant.name}: {sorted(set(problems))[:8]}"


@pytest.mark.parametrize(("game", "variant"), CASES, ids=[f"{g.name}-{v.name}" for g, v in CASES])
def test_every_decision_has_a_prompt(game, variant):
    """Issue 43 item 2: every decision a seat owes in a seeded match comes with a prompt
    saying what it is for (Game.prompt, sent as ListActionsResponse.prompt), without ids,
    in the seat's own person; a game with more than one kind of decision words each in its
    own situation (its prompts.py), never as the generic sentence of the decision kind;
    Murder Castle's passes say what passing means."""
    own = len(game.decision_kinds) > 1
    generic = set(game.decision_kinds.values())
    low, _ = game.seat_range(variant.options)
    state = game.new_state(variant.options, low, 500)
    problems: list[str] = []
    for step in steps(game, state, Rng.from_seed(7)):
        prompt = game.prompt(step.before, step.seat, step.actions)
        written = render(prompt, step.seat, NAMES[:low])
        if not prompt:
            problems.append(f"no prompt for {step.decisions}")
        if own and prompt in generic:
            problems.append(f"the generic {prompt!r}")
        problems += text_problems([prompt]) + person_problems([written])
        if game.name == "murdercastle":
            labels = game.label_actions(step.before, step.seat, step.actions)
            problems += [f"bare pass in {labels}" for label in labels if label == "pass"]
    assert not problems, f"{game.name} {variant.name}: {sorted(set(problems))[:6]}"
