"""Issue 24: every game's words read as a person expects, in every variant — each decision's
labels differ and name things (no ids), event text and the table carry no ids, and every
seat reference is a seat of the match (parlour.engine.text). Each game folder's
tests/test_text.py goes deeper; this holds every registered game to the same bar."""

from __future__ import annotations

import pytest

from parlour.engine import runtime
from parlour.engine.registry import games
from parlour.engine.rng import Rng
from parlour.engine.text import SEAT, label_problems, table_lines, text_problems

MATCHES = 2
CASES = [(g, v) for g in games().values() for v in g.variants()]


def _seats_named(texts, seats):
    return [t for t in texts for n in SEAT.findall(t) if int(n) >= seats]


@pytest.mark.parametrize(("game", "variant"), CASES, ids=[f"{g.name}-{v.name}" for g, v in CASES])
def test_words_of_whole_matches(game, variant):
    """Issue 24 "Tests": labels unique and named, text without ids, real seats only."""
    low, high = game.seat_range(variant.options)
    for match in range(MATCHES):
        seats = (low, high)[match % 2]
        state = game.new_state(variant.options, seats, 100 + match)
        rng = Rng.from_seed(match)
        problems: list[str] = []
        for _ in range(game.max_actions):
            pending = runtime.pending(game, state)
            if not pending:
                break
            seat = pending[rng.below(len(pending))].seat
            actions = runtime.legal_actions(game, state, seat)
            labels = game.label_actions(state, seat, actions)
            problems += label_problems(labels) + _seats_named(labels, seats)
            state, events = runtime.apply(game, state, seat, actions[rng.below(len(actions))])
            texts = [game.describe_event(e.event) for e in events]
            problems += text_problems(texts) + _seats_named(texts, seats)
        for viewer in [*range(seats), None]:
            lines = table_lines(game.describe_view(runtime.view(game, state, viewer), viewer))
            problems += text_problems(lines)
        assert not problems, f"{game.name} {variant.name} seats={seats}: {problems[:5]}"
