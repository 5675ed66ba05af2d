"""The shared shape of the games' greedy heuristics (parlour.engine.greedy)."""

from __future__ import annotations

from parlour.engine.greedy import best, kind_rank
from parlour.engine.rng import Rng
from parlour.games.murdercastle.strategy import PREFERENCE
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb


def test_kinds_earlier_in_the_preference_rank_higher_and_unlisted_kinds_last():
    """An action of a listed kind outranks a later kind and any kind not listed."""
    collect, passing = pb.Action(collect=pb.Collect()), pb.Action(**{"pass": pb.Pass()})
    assert kind_rank(PREFERENCE, collect) > kind_rank(PREFERENCE, passing)
    assert kind_rank(("collect",), passing) < kind_rank(("collect",), collect)


def test_best_breaks_ties_with_the_bots_rng_only_among_the_best():
    """Only best-ranked actions are ever chosen, and every one of them can be."""
    actions = list(range(6))
    rank = {0: 1, 1: 3, 2: 3, 3: 0, 4: 3, 5: 2}.__getitem__
    rng = Rng.from_seed(5)
    chosen = {best(actions, rank, rng) for _ in range(200)}
    assert chosen == {1, 2, 4}
