"""The module import graph of `parlour` over its three source roots (docs/design.md "Layers").

Every `import` and `from ... import` counts, function-local ones too; the graph is read from
the source (AST), so nothing is imported. Generated code (`*_pb2*`) is a target, never a
source. Used by tests/test_import_graph.py and tools/one_folder.py; no import but the
standard library's, so the test loads it by path.
"""

from __future__ import annotations

import ast
import functools
import graphlib
from dataclasses import dataclass
from pathlib import Path

#: The source roots, lowest layer first: a module may import its own root's and lower ones'.
ROOTS = ("services", "gateway", "clients")
#: The client packages (SDK, terminal, web relay) reach the gateway root only through its
#: generated contract; the commands above them may use the gateway's code.
CLIENT_PACKAGES = ("parlour.client", "parlour.web")
GATEWAY_CONTRACT = "parlour.gateway.v1"


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    source_root: str
    target_root: str
    line: int

    def __str__(self) -> str:
        return f"{self.source} ({self.source_root}) -> {self.target} ({self.target_root}) " \
               f"line {self.line}"


def modules(base: Path) -> dict[str, tuple[str, Path]]:
    """Module name -> (root, file) of every hand-written module (tests left out)."""
    found = {}
    for root in ROOTS:
        for path in sorted((base / root / "parlour").rglob("*.py")):
            rel = path.relative_to(base / root)
            if "tests" in rel.parts or "_pb2" in path.name:
                continue
            parts = list(rel.with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = (root, path)
    return found


@functools.cache
def root_of(base: Path, name: str) -> tuple[str, str] | None:
    """(root, module or package) that `name` (or its longest importable prefix) is in."""
    parts = name.split(".")
    while parts and parts[0] == "parlour":
        rel = Path(*parts)
        for root in ROOTS:
            where = base / root / rel
            if where.with_suffix(".py").is_file() or where.is_dir():
                return root, ".".join(parts)
        parts.pop()
    return None


def _imported(node: ast.AST, module: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        package = module.split(".")[: len(module.split(".")) - node.level + is_package]
        base = ".".join(package + ([base] if base else []))
    return [f"{base}.{a.name}" for a in node.names]


def graph(base: Path) -> list[Edge]:
    """Every import edge between parlour modules (one per import line and target)."""
    edges = set()
    for module, (root, path) in modules(base).items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            for name in _imported(node, module, path.name == "__init__.py"):
                target = root_of(base, name)
                if target:
                    edges.add(Edge(module, target[1], root, target[0], node.lineno))
    return sorted(edges, key=str)


def upward_edges(edges: list[Edge]) -> list[Edge]:
    """Edges against the layering: into a higher root, or from a client package into the
    gateway root's code other than its generated contract."""
    return [e for e in edges
            if ROOTS.index(e.target_root) > ROOTS.index(e.source_root)
            or (package(e.source) in CLIENT_PACKAGES and e.target_root == "gateway"
                and not (e.target + ".").startswith(GATEWAY_CONTRACT + "."))]


def package(module: str) -> str:
    """The package a module belongs to: parlour.X, parlour.games.X for a game, and a generated
    contract (parlour.X.v1, parlour.games.X.v1) its own."""
    parts = module.split(".")
    size = 3 if parts[1:2] == ["games"] else 2
    return ".".join(parts[: size + (parts[size:size + 1] == ["v1"])])


def package_cycle(edges: list[Edge]) -> list[str] | None:
    """A cycle of imports between packages, or None."""
    sorter = graphlib.TopologicalSorter()
    for e in edges:
        source, target = package(e.source), package(e.target)
        if source != target:
            sorter.add(source, target)
    try:
        sorter.prepare()
    except graphlib.CycleError as error:
        return error.args[1]
    return None
