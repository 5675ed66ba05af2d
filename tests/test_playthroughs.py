"""Every registered game and variant has a recorded playthrough, and it still replays
(parlour.engine.playthrough; issue 27 item 2)."""

from __future__ import annotations

import pytest

from parlour.engine.playthrough import directory, path, playthrough
from parlour.engine.registry import games

CASES = [(g, v) for g in games().values() for v in g.variants()]


@pytest.mark.parametrize(("game", "variant"), CASES, ids=[f"{g.name}-{v.name}" for g, v in CASES])
def test_playthrough_replays(game, variant):
    recorded = path(game, variant)
    assert recorded.exists(), (
        f"{game.name} variant {variant.name!r} has no playthrough: "
        f"python -m parlour.engine.playthrough {game.name} --variant {variant.name} --write"
    )
    assert playthrough(game, variant) == recorded.read_text(encoding="utf-8"), (
        f"{recorded} no longer replays: if the change is meant, regenerate it and explain "
        "the diff in the commit"
    )


@pytest.mark.parametrize("game", list(games().values()), ids=lambda g: g.name)
def test_every_playthrough_belongs_to_a_variant(game):
    names = {v.name for v in game.variants()}
    assert len(names) == len(game.variants()), "variant names repeat"
    stray = {p.stem for p in directory(game).glob("*.txt")} - names
    assert not stray, f"playthroughs of no variant in {directory(game)}: {sorted(stray)}"
