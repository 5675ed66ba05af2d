"""Issue 42 item 1: each game declares its rules version, and its golden playthroughs are
pinned to it: a playthrough that changes while the version stays is a failing test."""

from __future__ import annotations

import pytest

from parlour.engine.playthrough import (
    recorded_digest,
    recorded_versions,
    version_problems,
    versions_path,
)
from parlour.engine.registry import games

GAMES = sorted(games().values(), key=lambda g: g.name)


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_the_playthroughs_are_those_of_the_rules_version(game):
    """The last line of tests/playthroughs/versions is the game's rules_version with the
    digest of the recorded playthroughs (which test_playthroughs replays)."""
    assert versions_path(game).is_file(), f"{game.name} has no {versions_path(game)}"
    problems = version_problems(game.rules_version, recorded_versions(game), recorded_digest(game))
    assert problems == [], problems


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_the_declared_versions_hang_together(game):
    """A game plays its newest version itself, and migrates only from older ones it lists."""
    assert game.rules_version >= 1
    assert game.rules_version in game.served_versions()
    assert game.at_version(game.rules_version) is game
    assert all(v < game.rules_version for v in game.migrates_from)
    assert {v for v, _ in recorded_versions(game)} >= set(game.served_versions())


def test_a_changed_playthrough_without_a_bump_fails():
    """The check names the bump and the line to add when the digest moved but the version
    did not; it passes once both are done."""
    recorded = [(1, "aaaa"), (2, "bbbb")]
    assert version_problems(2, recorded, "bbbb") == []
    (problem,) = version_problems(2, recorded, "cccc")
    assert "bump rules_version to 3" in problem and "'3 cccc'" in problem
    assert version_problems(3, [*recorded, (3, "cccc")], "cccc") == []
    assert "ends at 2" in version_problems(3, recorded, "bbbb")[0]
    assert "rising order" in version_problems(2, [(2, "x"), (1, "y")], "y")[0]
