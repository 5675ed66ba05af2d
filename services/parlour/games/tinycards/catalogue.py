"""Tiny Cards' components as data: twelve cards numbered 1 to 12 (data/cards.json)."""

from __future__ import annotations

import json
from pathlib import Path

DECK: tuple[int, ...] = tuple(
    json.loads((Path(__file__).parent / "data" / "cards.json").read_text())["cards"]
)


def check_catalogue() -> None:
    """Every card appears once, numbered 1 to 12 (RULES.md, "Components")."""
    assert sorted(DECK) == list(range(1, 13)), f"the deck is not 1..12: {DECK}"
