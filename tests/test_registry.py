"""The registry and the purity of rules code (DESIGN: The shape; CONVENTIONS: core has no I/O)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from parlour.engine.registry import game_modules, games

GAMES_DIR = Path(__file__).resolve().parent.parent / "services" / "parlour" / "games"


def test_every_game_folder_is_registered():
    """Every folder under services/parlour/games exports a registered GAME."""
    folders = sorted(p.name for p in GAMES_DIR.iterdir() if (p / "__init__.py").exists())
    assert folders == game_modules()
    assert sorted(games()) == folders


def test_rules_import_neither_grpc_nor_redis():
    """Importing every game's rules pulls in no gRPC and no Redis module."""
    code = (
        "import sys; from parlour.engine.registry import games; games();"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('grpc', 'redis', 'valkey'));"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_declared_facts_are_sane():
    """Every game declares a seat range, message types and a bound on its length."""
    for game in games().values():
        assert 1 <= game.min_seats <= game.max_seats
        assert game.max_actions > 0
        for options, seats in game.test_configurations():
            assert isinstance(options, game.options_type)
            low, high = game.seat_range(options)
            assert game.min_seats <= low <= seats <= high <= game.max_seats
