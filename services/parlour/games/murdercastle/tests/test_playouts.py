"""Full-length games under the real rules (RULES.md: Variants and safeguards)."""

from __future__ import annotations

import pytest

from parlour.engine.conformance import play_random
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.rules import GAME


@pytest.mark.parametrize("seats", [2, 4, 7])
def test_default_games_end_by_a_win_or_the_safeguard(seats):
    """Random play under the default options ends, by an escape or after the 30-round safeguard,
    well within max_actions; every component stays conserved on the way."""
    for seed in range(2):
        record = play_random(GAME, GAME.default_options(seats), seats, seed)
        state = record.final
        assert state is not None and state.finished
        assert state.winner or state.round == catalogue().rules["safety_round_limit"] == 30
        assert len(record.actions) < GAME.max_actions // 4
