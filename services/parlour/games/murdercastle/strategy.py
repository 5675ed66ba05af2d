"""Greedy bot heuristic for Murder Castle: evidence collected wins, so collect whenever
possible, then explore and move on; pass last."""

from __future__ import annotations

from parlour.engine.rng import Rng
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

PREFERENCE = (
    "collect", "explore", "reveal", "play", "ability", "move", "cube", "select", "rotate",
    "place", "pick", "target", "hide", "give", "draw", "turn_wheel", "discard", "pass",
)


def _rank(action: pb.Action) -> int:
    kind = action.WhichOneof("kind")
    return -PREFERENCE.index(kind) if kind in PREFERENCE else -len(PREFERENCE)


def greedy(view: pb.View, actions: list[pb.Action], seat: int, rng: Rng) -> pb.Action:
    """The legal action this heuristic prefers (ties broken at random)."""
    best = max(_rank(a) for a in actions)
    tied = [a for a in actions if _rank(a) == best]
    return tied[rng.below(len(tied))]
