"""Build the browser client (run by `make web`): protobuf-es code for the public API and
every game, a strict type check, then one esbuild bundle into dist/ (committed, so serving
and the tests need no Node)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from grpc_tools import protoc

WEB = Path(__file__).resolve().parent
ROOT = WEB.parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import validate_proto  # noqa: E402
from gen_protos import PROTOS, include_paths  # noqa: E402

GEN = WEB / "src" / "gen"
GAMES = ROOT / "services" / "parlour" / "games"
BIN = WEB / "node_modules" / ".bin"


def generate() -> None:
    """TypeScript messages (protobuf-es) for the gateway API and the rules messages; none
    for the games (the page learns their types from ListGames' files)."""
    shutil.rmtree(GEN, ignore_errors=True)
    GEN.mkdir(parents=True)
    protos = [p for p in sorted(PROTOS.rglob("*.proto"))
              if p.name != "rules_service.proto" and "games" not in p.relative_to(PROTOS).parts]
    with tempfile.TemporaryDirectory() as scratch:
        descriptors = Path(scratch) / "validate.binpb"
        descriptors.write_bytes(validate_proto.descriptor_set())
        args = [
            "protoc",
            *(f"-I{p}" for p in include_paths()),
            f"--descriptor_set_in={descriptors}",
            f"--plugin=protoc-gen-es={BIN / 'protoc-gen-es'}",
            f"--es_out={GEN}",
            "--es_opt=target=ts,import_extension=none",
            validate_proto.NAME,
            "google/rpc/status.proto",
            *(str(p) for p in protos),
        ]
        if protoc.main(args) != 0:
            sys.exit("protoc failed")
    boards()
    names()


def boards() -> None:
    """src/gen/boards.ts: every game folder's board.ts (its clickable board), by game name;
    a new game's board needs nothing outside its folder."""
    found = sorted(p.parent.name for p in GAMES.glob("*/board.ts"))
    lines = [f'import {{ board as {g} }} from "../../../../services/parlour/games/{g}/board";'
             for g in found]
    lines.append(f"export const BOARDS = {{ {', '.join(found)} }};")
    (GEN / "boards.ts").write_text("\n".join(lines) + "\n")


def names() -> None:
    """src/gen/names.ts: every game folder's names.json (which View fields hold which
    catalogue ids; the Python SDK reads the same file), by game name."""
    tables = {p.parent.name: json.loads(p.read_text()) for p in sorted(GAMES.glob("*/names.json"))}
    (GEN / "names.ts").write_text(
        "import type { NamingTable } from \"../kit\";\n"
        f"export const NAMES: Record<string, NamingTable> = {json.dumps(tables)};\n"
    )


def bundle() -> None:
    """Type-check src/ (strict), then bundle src/main.ts and its imports as dist/app.js."""
    subprocess.run([str(BIN / "tsc"), "-p", str(WEB)], check=True)
    subprocess.run(
        [str(BIN / "esbuild"), str(WEB / "src" / "main.ts"), "--bundle", "--format=esm",
         "--target=es2022", "--minify", f"--outfile={WEB / 'dist' / 'app.js'}"],
        check=True,
    )


if __name__ == "__main__":
    generate()
    bundle()
