"""Run the buf CLI (from the npm registry, installed under .venv) on the contracts.

`python tools/buf.py lint`, and `python tools/buf.py breaking [REF]`: the working tree's
protos against those of git REF (default: where this branch left main).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERSION = "1.75.0"
PREFIX = ROOT / ".venv" / "buf"
DEPS = ROOT / ".venv" / "protodeps"


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


def copy_deps(root: Path = ROOT) -> None:
    """google/rpc/*.proto from the installed googleapis-common-protos, and
    buf/validate/validate.proto printed from the installed protovalidate, into
    root/.venv/protodeps."""
    import google.rpc
    import validate_proto

    target = root / DEPS.relative_to(ROOT) / "google" / "rpc"
    target.mkdir(parents=True, exist_ok=True)
    for source in Path(next(iter(google.rpc.__path__))).glob("*.proto"):
        shutil.copy(source, target / source.name)
    validate = root / DEPS.relative_to(ROOT) / validate_proto.NAME
    validate.parent.mkdir(parents=True, exist_ok=True)
    validate.write_text(validate_proto.source())


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
    """buf.yaml and protos/ as they are at git `ref`, with the shared deps beside them."""
    archive = subprocess.run(
        ["git", "archive", ref, "buf.yaml", "protos"], cwd=ROOT, capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    copy_deps(into)


def breaking(against: Path | str, tree: Path = ROOT) -> int:
    """buf breaking of the workspace at `tree` against a workspace directory or a git ref."""
    if isinstance(against, str):
        with tempfile.TemporaryDirectory(prefix="parlour-buf-") as tmp:
            export_ref(against, Path(tmp))
            return breaking(Path(tmp), tree)
    args = [str(buf_binary()), "breaking", "--against", str(against)]
    return subprocess.run(args, cwd=tree).returncode


def main() -> int:
    command = sys.argv[1:] or ["lint"]
    copy_deps()
    if command[0] == "breaking":
        return breaking(command[1] if len(command) > 1 else default_against())
    return subprocess.run([str(buf_binary()), *command], cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
