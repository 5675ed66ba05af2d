"""Modes stay above the standard rules (docs/adding-a-game.md "Modes"): no standard module of
a game with modes imports a mode module or branches on a mode; they ask the rule points.

The rule, over each module's AST: a *mode reference* is an import of a mode module (or of a
name from one) and every use of a name so bound; a *mode branch* is the test of an `if`,
conditional expression, `while`, comprehension filter or `assert`, or an operand of `and` /
`or`, that reads a mode's option field (`options.automa`, `HasField("play_as_holmes")` ...)
or a mode module. The module that assembles the game (game.py) may import the installed
`MODES` from the modes' module, and nothing else of it. A *mode name* is a name that holds a
mode option's words (`agent_deck`, `pb.AgentDrawn`, `pb.PHASE_AGENTS`, `"activate_agent"`),
as tools/one_folder.py counts them (its count 2): the mode's own components, fields and
moves, which belong in the mode.

`python tests/test_game_modes.py [ROOT]` prints the counts per game and module for the tree
at ROOT (default: this checkout).
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# tools/one_folder.py loaded by path: tools/ on sys.path would let tools/buf.py hide buf
_spec = importlib.util.spec_from_file_location("one_folder", REPO / "tools" / "one_folder.py")
one_folder = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(one_folder)
#: Mode names a game's standard modules may still hold, by game: none is left (issue 46); a
#: game listed here would be allowed that many.
MODE_NAMES_LEFT: dict[str, int] = {}


@dataclass(frozen=True)
class Moded:
    """A game with modes: its mode modules, the module installing them, its option fields."""

    game: str
    modes: frozenset[str]
    installer: str
    fields: frozenset[str]


GAMES = (
    Moded("murdercastle",
          frozenset({"modes", "automa", "play_as_holmes", "second_story", "castle_junction",
                     "holmes_abilities", "holmes_cards"}),
          "modes", frozenset({"automa", "play_as_holmes", "second_story", "extended"})),
    Moded("clashofminds", frozenset({"agents"}), "agents", frozenset({"agents"})),
)
#: Games checked to have no modes at all (no option field names a mode).
NO_MODES = ("houseofhorrors",)


def standard_modules(root: Path, game: Moded) -> list[Path]:
    """The game's Python modules other than its modes, generated code and tests."""
    folder = root / "services/parlour/games" / game.game
    return sorted(p for p in folder.glob("*.py") if p.stem not in game.modes)


def _mode_module(node: ast.AST, game: Moded) -> str | None:
    """The mode module an import names, if any."""
    prefix = f"parlour.games.{game.game}"
    if isinstance(node, ast.ImportFrom) and node.module:
        if node.module == prefix:
            names = [a.name for a in node.names if a.name in game.modes]
            return names[0] if names else None
        stem = node.module.removeprefix(prefix + ".").split(".")[0]  # a mode package's too
        return stem if node.module.startswith(prefix + ".") and stem in game.modes else None
    if isinstance(node, ast.Import):
        for alias in node.names:
            stem = alias.name.removeprefix(prefix + ".").split(".")[0]
            if alias.name.startswith(prefix + ".") and stem in game.modes:
                return stem
    return None


def _names_mode(node: ast.AST, game: Moded, bound: set[str]) -> bool:
    """Whether an expression reads a mode field or a name bound to a mode module."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr in game.fields and (
                isinstance(sub.value, ast.Name | ast.Attribute)
                and (getattr(sub.value, "id", "") == "options"
                     or getattr(sub.value, "attr", "") == "options")):
            return True
        if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute)
                and sub.func.attr == "HasField" and sub.args
                and isinstance(sub.args[0], ast.Constant) and sub.args[0].value in game.fields):
            return True
        if isinstance(sub, ast.Name) and sub.id in bound:
            return True
    return False


def count(path: Path, game: Moded) -> tuple[int, int]:
    """(mode references, mode branches) in one standard module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bound: set[str] = set()
    refs = 0
    for node in ast.walk(tree):
        module = _mode_module(node, game)
        if module is None:
            continue
        assert isinstance(node, ast.Import | ast.ImportFrom)
        names = [a.asname or a.name for a in node.names]
        if (path.stem == "game" and module == game.installer
                and isinstance(node, ast.ImportFrom) and names == ["MODES"]):
            continue
        refs += 1
        bound.update(n.split(".")[0] for n in names)
    refs += sum(isinstance(n, ast.Name) and n.id in bound for n in ast.walk(tree))
    tests: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If | ast.IfExp | ast.While | ast.Assert):
            tests.append(node.test)
        elif isinstance(node, ast.comprehension):
            tests.extend(node.ifs)
    inside = {id(n) for t in tests for n in ast.walk(t)}
    for node in ast.walk(tree):  # `a and b` outside a test: each operand decides
        if isinstance(node, ast.BoolOp) and id(node) not in inside:
            inside.update(id(n) for n in ast.walk(node))
            tests.extend(node.values)
    branches = sum(_names_mode(t, game, bound) for t in tests)
    return refs, branches


def counts(root: Path) -> dict[str, dict[str, tuple[int, int]]]:
    """Per game, per standard module with any: (mode references, mode branches)."""
    found: dict[str, dict[str, tuple[int, int]]] = {}
    for game in GAMES:
        per = {p.name: count(p, game) for p in standard_modules(root, game)}
        found[game.game] = {name: c for name, c in per.items() if any(c)}
    return found


def test_standard_modules_name_no_mode():
    """Every standard module of a game with modes: no mode reference, no mode branch."""
    assert counts(REPO) == {game.game: {} for game in GAMES}


def test_the_counter_sees_a_mode_import_and_a_mode_branch(tmp_path):
    """The rule counts what it must: an import of a mode module and its uses, an `if` on a
    mode field, a `HasField` on one; and lets the installer's MODES through in game.py."""
    game = GAMES[0]
    folder = tmp_path / "services/parlour/games" / game.game
    folder.mkdir(parents=True)
    (folder / "rules.py").write_text(
        "from parlour.games.murdercastle import automa\n"
        "def f(state):\n"
        "    if state.options.automa:\n"
        "        return automa.targets(state, [])\n"
        "    return 1 if state.options.HasField('play_as_holmes') else 0\n")
    (folder / "game.py").write_text("from parlour.games.murdercastle.modes import MODES\n")
    (folder / "automa.py").write_text("def on(state):\n    return state.options.automa\n")
    assert counts(tmp_path)[game.game] == {"rules.py": (2, 2)}


def test_standard_modules_name_no_mode_component():
    """No standard module of a game with modes names a mode's own components, fields or
    moves (Clash of Minds: no `agent` name at all; Murder Castle: no `second_story`,
    `automa` or `play_as_holmes` name)."""
    from parlour.engine.registry import games

    found = {}
    for game in GAMES:
        options = one_folder.mode_options(games()[game.game])
        assert options >= game.fields, f"{game.game}: mode options {options}"
        refs = {path.name: n for path in one_folder.standard_modules(game.game)
                if (n := sum(one_folder.mode_name_refs(path.read_text("utf-8"), options)
                             .values()))}
        found[game.game] = sum(refs.values())
        assert found[game.game] <= MODE_NAMES_LEFT.get(game.game, 0), (game.game, refs)
    assert found["clashofminds"] == 0


def test_the_name_counter_sees_a_modes_names_not_its_prose():
    """Fields, messages, enum values, definitions, keywords and oneof kinds that hold a mode
    option's words count (singular or plural, snake or camel case, several words in a row);
    prose, other words and a lone word of a longer option do not."""
    source = (
        'def agent_open(state):\n'
        '    """Whether an Agent is open."""\n'
        '    e = pb.Event(agent_drawn=pb.AgentDrawn(seat=0))\n'
        '    kinds = {"activate_agent", "play influence agent"}\n'
        '    return state.phase == pb.PHASE_AGENTS and state.players[0].agent.in_play\n'
        'PILE = catalogue.second_story_pile + [SecondStory, story, agenda, extend]\n')
    refs = one_folder.mode_name_refs(source, {"agents", "second_story"})
    assert refs == {"agent_open": 1, "agent_drawn": 1, "AgentDrawn": 1, "activate_agent": 1,
                    "PHASE_AGENTS": 1, "agent": 1, "second_story_pile": 1, "SecondStory": 1}


def test_each_mode_replaces_its_points_and_the_first_active_one_answers():
    """The standard answers without a mode; a mode's own where it is on; the Extended
    Version (first in order) answers the Pillar when Automa, which also drops it, is on too."""
    from parlour.games.murdercastle import GAME  # noqa: F401 (installs the modes)
    from parlour.games.murdercastle.hooks import MODES, Points
    from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

    state = pb.State(seats=4)
    standard = MODES.rules(pb.Options())
    assert standard.selection_bonus(state) and standard.pillar(state)
    assert standard.holmes_seat_of(pb.Options()) is None
    automa = MODES.rules(pb.Options(automa=pb.AUTOMA_LEVEL_BEGINNER))
    assert not automa.selection_bonus(state) and not automa.pillar(state)
    both = MODES.rules(pb.Options(extended=True, automa=pb.AUTOMA_LEVEL_BEGINNER))
    assert both.pillar.__self__.name == "extended"
    assert both.selection_bonus.__self__.name == "automa"
    extended = next(m for m in MODES.all if m.name == "extended")
    assert MODES.replaced(extended) == ["pillar"]
    assert all(isinstance(m, Points) for m in MODES.all)


def test_a_game_without_modes_has_no_mode_fields():
    """House of Horrors has no modes: its Options hold no on/off mode field."""
    from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

    assert {f.name for f in pb.Options.DESCRIPTOR.fields} == {"first_butler"}


if __name__ == "__main__":
    tree = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO
    for name, per in counts(tree).items():
        refs = sum(r for r, _ in per.values())
        ifs = sum(b for _, b in per.values())
        print(f"{name}: {refs} mode references, {ifs} mode branches in {len(per)} modules")
        for module, (r, b) in sorted(per.items()):
            print(f"  {module}: {r} references, {b} branches")
