"""Helpers for decks, hands and piles kept as protobuf repeated fields (or lists)."""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any

from parlour.engine.game import IllegalAction


def take_top(deck: MutableSequence[Any], n: int = 1) -> list[Any]:
    """Remove and return up to n items from the end (the top) of a deck."""
    n = min(n, len(deck))
    if n == 0:
        return []
    taken = list(deck[len(deck) - n :])
    del deck[len(deck) - n :]
    taken.reverse()
    return taken


def remove_one(zone: MutableSequence[Any], item: Any, reason: str = "NOT_IN_ZONE") -> None:
    """Remove one copy of item, or refuse with IllegalAction(reason)."""
    for i, value in enumerate(zone):
        if value == item:
            del zone[i]
            return
    raise IllegalAction(reason, f"{item!r} is not there")


def move_one(src: MutableSequence[Any], dst: MutableSequence[Any], item: Any, reason: str) -> None:
    """Move one copy of item from src to the end of dst."""
    remove_one(src, item, reason)
    dst.append(item)
