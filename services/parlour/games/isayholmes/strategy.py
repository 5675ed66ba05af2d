"""Greedy bot heuristic for I Say, Holmes!: the lowest score wins and cards left in hand
count against you, so go out fast (escape, play, defend) and draw or pass last; aim every
card at the opponent with the lowest score (the leader)."""

from __future__ import annotations

from parlour.engine.rng import Rng
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb

PREFERENCE = (
    "escape", "play", "defend", "discard_villain", "target", "show", "give", "pass_left",
    "decline", "draw", "pass_turn",
)


def _rank(view: pb.View, action: pb.Action) -> tuple[int, int]:
    kind = action.WhichOneof("kind")
    first = -PREFERENCE.index(kind) if kind in PREFERENCE else -len(PREFERENCE)
    if kind == "target" and action.target.seat < len(view.scores):
        return first, -view.scores[action.target.seat]
    return first, 0


def greedy(view: pb.View, actions: list[pb.Action], seat: int, rng: Rng) -> pb.Action:
    """The legal action this heuristic prefers (ties broken at random)."""
    best = max(_rank(view, a) for a in actions)
    tied = [a for a in actions if _rank(view, a) == best]
    return tied[rng.below(len(tied))]
