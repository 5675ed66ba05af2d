"""What every game's greedy bot heuristic (`games/<game>/strategy.py`) shares: rank the legal
actions by a preference over action kinds and take the best, ties broken by the bot's RNG."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from google.protobuf.message import Message

from parlour.engine.rng import Rng


def kind_rank(preference: Sequence[str], action: Message) -> int:
    """Higher for kinds earlier in `preference`; kinds not listed come last."""
    kind = action.WhichOneof("kind")
    return -preference.index(kind) if kind in preference else -len(preference)


def best(actions: Sequence[Message], rank: Callable[[Message], Any], rng: Rng) -> Message:
    """The best-ranked action; among equals, one drawn from `rng`."""
    ranks = [rank(a) for a in actions]
    top = max(ranks)
    tied = [a for a, r in zip(actions, ranks, strict=True) if r == top]
    return tied[rng.below(len(tied))]
