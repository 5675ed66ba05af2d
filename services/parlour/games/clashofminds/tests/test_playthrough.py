"""Recorded playthroughs: a seeded game's spectator feed must not change unnoticed.

Regenerate with `python -m parlour.games.clashofminds.tests.playthrough` after a
deliberate rules change, and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from parlour.games.clashofminds.tests.playthrough import feed
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

GOLDEN = Path(__file__).with_name("golden")


@pytest.mark.parametrize(("name", "options"), [
    ("base_seed_7", pb.Options()),
    ("agents_seed_4", pb.Options(agents=True)),
])
def test_recorded_playthrough_is_unchanged(name, options):
    """A whole seeded game replays to the recorded feed line by line. (Rulebook: all sections)"""
    expected = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    assert feed(options, int(name.rsplit("_", 1)[1])) == expected
