"""Hand-written files outside the game folders that name a game (issue 46: a game is one
folder; a file that lists games by hand would have to change for every new one).

    .venv/bin/python tools/game_names.py     each file:line naming a game; exit 1 if any

A line names a game when, lowercased with everything but letters dropped, it holds a game's
registry name ("Tiny Game's" would hold "tinygame"). Looked at: the tracked files under
clients/, gateway/, services/parlour/ (not games/), tools/ and deploy/, except generated
ones (under gen/ or dist/, or marked GENERATED / DO NOT EDIT near the top), docs (*.md),
tests and lock files.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCOPES = ("clients", "gateway", "services/parlour", "tools", "deploy")
SKIPPED = re.compile(
    r"^services/parlour/games/|/(gen|dist|tests?|node_modules)/|\.md$|\.test\.ts$|"
    r"(^|/)(package-lock\.json|CHANGELOG[^/]*)$"
)
GENERATED = re.compile(r"GENERATED|DO NOT EDIT")


def hand_written() -> list[Path]:
    """The tracked files looked at (see the module's docstring)."""
    listed = subprocess.run(
        ["git", "ls-files", *SCOPES], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    files = []
    for name in listed:
        path = ROOT / name
        if SKIPPED.search(name) or not path.is_file():
            continue
        try:
            head = "".join(path.read_text().splitlines(keepends=True)[:5])
        except UnicodeDecodeError:
            continue
        if not GENERATED.search(head):
            files.append(path)
    return files


def naming(paths: Iterable[Path], games: Iterable[str]) -> list[str]:
    """'path:line: text' for every line of `paths` that names one of `games`."""
    games = list(games)
    found = []
    for path in paths:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            letters = re.sub(r"[^a-z]", "", line.lower())
            if any(game in letters for game in games):
                shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                found.append(f"{shown}:{number}: {line.strip()}")
    return found


def main() -> int:
    from parlour.engine.registry import game_modules

    found = naming(hand_written(), game_modules())
    print("\n".join(found) or "no hand-written file outside a game folder names a game")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
