"""A recorded playthrough, diffed line by line (CONVENTIONS: golden playthroughs).

To re-record after an intended rules change, run with HOH_RECORD=1 and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

from parlour.engine import runtime
from parlour.engine.conformance import play_random
from parlour.games.houseofhorrors import GAME

GOLDEN = Path(__file__).resolve().parent / "data" / "playthrough_4p_seed2026.txt"


def _transcript() -> list[str]:
    record = play_random(GAME, GAME.default_options(4), 4, seed=2026)
    state = GAME.new_state(GAME.default_options(4), 4, 2026)
    lines = []
    for seat, action in record.actions:
        lines.append(f"seat {seat}: {GAME.describe_action(action)}")
        state, events = runtime.apply(GAME, state, seat, action)
        lines += [f"  {GAME.describe_event(e.event)}" for e in events if e.visible_to(None)]
    outcome = GAME.outcome(state)
    lines.append(f"outcome: scores {list(outcome.scores)}, winners {list(outcome.winners)}")
    return lines


def test_seeded_four_player_game_replays_as_recorded():
    """A seeded 4-player game plays as recorded, as a spectator sees it (Rulebook: Gameplay)."""
    lines = _transcript()
    if os.environ.get("HOH_RECORD"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert GOLDEN.read_text(encoding="utf-8").splitlines() == lines
