"""Greedy bot heuristic for Tiny Cards: the score is the sum of cards played, so play the
highest card in hand; draw only with nothing to play."""

from __future__ import annotations

from parlour.engine.rng import Rng
from parlour.games.tinycards.v1 import tinycards_pb2 as pb


def greedy(view: pb.View, actions: list[pb.Action], seat: int, rng: Rng) -> pb.Action:
    """The legal action this heuristic prefers."""
    return max(actions, key=lambda a: a.play.card if a.HasField("play") else 0)
