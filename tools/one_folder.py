"""The counts of issue 46 ("a game is one folder"), rerunnable by anyone:
`.venv/bin/python tools/one_folder.py` (from the repository root; `-v` lists what is counted).

1. Files outside a game folder a new game touches: the hand-written files outside the game
   folders that name a game, as tools/game_names.py finds them (its docstring says which).
2. Per game with modes (Options fields that switch one on: a singular bool, enum or
   message): in its standard modules (the game folder's modules that are not mode modules,
   `MODE_MODULES` below; tests left out) the calls into mode modules (`mode.f(...)` on an
   imported mode module, or `f(...)` of a name imported from one) and the `if`s on the mode
   (`if`/`elif` statements whose test reads the mode: a name, attribute or string that is a
   mode option, `options.automa`, `HasField("play_as_holmes")`, or a mode module or a name
   imported from one; `__init__.py` and `__main__.py` count as modules); and the references
   to the mode's own names: every name in a standard module (a variable, attribute, keyword,
   parameter, definition or imported name, or a string that is one identifier, such as a
   oneof kind `"activate_agent"`; not prose) whose words hold a mode option's words
   (`agents` -> agent or agents: `agent_open`, `player.agent_deck`, `pb.AgentDrawn`,
   `pb.PHASE_AGENTS`, `under_agent=`; `second_story` -> `second_story_pile`, `SecondStory`).
   The game's proto names its mode parts after the option, so this catches its fields,
   messages and enum values as well as Python names (`mode_name_refs`).
3. Direct Redis calls outside parlour.store: calls `<x>.redis.<method>(...)` and
   `redis.<method>(...)` on a local or attribute named `redis` (not the module) in the
   Python of services/, gateway/ and clients/ outside services/parlour/store/ (tests left out).
4. Gateway classes and methods serving the RPCs: the classes of parlour.gateway that
   subclass the generated `GatewayServiceServicer`, with their bases defined in the gateway
   (mixins) and the gateway classes they construct (the services they are composed of);
   their methods, lines, and the `self.` attributes more than one of them uses.
5. Import edges going up between the three source roots (services/ < gateway/ < clients/,
   docs/design.md "Layers"), from tools/import_graph.py's graph (function-local imports count).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The games' mode modules, by file name (a folder `modes/` counts whole); a game's modes
#: reach the standard rules through its declared hooks (`hooks.py`), which are no mode module.
MODE_MODULES = {"modes", "automa", "second_story", "play_as_holmes", "holmes_cards",
                "holmes_abilities", "castle_junction", "agents"}
GAMES_DIR = ROOT / "services" / "parlour" / "games"


def tracked() -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    return [ROOT / line for line in out.splitlines()]


def registry() -> dict:
    """The game registry's games, by name."""
    sys.path[:0] = [str(ROOT / r) for r in ("services", "gateway", "clients")]
    from parlour.engine.registry import games

    return games()


def mode_options(game) -> set[str]:
    """The Options fields that switch a mode on: a singular bool, enum or message (numbers
    and lists are settings)."""
    kinds = {8, 11, 14}  # FieldDescriptor.TYPE_BOOL, TYPE_MESSAGE, TYPE_ENUM
    return {f.name for f in game.options_type().DESCRIPTOR.fields
            if f.type in kinds and not f.is_repeated}


def _mode_reads(test: ast.AST, options: set[str], modules: set[str], names: set[str]) -> bool:
    """Whether a test reads the mode: a name, attribute or string starting with a mode option
    (`options.automa`, `state.automa_deck`, `HasField("play_as_holmes")`), or a mode module."""
    for node in ast.walk(test):
        word = (node.attr if isinstance(node, ast.Attribute) else
                node.id if isinstance(node, ast.Name) else
                node.value if isinstance(node, ast.Constant) else None)
        if not isinstance(word, str):
            continue
        if word in modules or word in names or word in options:
            return True
    return False


def name_words(name: str) -> list[str]:
    """A name's lower-case words: `PHASE_AGENTS` -> phase, agents; `AgentDrawn` -> agent, drawn."""
    return [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", name)]


def names_mode(name: str, options: set[str]) -> bool:
    """Whether a name's words hold a mode option's words in a row (the last one singular or
    plural: `agents` matches `agent_deck` and `PHASE_AGENTS`)."""
    words = name_words(name)
    for option in options:
        *head, last = option.split("_")
        for i in range(len(words) - len(head)):
            *here, end = words[i : i + len(head) + 1]
            if here == head and end in (last, last + "s", last.removesuffix("s")):
                return True
    return False


def _names(tree: ast.AST):
    """Every name a module writes: variables, attributes, keywords, parameters, definitions,
    imported names, and strings that are one identifier."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, ast.Attribute):
            yield node.attr
        elif isinstance(node, ast.keyword | ast.arg) and node.arg:
            yield node.arg
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name
        elif isinstance(node, ast.alias):
            yield (node.asname or node.name).rsplit(".", 1)[-1]
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and node.value.isidentifier()):
            yield node.value


def mode_name_refs(source: str, options: set[str]) -> Counter:
    """The references to a mode's own names in one module's source, by name."""
    return Counter(n for n in _names(ast.parse(source)) if names_mode(n, options))


def standard_modules(game: str) -> list[Path]:
    """A game's standard modules: its Python modules but its mode modules, generated code
    and tests."""
    folder = GAMES_DIR / game
    return [path for path in sorted(folder.rglob("*.py"))
            if not ({"tests"} | MODE_MODULES) & set(path.relative_to(folder).with_suffix("").parts)
            and "_pb2" not in path.name]


def mode_counts(game: str, options: set[str]) -> tuple[Counter, Counter, Counter, int]:
    """(calls into mode modules, ifs on the mode, references to the mode's own names) per
    standard module of `game`, and how many standard modules it has."""
    calls: Counter = Counter()
    ifs: Counter = Counter()
    refs: Counter = Counter()
    folder = GAMES_DIR / game
    standard = standard_modules(game)
    for path in standard:
        rel = path.relative_to(folder)
        source = path.read_text(encoding="utf-8")
        refs[rel.as_posix()] += sum(mode_name_refs(source, options).values())
        tree = ast.parse(source)
        modules, names = set(), set()
        for node in ast.walk(tree):
            # only the game's own mode modules (parlour.engine.modes is the plugin framework)
            if isinstance(node, ast.ImportFrom) and node.module and (
                    node.module.startswith(f"parlour.games.{game}") or node.level):
                inside = set(node.module.split(".")[0 if node.level else 3:])  # packages too
                for alias in node.names:
                    if alias.name in MODE_MODULES:
                        modules.add(alias.asname or alias.name)
                    elif inside & MODE_MODULES:
                        names.add(alias.asname or alias.name)
        key = rel.as_posix()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                        and func.value.id in modules) or (
                        isinstance(func, ast.Name) and func.id in names):
                    calls[key] += 1
            if isinstance(node, ast.If):
                ifs[key] += _mode_reads(node.test, options, modules, names)
    return +calls, +ifs, +refs, len(standard)


def redis_calls(files: list[Path]) -> Counter:
    """Direct Redis calls per module outside parlour.store."""
    found: Counter = Counter()
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        if (path.suffix != ".py" or not rel.startswith(("services/", "gateway/", "clients/"))
                or rel.startswith("services/parlour/store/") or "/tests/" in rel):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module_redis = any(isinstance(n, ast.Import) and any(a.name == "redis" and not a.asname
                                                             for a in n.names)
                           for n in ast.walk(tree))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            owner = node.func.value
            if (isinstance(owner, ast.Attribute) and owner.attr == "redis") or (
                    isinstance(owner, ast.Name) and owner.id == "redis" and not module_redis):
                found[rel] += 1
    return found


def gateway_classes() -> dict[str, dict]:
    """The RPC-serving classes of the gateway (the servicer, its bases, the services it
    constructs): name -> {methods, lines, attributes}."""
    classes: dict[str, tuple[ast.ClassDef, str]] = {}
    for path in sorted((ROOT / "gateway" / "parlour" / "gateway").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                classes[node.name] = (node, path.name)

    def bases(node: ast.ClassDef) -> list[str]:
        return [b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "")
                for b in node.bases]

    serving = [n for n, (c, _) in classes.items() if "GatewayServiceServicer" in bases(c)]
    serving += [n.func.id for name in serving for n in ast.walk(classes[name][0])
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    seen: set[str] = set()
    while serving:
        name = serving.pop()
        if name in seen or name not in classes:
            continue
        seen.add(name)
        serving.extend(bases(classes[name][0]))
    info = {}
    for name in sorted(seen):
        node, file = classes[name]
        methods = [f for f in node.body if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)]
        attributes = {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
                      and isinstance(n.value, ast.Name) and n.value.id == "self"}
        info[name] = {"file": file, "methods": len(methods), "attributes": attributes,
                      "lines": node.end_lineno - node.lineno + 1}
    return info


def main(verbose: bool) -> None:
    import game_names  # tools/, beside this script (imported here: the tests load this file)
    from import_graph import graph, upward_edges

    files = tracked()
    games = registry()
    lines = game_names.naming(game_names.hand_written(), games)
    named = sorted({line.split(":", 1)[0] for line in lines})
    print(f"files outside a game folder that name a game: {len(named)}")
    if verbose:
        print("".join(f"  {line}\n" for line in lines), end="")
    for game in sorted(g for g in games if mode_options(games[g])):
        calls, ifs, refs, standard = mode_counts(game, mode_options(games[game]))
        modules = set(calls) | set(ifs) | set(refs)
        print(f"{game}: {sum(calls.values())} calls into mode modules, "
              f"{sum(ifs.values())} ifs on the mode and {sum(refs.values())} references to "
              f"the modes' own names in {len(modules)} of its {standard} standard modules")
        if verbose:
            for module in sorted(modules):
                print(f"  {module}: {calls[module]} calls, {ifs[module]} ifs, "
                      f"{refs[module]} names")
    redis = redis_calls(files)
    areas: Counter = Counter()
    for module, count in redis.items():
        areas[module.split("/")[2]] += count
    where = ", ".join(f"{area} {count}" for area, count in sorted(areas.items()))
    print(f"direct Redis calls outside parlour.store: {sum(redis.values())} in "
          f"{len(redis)} modules ({where})")
    if verbose:
        for module, count in sorted(redis.items()):
            print(f"  {module}: {count}")
    classes = gateway_classes()
    uses = Counter(a for c in classes.values() for a in c["attributes"])
    shared = sorted(a for a, n in uses.items() if n > 1)
    print(f"gateway classes serving the RPCs: {len(classes)}, "
          f"{sum(c['methods'] for c in classes.values())} methods, "
          f"{sum(c['lines'] for c in classes.values())} lines, "
          f"{len(shared)} self attributes shared by more than one")
    if verbose:
        for name, c in classes.items():
            print(f"  {c['file']}:{name}: {c['methods']} methods, {c['lines']} lines")
        print(f"  shared: {', '.join(shared)}")
    up = upward_edges(graph(ROOT))
    print(f"import edges going up between the source roots: {len(up)}")
    if verbose:
        for edge in up:
            print(f"  {edge}")


if __name__ == "__main__":
    main("-v" in sys.argv[1:])
