"""Run the buf CLI (from the npm registry, installed under .venv) on the contracts.

`python tools/buf.py lint`; `python tools/buf.py breaking [REF]`: the working tree's
protos against those of git REF (default: where this branch left main), minus the
deliberate breaks listed in breaking-accepted.yaml; and
`python tools/buf.py generate [LANGUAGE...]`: buf.gen.yaml, or only the plugins
of those languages (python, ts, go), so `make gen` needs no TypeScript or Go tools.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
VERSION = "1.75.0"
PREFIX = ROOT / ".venv" / "buf"
VALIDATE = Path("third_party") / "protovalidate" / "buf" / "validate" / "validate.proto"
ACCEPTED = "breaking-accepted.yaml"


def buf_binary() -> Path:
    """Install @bufbuild/buf under .venv/buf once."""
    binary = PREFIX / "node_modules" / ".bin" / "buf"
    if not binary.exists():
        npm = shutil.which("npm")
        if npm is None:
            sys.exit("buf needs npm (Node.js) to install @bufbuild/buf")
        subprocess.run(
            [npm, "install", "--silent", "--prefix", str(PREFIX), f"@bufbuild/buf@{VERSION}"],
            check=True,
        )
    return binary


def sibling(name: str):
    """A module of tools/ loaded by path (tools/ stays off sys.path: this file's name would
    shadow protovalidate's `buf` package there)."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).parent / f"{name}.py")
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


def default_against() -> str:
    """The commit this branch started from on main; on main itself (CI's clean clone), the
    commit before HEAD, so the check still compares the newest contracts with older ones."""

    def git(*args: str) -> str:
        found = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
        return found.stdout.strip() if found.returncode == 0 else ""

    base = git("merge-base", "HEAD", "main")
    if base and base != git("rev-parse", "HEAD"):
        return base
    return git("rev-parse", "--verify", "--quiet", "HEAD^") or "HEAD"


def export_ref(ref: str, into: Path) -> None:
    """protos/, third_party/ and the accepted breaks as they are at git `ref`, laid out as
    today's workspace (this buf.yaml). A commit from before the imports were vendored gets
    google/rpc from the installed googleapis-common-protos and buf/validate printed from
    the installed protovalidate."""
    import google.rpc

    listed = subprocess.run(
        ["git", "ls-tree", "--name-only", ref, "protos", "third_party", ACCEPTED],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )
    archive = subprocess.run(
        ["git", "archive", ref, *listed.stdout.split()], cwd=ROOT, capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    shutil.copy(ROOT / "buf.yaml", into / "buf.yaml")
    rpc = into / "third_party" / "googleapis" / "google" / "rpc"
    if not rpc.is_dir():
        rpc.mkdir(parents=True)
        for source in Path(next(iter(google.rpc.__path__))).glob("*.proto"):
            shutil.copy(source, rpc / source.name)
    validate = into / VALIDATE
    if not validate.exists():
        validate.parent.mkdir(parents=True)
        validate.write_text(sibling("validate_proto").source())


def accepted_breaks(tree: Path = ROOT) -> list[dict]:
    """The deliberate breaking changes, each with its rule, file, buf's exact message and
    the reason it was accepted (breaking-accepted.yaml)."""
    listed = tree / ACCEPTED
    if not listed.exists():
        return []
    return yaml.safe_load(listed.read_text())["accepted"] or []


def is_accepted(finding: dict, accepted: list[dict]) -> bool:
    """Whether buf's `finding` is one of the accepted breaks (same rule, file and message)."""
    return any(
        (a["rule"], a["path"], a["message"])
        == (finding.get("type"), finding.get("path"), finding.get("message"))
        for a in accepted
    )


def breaking(against: Path | str, tree: Path = ROOT) -> int:
    """buf breaking of the workspace at `tree` against a workspace directory or a git ref;
    nonzero when buf reports a break that breaking-accepted.yaml (at `tree`) does not list."""
    if isinstance(against, str):
        with tempfile.TemporaryDirectory(prefix="parlour-buf-") as tmp:
            export_ref(against, Path(tmp))
            return breaking(Path(tmp), tree)
    args = [str(buf_binary()), "breaking", "--against", str(against), "--error-format=json"]
    found = subprocess.run(args, cwd=tree, capture_output=True, text=True)
    findings = [json.loads(line) for line in found.stdout.splitlines() if line.strip()]
    if found.returncode != 0 and not findings:
        sys.stderr.write(found.stderr)
        return found.returncode
    accepted = accepted_breaks(tree)
    new = [f for f in findings if not is_accepted(f, accepted)]
    for finding in findings:
        mark = "BREAKING" if finding in new else "accepted"
        print(f"{mark}: {finding['path']}:{finding.get('start_line', 0)}: {finding['message']}")
    return 1 if new else 0


LANGUAGES = {"python": "python", "ts": "protoc-gen-es", "go": "protoc-gen-go"}


def template(languages: list[str]) -> str:
    """buf.gen.yaml as JSON, keeping only the plugins of `languages`."""
    config = yaml.safe_load((ROOT / "buf.gen.yaml").read_text())
    marks = [LANGUAGES[lang] for lang in languages]
    config["plugins"] = [
        p for p in config["plugins"] if any(m in json.dumps(p["local"]) for m in marks)
    ]
    return json.dumps(config)


def main() -> int:
    command = sys.argv[1:] or ["lint"]
    if command[0] == "breaking":
        return breaking(command[1] if len(command) > 1 else default_against())
    args = [str(buf_binary()), *command]
    if command[0] == "generate" and len(command) > 1:
        args = [str(buf_binary()), "generate", "--template", template(command[1:])]
    return subprocess.run(args, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
