"""Issue 26 (embedders): `pip install <clone>` and the sdist build the protobuf code while
the wheel is built, in a clean venv with no grpcio-tools; the README's embedding snippet runs
there, and the engine-only install names the extra a command needs instead of a traceback."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()

pytestmark = pytest.mark.xdist_group("wheel")


def clone_of_the_tree(into: Path) -> Path:
    """The files a clone has (tracked, or new and not ignored): no generated code, no venv."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)
    return into


def venv(path: Path, *install: str) -> Path:
    """A fresh venv with `install` pip-installed; returns its bin folder."""
    subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
    if install:
        subprocess.run([str(path / "bin" / "pip"), "install", "-q", *install], check=True)
    return path / "bin"


def run(bin_dir: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(bin_dir / argv[0]), *argv[1:]], capture_output=True, text=True,
                          cwd=cwd, timeout=120)


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    tree = clone_of_the_tree(tmp_path_factory.mktemp("clone"))
    assert not list(tree.rglob("*_pb2.py"))
    return tree


@pytest.fixture(scope="module")
def engine(clone, tmp_path_factory) -> Path:
    """`pip install <clone>`: the engine and the games, protobuf their only dependency."""
    return venv(tmp_path_factory.mktemp("engine") / "venv", str(clone))


def embedding_snippet() -> str:
    section = README.split("## Embedding the rules", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_clone_installs_without_grpcio_tools_and_the_readme_snippet_runs(engine, tmp_path):
    """The README's embedding snippet, run verbatim by the installed package (from a folder
    with no sources), plays a match to its outcome; neither grpcio-tools nor gRPC is there."""
    (tmp_path / "snippet.py").write_text(embedding_snippet())
    done = run(engine, "python", "snippet.py", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Outcome(" in done.stdout
    for absent in ("grpc_tools", "grpc", "redis"):
        assert run(engine, "python", "-c", f"import {absent}", cwd=tmp_path).returncode != 0
    site = run(engine, "python", "-c", "import parlour.engine, pathlib; print(pathlib.Path("
               "parlour.engine.__file__).parents[1])", cwd=tmp_path).stdout.strip()
    assert (Path(site) / "web" / "dist" / "index.html").exists()  # what `parlour up` serves


def test_engine_only_commands_name_the_extra_they_need(engine, tmp_path):
    """`parlour up` (and `play` without a gateway, `play --gateway`) in an engine-only install:
    one line naming the extra to install, exit status 2, no traceback."""
    cases = [
        (["up"], "server"),
        (["play", "isayholmes", "--bots", "2"], "server"),
        (["play", "isayholmes", "--bots", "2", "--gateway", "127.0.0.1:50051"], "client"),
        (["serve-gateway"], "server"),
    ]
    for argv, extra in cases:
        done = run(engine, "parlour", *argv, cwd=tmp_path)
        assert done.returncode == 2, (argv, done.stderr)
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        assert f"pip install 'parlour[{extra}]'" in done.stderr, done.stderr


def test_describe_reads_the_descriptors_the_wheel_ships(engine, tmp_path):
    """`parlour describe` in an installed wheel (no protos/, no grpcio-tools) prints the
    game's messages with the comments of its .proto."""
    done = run(engine, "parlour", "describe", "tinycards", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "// Cards dealt to each seat at setup (default 2).\n  uint32 hand_size = 1;" in (
        done.stdout
    )
    for message in ("Options", "Action", "Event", "View"):
        assert f"\nmessage {message} {{" in done.stdout


@pytest.mark.slow
def test_sdist_builds_a_wheel_with_the_generated_code(clone, tmp_path):
    """The sdist (hatchling, no grpcio-tools beside it) carries protos/ and the build hook,
    not generated code; the wheel pip builds from it has every game's module, the gateway's
    and the rules service's, and its descriptors for `parlour describe`."""
    builder = venv(tmp_path / "builder", "hatchling")
    subprocess.run([str(builder / "hatchling"), "build", "-t", "sdist", "-d", str(tmp_path)],
                   cwd=clone, check=True, capture_output=True)
    (sdist,) = tmp_path.glob("parlour-*.tar.gz")
    subprocess.run([str(builder / "pip"), "wheel", "-q", "--no-deps", "-w", str(tmp_path),
                    str(sdist)], check=True)
    (wheel,) = tmp_path.glob("parlour-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    games = [p.name for p in (ROOT / "services" / "parlour" / "games").iterdir()
             if (p / "__init__.py").exists()]
    for game in games:
        assert f"parlour/games/{game}/v1/{game}_pb2.py" in names
        assert f"parlour/games/{game}/v1/{game}.binpb" in names
    assert "parlour/gateway/v1/gateway_service_pb2_grpc.py" in names
    assert "parlour/rules/v1/rules_service_pb2_grpc.py" in names
    assert "parlour/web/dist/index.html" in names  # the browser client `parlour up` serves
    assert not [n for n in names if "/tests/" in n]
    metadata = zipfile.ZipFile(wheel).read("parlour-0.1.0.dist-info/METADATA").decode()
    assert re.search(r"Requires-Dist: protobuf>=\d+\.\d+\.\d+\n", metadata)
