"""Recorded playthroughs, like OpenSpiel's: one seeded game per variant, step by step.

Each step shows who owes what, the acting seat's labelled legal actions, the action a
seeded chooser took, every event with its audience, and a digest of the state; the table
of every seat opens and closes the file. A playthrough that no longer matches its file
means the rules, their words or their state changed: regenerate with

    python -m parlour.engine.playthrough GAME [--variant NAME] --write

and explain the diff in the commit. Files: parlour/games/<game>/tests/playthroughs/.

A changed playthrough is changed behaviour: the game's `rules_version` goes up with it, and
`tests/playthroughs/versions` gains the line `--versions` prints (each version with the
digest of the playthroughs it recorded; tests/test_rules_versions.py checks both).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import sys
from pathlib import Path

from google.protobuf import json_format

from parlour.engine import runtime
from parlour.engine.game import Emitted, Game, Variant
from parlour.engine.registry import get_game
from parlour.engine.rng import Rng
from parlour.engine.simulate import steps
from parlour.engine.text import table_lines

SEED = 1
#: Labels listed per step; longer lists end with how many more (their digest still counts).
MAX_LABELS = 24


def directory(game: Game) -> Path:
    """Where a game's playthroughs live."""
    package = importlib.import_module(f"parlour.games.{game.name}")
    return Path(package.__file__).parent / "tests" / "playthroughs"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _audience(emitted: Emitted) -> str:
    if emitted.to is not None:
        return "only " + ",".join(str(s) for s in sorted(emitted.to))
    if emitted.hidden_from:
        return "all but " + ",".join(str(s) for s in sorted(emitted.hidden_from))
    return "everyone"


def _tables(game: Game, state, seats: int) -> list[str]:
    lines = []
    for viewer in [*range(seats), None]:
        lines.append(f"table of {'the spectator' if viewer is None else f'seat {viewer}'}:")
        view = runtime.view(game, state, viewer)
        lines += [f"  {line}" for line in table_lines(game.describe_view(view, viewer))]
    return lines


def playthrough(game: Game, variant: Variant, seed: int = SEED) -> str:
    """The playthrough of `variant` at its fewest seats, actions chosen from `seed`."""
    seats = game.seat_range(variant.options)[0]
    state = game.new_state(variant.options, seats, seed)
    chooser = Rng.from_seed(seed)
    options = json_format.MessageToJson(variant.options, indent=None, sort_keys=True)
    lines = [
        f"# {game.display_name}: {variant.display_name}. Regenerate with "
        f"`python -m parlour.engine.playthrough {game.name} --variant {variant.name} --write`",
        f"game: {game.name}",
        f"variant: {variant.name}",
        f"options: {options}",
        f"seats: {seats}",
        f"seed: {seed}",
        *_tables(game, state, seats),
    ]
    for step in steps(game, state, chooser, first_seat=True):
        labels = game.label_actions(step.before, step.seat, step.actions)
        chosen = step.chosen
        lines.append(
            f"step {step.number}: " + "; ".join(f"seat {d.seat} {d.kind}" for d in step.decisions)
        )
        shown = labels[:MAX_LABELS]
        lines += [f"  {'>' if i == chosen else ' '} {i}. {label}" for i, label in enumerate(shown)]
        if len(labels) > MAX_LABELS:
            more = _digest("\n".join(labels[MAX_LABELS:]).encode())
            lines.append(f"    … {len(labels) - MAX_LABELS} more (digest {more})")
        if chosen >= MAX_LABELS:
            lines.append(f"  > {chosen}. {labels[chosen]}")
        state = step.after
        lines += [f"  [{_audience(e)}] {game.describe_event(e.event)}" for e in step.events]
        lines.append(f"  state {_digest(runtime.serialize(state))}")
    outcome = game.outcome(state)
    lines.append(f"outcome: {outcome}")
    lines += _tables(game, state, seats)
    return "\n".join(lines) + "\n"


def path(game: Game, variant: Variant) -> Path:
    """The file holding a variant's playthrough."""
    return directory(game) / f"{variant.name}.txt"


def versions_path(game: Game) -> Path:
    """The file listing each rules version with the digest of its playthroughs."""
    return directory(game) / "versions"


def recorded_digest(game: Game) -> str:
    """The digest of the game's recorded playthroughs (every variant's file, by name)."""
    parts = [
        f"{variant.name}\n{path(game, variant).read_text(encoding='utf-8')}"
        for variant in sorted(game.variants(), key=lambda v: v.name)
    ]
    return _digest("\n".join(parts).encode())


def recorded_versions(game: Game) -> list[tuple[int, str]]:
    """(rules version, playthrough digest) as `versions` lists them, in file order."""
    lines = versions_path(game).read_text(encoding="utf-8").splitlines()
    return [(int(v), d) for v, d in (line.split() for line in lines if line.strip())]


def version_problems(
    rules_version: int, recorded: list[tuple[int, str]], digest: str
) -> list[str]:
    """What is wrong between a game's `rules_version`, its `versions` lines and the digest of
    its playthroughs now (none: the playthroughs are those of its version)."""
    numbers = [v for v, _ in recorded]
    if not recorded:
        return ["tests/playthroughs/versions lists no version"]
    if numbers != sorted(set(numbers)):
        return [f"tests/playthroughs/versions is not in rising order: {numbers}"]
    newest, pinned = recorded[-1]
    if newest != rules_version:
        return [f"rules_version is {rules_version}; tests/playthroughs/versions ends at {newest}"]
    if pinned != digest:
        return [
            f"the playthroughs changed (digest {digest}) while rules_version stayed "
            f"{rules_version}: a change of behaviour breaks the matches and logs made under "
            f"version {rules_version}; bump rules_version to {rules_version + 1} and append "
            f"the line '{rules_version + 1} {digest}' (docs/adding-a-game.md, 'Rules versions')"
        ]
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m parlour.engine.playthrough")
    parser.add_argument("game")
    parser.add_argument("--variant", help="one variant by name (default: every variant)")
    parser.add_argument("--write", action="store_true", help="write the files, else print")
    parser.add_argument(
        "--versions",
        action="store_true",
        help="print the `versions` line of the recorded playthroughs at the game's version",
    )
    args = parser.parse_args(argv)
    game = get_game(args.game)
    if args.versions:
        print(f"{game.rules_version} {recorded_digest(game)}")
        return 0
    variants = [v for v in game.variants() if args.variant in (None, v.name)]
    if not variants:
        names = ", ".join(v.name for v in game.variants())
        print(f"{game.name} has no variant {args.variant!r} (it has: {names})", file=sys.stderr)
        return 2
    for variant in variants:
        text = playthrough(game, variant)
        if args.write:
            path(game, variant).parent.mkdir(parents=True, exist_ok=True)
            path(game, variant).write_text(text, encoding="utf-8")
            print(f"wrote {path(game, variant)}")
        else:
            sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
