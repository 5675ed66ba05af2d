"""Issue 10 item 1 (the image) and item 8 (install extras): deploy/Dockerfile's steps run in a
clean directory, every server role starts from what the runtime stage holds, and each extra
installs what it promises and nothing more."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from parlour.engine.registry import games, playable_games

ROOT = Path(__file__).resolve().parent.parent
# tools/dockerfile_check.py loaded by path: tools/ on sys.path would let tools/buf.py hide the
# buf package (buf.validate) from every test collected after this one
_CHECK = ROOT / "tools" / "dockerfile_check.py"
_spec = importlib.util.spec_from_file_location("dockerfile_check", _CHECK)
dockerfile_check = sys.modules["dockerfile_check"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(dockerfile_check)

pytestmark = pytest.mark.xdist_group("image")


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    """The Dockerfile's stages, run once for this module."""
    scratch = tmp_path_factory.mktemp("image")
    builder, stages, contract = dockerfile_check.build(scratch)
    return scratch, builder, stages, contract


def test_runtime_stage_serves_every_role(image, redis_url):
    """Item 1: one image for every role; each reaches SERVING, exposes metrics, passes the
    healthcheck probe and exits 0 on SIGTERM, using only the runtime stage's packages."""
    _, builder, stages, contract = image
    env = builder.envs[stages[-1].name]
    roles = dockerfile_check.start_roles(env, contract["ENTRYPOINT"], redis_url)
    assert roles == [f"rules:{g}" for g in sorted(games())] + ["gateway"]


def test_runtime_stage_has_no_build_tools_or_tests(image):
    """Item 1: generated code is made in the build stage; the runtime stage has neither the
    code generator nor test runners nor the games' tests, and runs as a numeric non-root user."""
    scratch, builder, stages, contract = image
    files = dockerfile_check.runtime_files(builder.copied[stages[-1].name])
    assert any(f.endswith("parlour/rules/v1/rules_pb2.py") for f in files)
    assert not any("/site-packages/grpc_tools/" in f for f in files)
    assert not any(f"/site-packages/{tool}/" in f for f in files for tool in ("pip", "hatchling"))
    assert not any("/games/isayholmes/tests/" in f for f in files)
    assert int(contract["USER"][0].split(":")[0]) > 0
    assert len(stages) >= 2 and stages[0].base == stages[-1].base


def test_contract_refuses_unpinned_base_and_root_user(tmp_path):
    """Item 1: the check itself fails on a floating tag or a non-numeric user."""
    unpinned = 'FROM python:3.11-slim\nUSER 10001\nENTRYPOINT ["parlour"]\n'
    with pytest.raises(ValueError, match="not pinned"):
        dockerfile_check.check_contract(dockerfile_check.parse(unpinned)[1])
    named = 'FROM python:3.11.11-slim\nUSER nobody\nENTRYPOINT ["parlour"]\n'
    with pytest.raises(ValueError, match="numeric non-root"):
        dockerfile_check.check_contract(dockerfile_check.parse(named)[1])


@pytest.fixture(scope="module")
def wheel(image):
    """parlour's wheel, built once from the build stage's sources (generated code included)."""
    scratch = image[0]
    out = scratch / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), scratch / "src"],
        check=True,
    )
    return scratch, next(out.glob("parlour-*.whl"))


def _venv_with(scratch: Path, name: str, spec: str) -> Path:
    venv = scratch / name
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", spec], check=True)
    return venv / "bin"


def _imports(bin_dir: Path, module: str) -> bool:
    code = f"import {module}"
    return subprocess.run([str(bin_dir / "python"), "-c", code], cwd=bin_dir).returncode == 0


def test_plain_install_is_engine_and_games_only(wheel):
    """Item 8: `pip install parlour` gives the engine and games (a simulation runs) without
    gRPC or Redis."""
    scratch, built = wheel
    bin_dir = _venv_with(scratch, "plain", str(built))
    game = playable_games()[0].name
    out = subprocess.run(
        [str(bin_dir / "parlour"), "simulate", game, "--matches", "2"],
        capture_output=True,
        text=True,
        check=True,
        cwd=bin_dir,
    )
    assert out.stdout.strip()
    assert not _imports(bin_dir, "grpc")
    assert not _imports(bin_dir, "redis")


def test_client_extra_is_the_sdk_without_the_server_stack(wheel):
    """Item 8: `parlour[client]` imports the SDK and the terminal client; Redis and the server
    stack stay out."""
    scratch, built = wheel
    bin_dir = _venv_with(scratch, "client", f"parlour[client] @ {built.as_uri()}")
    assert _imports(bin_dir, "parlour.client")
    assert _imports(bin_dir, "parlour.client.terminal")
    assert not _imports(bin_dir, "redis")
    assert not _imports(bin_dir, "grpc_health")


def test_compose_builds_once_and_checks_every_role():
    """Item 1: compose builds the image in one service; every parlour role runs that image
    with a healthcheck, and every real game has a rules service."""
    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    services = compose["services"]
    built = [name for name, s in services.items() if "build" in s]
    assert built == ["image"]
    image = services["image"]["image"]
    for name, service in services.items():
        if service.get("image") == image and name != "image":
            assert service["healthcheck"]["test"][-1] == "parlour.rpc.probe", name
            assert "build" not in service
    assert "healthcheck" in services["redis"]
    routes = " ".join(services["gateway"]["environment"]["PARLOUR_RULES"].split())
    for game in playable_games():
        assert services[game.name]["command"] == ["serve-rules", game.name]
        assert f"{game.name}={game.name}:50051" in routes


def test_compose_valkey_never_evicts():
    """Issue 26 (hosts): compose's Valkey runs with `maxmemory-policy noeviction`, as
    deploy/README.md ("Sizing Redis") requires of every Redis parlour uses."""
    command = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())["services"]["redis"]
    words = command["command"]
    assert words[words.index("--maxmemory-policy") + 1] == "noeviction"


#: What the runtime stage may add to the base image (measured 121 MB: grpcio, cryptography,
#: uvloop, protovalidate, redis, pydantic, the web relay and parlour itself).
RUNTIME_MB_CEILING = 150


def test_runtime_stage_stays_small(image):
    """Issue 26 (hosts): the runtime stage adds the installed venv alone, under a ceiling."""
    _, builder, stages, _ = image
    files = [Path(f) for f in dockerfile_check.runtime_files(builder.copied[stages[-1].name])]
    assert 50 < dockerfile_check.megabytes(files) < RUNTIME_MB_CEILING


def test_dockerignore_keeps_the_context_to_the_sources():
    """Issue 26 (hosts): the build context has the sources the wheel is built from and none
    of .venv, node_modules, caches, generated code or the games' tests."""
    files = [p.relative_to(ROOT).as_posix()
             for p in dockerfile_check.DockerIgnore.of(ROOT).files(ROOT)]
    for needed in ("pyproject.toml", "hatch_build.py", "tools/validate_proto.py",
                   "protos/parlour/gateway/v1/gateway.proto", "services/parlour/cli.py",
                   "gateway/parlour/gateway/server.py", "clients/parlour/client/client.py"):
        assert needed in files
    assert "clients/web/dist/index.html" in files  # the wheel ships the browser client
    left_out = (".venv/", "node_modules/", "__pycache__/", "_pb2.py", ".git/", "clients/web/src")
    assert not [f for f in files if any(part in f for part in left_out)]
    assert not [f for f in files if "/games/" in f and "/tests/" in f]
    assert not [f for f in files if f.startswith(("tests/", "docs/", "bench/"))]
    sizes = dockerfile_check.megabytes([ROOT / f for f in files])
    assert sizes < 10


def test_dockerignore_rules_are_dockers():
    """Issue 26 (hosts): the last matching rule decides, a rule on a folder covers what is in
    it, `!` lets a path back in, `*` stays in one folder and `**` spans any number."""
    rules = dockerfile_check.DockerIgnore("*\n!src\n**/cache\nsrc/*.tmp\n!src/keep.tmp\n")
    assert rules.ignored("README.md") and rules.ignored("docs/a.md")
    assert not rules.ignored("src/a.py") and not rules.ignored("src/deep/b.py")
    assert rules.ignored("src/deep/cache/x") and rules.ignored("src/cache")
    assert rules.ignored("src/x.tmp") and not rules.ignored("src/deep/x.tmp")
    assert not rules.ignored("src/keep.tmp")
    assert rules.may_let_in_below("src") and not rules.may_let_in_below("docs")
    assert rules.ignored("other/src/a.py")


def test_copy_of_what_the_context_leaves_out_fails(tmp_path):
    """Issue 26 (hosts): as `docker build` would, a COPY of an ignored path is an error."""
    (tmp_path / ".dockerignore").write_text("*\n!kept\n")
    (tmp_path / "kept").write_text("x")
    (tmp_path / "dropped").write_text("y")
    builder = dockerfile_check.Builder(tmp_path / "scratch", context=tmp_path)
    assert builder.copy(["kept", "/app/"], tmp_path / "scratch")
    with pytest.raises(ValueError, match="not in the build context"):
        builder.copy(["dropped", "/app/"], tmp_path / "scratch")
