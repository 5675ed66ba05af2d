"""The README's promises: its embedding example runs, its commands exist (README.md)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def test_embedding_example_runs():
    """The Python snippet in the README plays a game to the end."""
    (code,) = re.findall(r"```python\n(.*?)```", README, re.S)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert "Outcome(" in out.getvalue()


def test_two_commands_open_the_readme():
    """The first code block is `make demo` and `make test`, and .ci/run calls the test one."""
    first = re.search(r"```sh\n(.*?)```", README, re.S).group(1)
    commands = [line.split("#")[0].strip() for line in first.strip().splitlines()]
    assert commands == ["make demo", "make test"]
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_the_sdk_exports_every_name_the_readme_gives():
    """Every class the README names for `parlour.client` imports from it."""
    import parlour.client

    (names,) = re.findall(r"The Python SDK is `parlour.client` \(([^)]*)\)", README)
    for name in re.findall(r"`(\w+)`", names):
        assert name in parlour.client.__all__
        assert getattr(parlour.client, name).__name__ == name


def test_every_play_command_parses_with_its_options():
    """Each `parlour play GAME ... --options '...'` in the README names a game whose Options
    accept that JSON, with a seat range that fits the bots it asks for."""
    from google.protobuf import json_format

    from parlour.engine.registry import get_game

    commands = re.findall(r"parlour play (\w+) --bots (\d+) --options '([^']+)'", README)
    assert commands
    for game_name, bots, text in commands:
        game = get_game(game_name)
        low, high = game.seat_range(json_format.Parse(text, game.options_type()))
        assert low <= int(bots) + 1 <= high
