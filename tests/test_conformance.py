"""The generic conformance suite over every registered game and seat count (DESIGN: Quality)."""

from __future__ import annotations

import os

import pytest

from parlour.engine.conformance import play_random
from parlour.engine.registry import games

PLAYOUTS = int(os.environ.get("PARLOUR_PLAYOUTS", "1000"))
DEEP_EVERY = 20

CASES = [
    pytest.param(game, options, seats, id=f"{name}-{seats}p-{i}")
    for name, game in sorted(games().items())
    for i, (options, seats) in enumerate(game.test_configurations())
]


@pytest.mark.parametrize(("game", "options", "seats"), CASES)
def test_random_playouts(game, options, seats):
    """Thousands of seeded random games end, conserve components, replay and do not leak."""
    pool: list = []
    for seed in range(PLAYOUTS):
        play_random(game, options, seats, seed, deep=seed % DEEP_EVERY == 0, pool=pool)
