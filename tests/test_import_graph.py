"""Issue 46 item 4: the three source roots depend downward only (services/ < gateway/ <
clients/, docs/design.md "Layers"), no packages import each other in a loop, and the CLI
finds its commands instead of importing them."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# tools/import_graph.py loaded by path: tools/ on sys.path would let tools/buf.py hide buf
_spec = importlib.util.spec_from_file_location("import_graph", REPO / "tools" / "import_graph.py")
import_graph = sys.modules["import_graph"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(import_graph)
ROOTS, graph = import_graph.ROOTS, import_graph.graph
package_cycle, upward_edges = import_graph.package_cycle, import_graph.upward_edges


@pytest.fixture(scope="module")
def edges():
    return graph(REPO)


def test_the_roots_depend_downward_only(edges):
    """No module imports a higher root (function-local imports count), and the client
    packages use only the gateway's generated contract."""
    assert any(e.source == "parlour.cli" for e in edges)  # the graph sees the CLI
    assert [str(e) for e in upward_edges(edges)] == []


def test_no_import_cycle_between_packages(edges):
    assert package_cycle(edges) is None


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for root in ROOTS:
        (tmp_path / root / "parlour").mkdir(parents=True)
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return tmp_path


def test_the_check_sees_local_imports_cycles_and_the_gateway_code(tmp_path):
    """A function-local import of a higher root, a client package reaching into the gateway's
    code, and two packages importing each other are each found."""
    base = _tree(tmp_path, {
        "services/parlour/engine/__init__.py": "",
        "services/parlour/engine/run.py": """
            def later():
                from parlour.client import sdk
            """,
        "services/parlour/store/__init__.py": "from parlour.rules import core\n",
        "services/parlour/rules/core.py": "from ..store import keys\n",
        "services/parlour/store/keys.py": "",
        "gateway/parlour/gateway/__init__.py": "",
        "gateway/parlour/gateway/server.py": "",
        "gateway/parlour/gateway/v1/gateway_pb2.py": "",
        "clients/parlour/client/__init__.py": "",
        "clients/parlour/client/sdk.py": """
            from parlour.gateway.v1 import gateway_pb2
            from parlour.gateway import server
            """,
    })
    edges = graph(base)
    assert sorted((e.source, e.target) for e in upward_edges(edges)) == [
        ("parlour.client.sdk", "parlour.gateway.server"),
        ("parlour.engine.run", "parlour.client.sdk"),
    ]
    assert set(package_cycle(edges)) == {"parlour.rules", "parlour.store"}


def test_a_new_command_is_a_new_module(tmp_path):
    """A module added to the parlour.commands namespace in any root is a `parlour` command,
    with no other file changed."""
    command = tmp_path / "parlour" / "commands" / "hello.py"
    command.parent.mkdir(parents=True)
    command.write_text(textwrap.dedent('''
        def add(sub):
            p = sub.add_parser("hello", help="say hello")
            p.add_argument("name")
            p.set_defaults(run=lambda args: print(f"hello {args.name}"), extra="")
        '''))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    run = subprocess.run([sys.executable, "-m", "parlour.cli", "hello", "you"], env=env,
                         capture_output=True, text=True, timeout=120)
    assert (run.returncode, run.stdout) == (0, "hello you\n"), run.stderr
    listed = subprocess.run([sys.executable, "-m", "parlour.cli", "--help"], env=env,
                            capture_output=True, text=True, timeout=120, check=True).stdout
    for name in ("hello", "simulate", "serve-gateway", "play"):  # one of each root's too
        assert name in listed
