"""Greedy bot heuristic for I Say, Holmes!: the lowest score wins and cards left in hand
count against you, so go out fast (escape, play, defend) and draw or pass last; aim every
card at the opponent with the lowest score (the leader)."""

from __future__ import annotations

from parlour.engine.greedy import best, kind_rank
from parlour.engine.rng import Rng
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb

PREFERENCE = (
    "escape", "play", "defend", "discard_villain", "target", "show", "give", "pass_left",
    "decline", "draw", "pass_turn",
)


def _rank(view: pb.View, action: pb.Action) -> tuple[int, int]:
    first = kind_rank(PREFERENCE, action)
    if action.WhichOneof("kind") == "target" and action.target.seat < len(view.scores):
        return first, -view.scores[action.target.seat]
    return first, 0


def greedy(view: pb.View, actions: list[pb.Action], seat: int, rng: Rng) -> pb.Action:
    """The legal action this heuristic prefers (ties broken at random)."""
    return best(actions, lambda a: _rank(view, a), rng)
