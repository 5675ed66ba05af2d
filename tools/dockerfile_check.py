"""Run deploy/Dockerfile's steps without a container engine, then start what it installed.

    python tools/dockerfile_check.py [--keep DIR]

Every stage shares one scratch root standing in for `/` (so the build stage's
virtual environment keeps its paths when the runtime stage copies it). Each
COPY copies from the build context (the repository less what .dockerignore
leaves out, by Docker's rules), each RUN runs under /bin/sh with the stage's
ENV, absolute paths in ENV, WORKDIR and COPY placed under the scratch root. To
keep that faithful, a RUN line may name paths only through ENV variables.

Then the image's contract is checked: a pinned base, a numeric non-root USER,
an ENTRYPOINT, nothing of the build tools or tests among what the runtime
stage copied, and every server role (`parlour serve-rules <game>` for every
registered game, `parlour serve-gateway`) starting from the installed
environment alone, reaching SERVING against a real Redis and draining on
SIGTERM (each logging its drain). A package missing from `parlour[server]` fails here.
It prints the build context's size and what the runtime stage adds to the base image.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
PINNED = re.compile(r"(@sha256:[0-9a-f]{64}|:\d+\.\d+\.\d+[\w.-]*)$")
FORBIDDEN_IN_RUNTIME = ("grpc_tools", "pytest", "_pytest", "hypothesis", "ruff", "pyinstrument")


@dataclass
class Instruction:
    """One Dockerfile instruction: keyword and its (continuation-joined) argument text."""

    keyword: str
    text: str


@dataclass
class Stage:
    """A FROM … AS name block and what it declared."""

    base: str
    name: str
    instructions: list[Instruction] = field(default_factory=list)


def parse(text: str) -> tuple[dict[str, str], list[Stage]]:
    """Global ARG defaults and the stages, in order."""
    lines: list[str] = []
    pending = ""
    for raw in text.splitlines():
        stripped = raw.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        lines.append(pending + stripped)
        pending = ""
    args: dict[str, str] = {}
    stages: list[Stage] = []
    for line in lines:
        keyword, _, rest = line.partition(" ")
        keyword = keyword.upper()
        rest = rest.strip()
        if keyword == "FROM":
            words = rest.split()
            base = expand(words[0], args)
            name = words[2] if len(words) == 3 and words[1].upper() == "AS" else str(len(stages))
            stages.append(Stage(base, name))
        elif keyword == "ARG" and not stages:
            key, _, value = rest.partition("=")
            args[key] = value
        elif stages:
            stages[-1].instructions.append(Instruction(keyword, rest))
        else:
            raise ValueError(f"{keyword} before the first FROM")
    return args, stages


def expand(text: str, env: dict[str, str]) -> str:
    """$NAME and ${NAME} from `env` (unknown names expand to nothing, as in Docker)."""
    return re.sub(r"\$(?:\{(\w+)\}|(\w+))", lambda m: env.get(m.group(1) or m.group(2), ""), text)


def env_pairs(text: str) -> list[tuple[str, str]]:
    """ENV a=1 b="two words" -> [(a, 1), (b, two words)]."""
    pairs = []
    for word in shlex.split(text):
        key, sep, value = word.partition("=")
        if not sep:
            raise ValueError(f"ENV {text!r}: use the key=value form")
        pairs.append((key, value))
    return pairs


def _pattern(text: str) -> re.Pattern:
    """A .dockerignore pattern (Go filepath.Match, plus `**` for any number of folders)."""
    parts = re.split(r"(\*\*/?|\*|\?|\[[^\]]*\])", text.strip("/"))
    regex = ""
    for part in parts:
        if part.startswith("**"):
            regex += "(.*/)?" if part.endswith("/") else ".*"
        elif part == "*":
            regex += "[^/]*"
        elif part == "?":
            regex += "[^/]"
        elif part.startswith("["):
            regex += part.replace("[^", "[!").replace("[!", "[^")
        else:
            regex += re.escape(part)
    return re.compile(regex + "$")


class DockerIgnore:
    """The rules of a .dockerignore: the last pattern matching a path or one of its folders
    decides; `!` lets a path back in."""

    def __init__(self, text: str) -> None:
        self.rules: list[tuple[bool, re.Pattern, str]] = []
        for line in text.splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                keep = line.startswith("!")
                literal = os.path.normpath(line.removeprefix("!")).lstrip("/")
                self.rules.append((keep, _pattern(literal), literal))

    @classmethod
    def of(cls, context: Path) -> DockerIgnore:
        file = context / ".dockerignore"
        return cls(file.read_text() if file.exists() else "")

    def ignored(self, rel: str) -> bool:
        """Whether the context path `rel` (posix, relative) is left out."""
        prefixes = [rel] + ["/".join(rel.split("/")[:i]) for i in range(1, rel.count("/") + 1)]
        out = False
        for keep, pattern, _ in self.rules:
            if any(pattern.match(p) for p in prefixes):
                out = not keep
        return out

    def may_let_in_below(self, rel: str) -> bool:
        """Whether some `!` rule could let back in a path under the folder `rel`."""
        return any(keep and literal.startswith(f"{rel}/") for keep, _, literal in self.rules)

    def files(self, context: Path) -> list[Path]:
        """Every file of the build context."""
        found = []
        for folder, dirs, names in os.walk(context):
            base = Path(folder).relative_to(context).as_posix()
            base = "" if base == "." else f"{base}/"
            dirs[:] = [d for d in dirs if not self.ignored(base + d)
                       or self.may_let_in_below(base + d)]
            found += [Path(folder) / n for n in names if not self.ignored(base + n)]
        return found


def megabytes(paths: list[Path]) -> float:
    """The size of these files in MB (10^6 bytes), symlinks not followed."""
    return sum(p.lstat().st_size for p in paths) / 1e6


class Builder:
    """Runs a Dockerfile's stages in a scratch root."""

    def __init__(self, scratch: Path, context: Path = ROOT) -> None:
        self.scratch = scratch
        self.context = context
        self.shim = scratch / ".shim"
        self.shim.mkdir(parents=True, exist_ok=True)
        (self.shim / "python").symlink_to(sys.executable)
        self.copied: dict[str, list[Path]] = {}
        self.envs: dict[str, dict[str, str]] = {}
        self.ignore = DockerIgnore.of(context)

    def place(self, path: str) -> str:
        """An absolute image path under the scratch root; other values unchanged."""
        parts = path.split(":")
        return ":".join(str(self.scratch) + p if p.startswith("/") else p for p in parts)

    def host_env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
        env["PATH"] = f"{self.shim}:{env.get('PATH', '/usr/bin:/bin')}"
        return env

    def run_stage(self, stage: Stage) -> None:
        env = self.host_env()
        workdir = self.scratch
        copied: list[Path] = []
        for item in stage.instructions:
            if item.keyword == "ENV":
                for key, value in env_pairs(item.text):
                    env[key] = expand(self.place(value), env)
            elif item.keyword == "WORKDIR":
                workdir = Path(self.place(expand(item.text, env)))
                workdir.mkdir(parents=True, exist_ok=True)
            elif item.keyword == "COPY":
                copied += self.copy(shlex.split(expand(item.text, env)), workdir)
            elif item.keyword == "RUN":
                if re.search(r"(^|[\s\"'=])/", item.text):
                    raise ValueError(f"RUN names a path, not an ENV variable: {item.text}")
                subprocess.run(["/bin/sh", "-c", item.text], cwd=workdir, env=env, check=True)
        self.copied[stage.name] = copied
        self.envs[stage.name] = env

    def copy(self, words: list[str], workdir: Path) -> list[Path]:
        flags = [w for w in words if w.startswith("--")]
        *sources, dest = [w for w in words if not w.startswith("--")]
        target = Path(self.place(dest)) if dest.startswith("/") else workdir / dest
        from_stage = next((f.split("=", 1)[1] for f in flags if f.startswith("--from=")), None)
        placed = []
        for source in sources:
            if from_stage is not None:
                origin = Path(self.place(source))
                if origin.resolve() != target.resolve():
                    raise ValueError("COPY --from must keep the path (venvs are not relocatable)")
                placed.append(target)
                continue
            origin = self.context / source
            rel = os.path.normpath(source)
            if self.ignore.ignored(rel) and not (
                origin.is_dir() and self.ignore.may_let_in_below(rel)
            ):
                raise ValueError(f"COPY {source}: not in the build context (.dockerignore)")
            into = target
            if origin.is_file() and (len(sources) > 1 or dest.endswith("/")):
                into = target / origin.name
            into.parent.mkdir(parents=True, exist_ok=True)
            if origin.is_dir():
                for file in self.ignore.files(self.context):
                    if file.is_relative_to(origin):
                        placed_file = into / file.relative_to(origin)
                        placed_file.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copy2(file, placed_file)
            else:
                shutil.copy2(origin, into)
            placed.append(into)
        return placed


def check_contract(stages: list[Stage]) -> dict[str, list[str]]:
    """The final stage's USER, ENTRYPOINT and CMD; raises on a broken rule."""
    for stage in stages:
        if not PINNED.search(stage.base):
            raise ValueError(f"stage {stage.name}: base {stage.base!r} is not pinned")
    final = stages[-1]
    found = {i.keyword: i.text for i in final.instructions}
    user = found.get("USER", "")
    if not re.fullmatch(r"[1-9]\d*(:[1-9]\d*)?", user):
        raise ValueError(f"runtime USER must be a numeric non-root uid[:gid], not {user!r}")
    if "ENTRYPOINT" not in found:
        raise ValueError("runtime stage has no ENTRYPOINT")
    return {k: json.loads(found[k]) for k in ("ENTRYPOINT", "CMD") if k in found} | {"USER": [user]}


def runtime_files(paths: list[Path]) -> list[str]:
    """Every file the runtime stage copied in, relative to the scratch root."""
    files = []
    for path in paths:
        files += [str(p) for p in (path.rglob("*") if path.is_dir() else [path]) if p.is_file()]
    return files


def check_runtime_content(files: list[str]) -> None:
    """No build tools, test runners or test folders in the runtime stage."""
    bad = [f for f in files if any(f"/site-packages/{n}/" in f for n in FORBIDDEN_IN_RUNTIME)]
    bad += [f for f in files if "/parlour/games/" in f and "/tests/" in f]
    if bad:
        raise ValueError(f"the runtime stage carries build or test files, e.g. {bad[:5]}")


def start_roles(env: dict[str, str], entrypoint: list[str], redis_url: str) -> list[str]:
    """Start every server role from the runtime environment; returns what reached SERVING."""
    from parlour.engine.registry import game_modules
    from parlour.launcher import Process, wait_serving
    from parlour.store.server import free_port

    env = dict(env, PARLOUR_REDIS_URL=redis_url, PARLOUR_METRICS_ADDR="127.0.0.1")
    env["PATH"] = ":".join(p for p in env["PATH"].split(":") if ".shim" not in p)
    started: list[tuple[Process, int]] = []
    cwd = tempfile.mkdtemp(prefix="parlour-image-cwd-")

    def spawn(name: str, argv: list[str], extra: dict[str, str]) -> Process:
        port, metrics = free_port(), free_port()
        child = dict(env, **extra, PARLOUR_ADDRESS=f"127.0.0.1:{port}")
        child["PARLOUR_METRICS_PORT"] = str(metrics)
        binary = shutil.which(argv[0], path=child["PATH"])
        if binary is None:
            raise ValueError(f"entry point {argv[0]!r} is not installed in the runtime stage")
        popen = subprocess.Popen(
            [binary, *argv[1:]],
            env=child,
            cwd=cwd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        proc = Process(name, port, popen)
        started.append((proc, metrics))
        return proc

    try:
        routes = []
        for game in game_modules():
            proc = spawn(f"rules:{game}", [*entrypoint, "serve-rules", game], {})
            routes.append(f"{game}={proc.address}")
        spawn("gateway", [*entrypoint, "serve-gateway"], {"PARLOUR_RULES": ";".join(routes)})
        for proc, metrics in started:
            try:
                wait_serving(proc)
            except RuntimeError as error:
                err = proc.popen.stderr.read().decode() if proc.popen.poll() is not None else ""
                raise ValueError(f"{proc.name} did not start: {error}\n{err[-2000:]}") from None
            with urllib.request.urlopen(f"http://127.0.0.1:{metrics}/metrics", timeout=5) as r:
                if b"parlour_" not in r.read():
                    raise ValueError(f"{proc.name} serves no parlour metrics")
            probe = subprocess.run(
                [str(Path(binary_dir(env)) / "python"), "-m", "parlour.rpc.probe"],
                env=dict(env, PARLOUR_ADDRESS=f"0.0.0.0:{proc.port}"),
                cwd=cwd,
            )
            if probe.returncode != 0:
                raise ValueError(f"the container healthcheck probe fails on {proc.name}")
        for proc, _ in reversed(started):
            proc.stop()
            if proc.popen.returncode != 0:
                raise ValueError(f"{proc.name} exited {proc.popen.returncode} on SIGTERM")
            logged = [json.loads(line) for line in proc.popen.stderr.read().splitlines()]
            if not any(entry.get("msg") == "draining" for entry in logged):
                raise ValueError(f"{proc.name} logged no drain line on SIGTERM")
        return [proc.name for proc, _ in started]
    finally:
        for proc, _ in started:
            proc.stop()
            if proc.popen.stderr:
                proc.popen.stderr.close()
        shutil.rmtree(cwd, ignore_errors=True)


def binary_dir(env: dict[str, str]) -> str:
    """The first PATH entry: the runtime stage's virtual environment's bin."""
    return env["PATH"].split(":")[0]


def build(scratch: Path, dockerfile: Path = DOCKERFILE) -> tuple[Builder, list[Stage], dict]:
    """Run every stage; returns the builder, the stages and the runtime contract."""
    args, stages = parse(dockerfile.read_text())
    contract = check_contract(stages)
    builder = Builder(scratch)
    for stage in stages:
        builder.run_stage(stage)
    check_runtime_content(runtime_files(builder.copied[stages[-1].name]))
    return builder, stages, contract


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", help="build in this directory and leave it")
    options = parser.parse_args()
    scratch = Path(options.keep or tempfile.mkdtemp(prefix="parlour-image-"))
    from parlour.store.server import EmbeddedRedis

    try:
        builder, stages, contract = build(scratch)
        with EmbeddedRedis() as redis:
            roles = start_roles(builder.envs[stages[-1].name], contract["ENTRYPOINT"], redis.url)
        print(f"image steps ran; roles serving from the runtime stage: {', '.join(roles)}")
        context = megabytes(DockerIgnore.of(ROOT).files(ROOT))
        runtime = megabytes([Path(f) for f in runtime_files(builder.copied[stages[-1].name])])
        print(f"build context {context:.1f} MB (.dockerignore applied); the runtime stage adds "
              f"{runtime:.1f} MB to {stages[-1].base}")
        return 0
    except (ValueError, subprocess.CalledProcessError) as error:
        print(f"dockerfile check failed: {error}", file=sys.stderr)
        return 1
    finally:
        if not options.keep:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
