"""Greedy bot heuristic for Murder Castle: evidence collected wins, so collect whenever
possible, then explore and move on; pass last."""

from __future__ import annotations

from parlour.engine.greedy import best, kind_rank
from parlour.engine.rng import Rng
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

PREFERENCE = (
    "collect", "explore", "reveal", "play", "ability", "move", "cube", "select", "rotate",
    "place", "pick", "target", "hide", "give", "draw", "turn_wheel", "discard", "pass",
)


def greedy(view: pb.View, actions: list[pb.Action], seat: int, rng: Rng) -> pb.Action:
    """The legal action this heuristic prefers (ties broken at random)."""
    return best(actions, lambda a: kind_rank(PREFERENCE, a), rng)
