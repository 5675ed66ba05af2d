"""Issue 35 item 1: every game folder has the shape docs/adding-a-game.md draws, read from
that page itself, so the page and the folders cannot drift apart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from parlour.engine.registry import game_modules, load_game

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "adding-a-game.md"
GAMES = ROOT / "services" / "parlour" / "games"
# entries of the drawing that name no fixed file: the game's own rules modules, and the
# generated protobuf code (git-ignored)
NOT_FIXED = {"<rules>.py", "v1/"}


def drawn_entries() -> list[str]:
    """The paths in the guide's drawing of a game folder, in order."""
    text = GUIDE.read_text()
    drawing = re.search(r"```\nservices/parlour/games/<game>/\n(.*?)```", text, re.S)
    assert drawing, "docs/adding-a-game.md has no drawing of the folder"
    # an entry starts two spaces in; its description may go on in deeper-indented lines
    return [line.split()[0] for line in drawing.group(1).splitlines() if re.match(r"  \S", line)]


def missing(folder: Path, entry: str, variants: list[str]) -> list[str]:
    """What of one drawn entry the folder lacks."""
    if entry == "tests/playthroughs/<variant>.txt":
        wanted = [f"tests/playthroughs/{variant}.txt" for variant in variants]
        return [path for path in wanted if not (folder / path).is_file()]
    if "*" in entry:
        return [] if list(folder.glob(entry)) else [entry]
    return [] if (folder / entry).exists() else [entry]


def test_the_drawing_names_the_shape():
    """The drawing lists the files every game shares (a guard against reading nothing)."""
    entries = drawn_entries()
    for name in ("game.py", "setup.py", "views.py", "text.py", "catalogue.py", "RULES.md"):
        assert name in entries


@pytest.mark.parametrize("module", game_modules())
def test_every_game_folder_has_the_drawn_shape(module):
    """Every registered game folder holds each file of the drawing, a playthrough per
    variant, and no module at the top that the drawing does not allow (`<rules>.py` allows
    the game's own rules modules)."""
    folder = GAMES / module
    variants = [variant.name for variant in load_game(module).variants()]
    gaps = [
        gap
        for entry in drawn_entries()
        if entry not in NOT_FIXED
        for gap in missing(folder, entry, variants)
    ]
    assert gaps == [], f"{module} lacks {gaps} (docs/adding-a-game.md, 'The folder')"
