"""Copies of one card are alike (RULES.md: Copies): a choice among them is offered once, as
the first copy (the lowest id), and only that copy is accepted."""

from __future__ import annotations

from collections.abc import Iterable

from parlour.engine.game import IllegalAction
from parlour.games.houseofhorrors.catalogue import card


def first_copies(ids: Iterable[int]) -> list[int]:
    """One id per card name among `ids` (the lowest), in id order."""
    first: dict[str, int] = {}
    for c in sorted(ids):
        first.setdefault(card(c).name, c)
    return sorted(first.values())


def require_first_copy(ids: Iterable[int], card_id: int) -> None:
    """Refuse a copy of a card when a lower copy of it is among `ids` too."""
    name = card(card_id).name
    if any(c < card_id and card(c).name == name for c in ids):
        raise IllegalAction("NOT_FIRST_COPY", f"copies of {name} are alike: name the first")
