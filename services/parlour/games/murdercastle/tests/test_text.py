"""The words a person reads (issue 24): over seeded random matches of every variant, every
decision's labels are distinct and free of ids, every event and table line reads without ids,
and every seat reference is a real seat (Rulebook: the components' names throughout)."""

from __future__ import annotations

import pytest

from parlour.engine import LocalMatch
from parlour.engine.rng import Rng
from parlour.engine.text import label_problems, seats_named, table_lines, text_problems
from parlour.games.murdercastle.game import GAME
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

VARIANTS = {v.name: v for v in GAME.variants()}


def play_checked(options: pb.Options, seats: int, seed: int, tables_every: int) -> int:
    """Play a random match to its end checking every decision's words; the decisions seen."""
    match = LocalMatch(GAME, seats, seed=seed, options=options)
    rng = Rng.from_seed(seed)
    decisions = 0
    while match.outcome is None:
        seat = match.pending[0].seat
        legal = match.legal_actions(seat)
        labels = GAME.label_actions(match.state, seat, legal)
        assert not label_problems(labels), (label_problems(labels), decisions)
        lines = list(labels)
        if decisions % tables_every == 0:
            for viewer in [*range(seats), None]:
                lines += table_lines(GAME.describe_view(GAME.view(match.state, viewer), viewer))
        events = match.act(seat, legal[rng.below(len(legal))])
        lines += [GAME.describe_event(e.event) for e in events or []]
        assert not text_problems(lines), text_problems(lines)
        assert all(n < seats for line in lines for n in seats_named(line))
        decisions += 1
    return decisions


@pytest.mark.parametrize(("name", "seats"), [
    ("standard", 2), ("standard", 5), ("extended", 3), ("second-story", 4),
    ("automa-beginner", 1), ("automa-intermediate", 1), ("automa-menacing", 1),
    ("play-as-holmes", 4), ("play-as-holmes", 7),
])
def test_every_decision_and_table_reads_in_words(name, seats):
    """Every variant, full length at one seed (Rulebook: Setup; Automa; Play as Holmes)."""
    options = pb.Options()
    options.CopyFrom(VARIANTS[name].options)
    if seats > 2 and not options.automa:
        options.round_limit = 4
    assert play_checked(options, seats, seed=seats, tables_every=25)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_many_full_matches_read_in_words(name):
    """More seeds, full length, every seat count of the variant."""
    low, high = GAME.seat_range(VARIANTS[name].options)
    for seed in range(6):
        play_checked(VARIANTS[name].options, low + seed % (high - low + 1), seed, 10)
