"""Run the buf CLI (from the npm registry, installed under .venv) on the contracts.

`python tools/buf.py lint` and `python tools/buf.py breaking` (against main).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
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


def copy_deps() -> None:
    """google/rpc/*.proto from the installed googleapis-common-protos, and
    buf/validate/validate.proto printed from the installed protovalidate."""
    import google.rpc
    import validate_proto

    target = DEPS / "google" / "rpc"
    target.mkdir(parents=True, exist_ok=True)
    for source in Path(next(iter(google.rpc.__path__))).glob("*.proto"):
        shutil.copy(source, target / source.name)
    validate = DEPS / validate_proto.NAME
    validate.parent.mkdir(parents=True, exist_ok=True)
    validate.write_text(validate_proto.source())


def main() -> int:
    command = sys.argv[1:] or ["lint"]
    copy_deps()
    args = [str(buf_binary()), *command]
    if command[0] == "breaking" and len(command) == 1:
        args += ["--against", ".git#branch=main"]
    return subprocess.run(args, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
