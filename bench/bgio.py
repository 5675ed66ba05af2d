"""The boardgame.io peer (issue 18 item 1, issue 31 item 1): its server and load clients
as Node processes.

bench/peer/ pins boardgame.io 0.50.2 and node-persist 3.1.3, which its durable FlatFile
storage needs (package.json + package-lock.json, installed with `npm ci` on first use).
The server keeps matches in memory or in FlatFile files (STORAGES) and talks socket.io;
the game is a counter, one move per turn, 22 moves a match (as many as a tinycards bench
match). The load client (bench/peer/load.js) has the shape of bench/loadgen.py:
`concurrency` slots playing matches one after another, two players per match, one move in
flight, latency = move -> the other player's client sees the new state. bench/peer/pace.js
is the shape of bench/sizing.py's live matches: every seat connected, one move per match
every 1-5 s.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.stats import CpuMeter, rss_bytes

PEER = Path(__file__).resolve().parent / "peer"
VERSION = "0.50.2"
#: Packages bench/peer/node_modules must hold at these versions (package-lock.json).
PINNED = {"boardgame.io": VERSION, "node-persist": "3.1.3"}
#: The server's storages: the default in-memory one and the durable FlatFile.
STORAGES = ("memory", "flatfile")
ENV = {**os.environ, "NODE_ENV": "production"}  # boardgame.io logs every move otherwise


def ensure_installed() -> None:
    """`npm ci` the pinned boardgame.io into bench/peer/node_modules unless it is there."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        raise RuntimeError("the boardgame.io peer needs node and npm (apt-get install nodejs npm)")
    if all(installed(name) == version for name, version in PINNED.items()):
        return
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=PEER, check=True)


def installed(package: str) -> str | None:
    """The version of `package` in bench/peer/node_modules, if any."""
    path = PEER / "node_modules" / package / "package.json"
    return json.loads(path.read_text())["version"] if path.exists() else None


def parse_result(line: str) -> dict:
    """The load client's last stdout line: its counts and delivery percentiles."""
    raw = json.loads(line)
    missing = {"moves_in_window", "moves_per_s", "moves_total", "delivery"} - raw.keys()
    if missing:
        raise ValueError(f"peer load client output lacks {sorted(missing)}: {line[:200]}")
    return {
        "concurrency": raw["concurrency"],
        "window_s": raw["window_s"],
        "actions_in_window": raw["moves_in_window"],
        "actions_per_s": round(raw["moves_per_s"], 1),
        "actions_total": raw["moves_total"],
        "matches_finished": raw["matches_finished"],
        "delivery": {
            k: math.nan if raw["delivery"][k] is None else raw["delivery"][k]
            for k in ("n", "p50_ms", "p99_ms", "max_ms")
        },  # none in the window: NaN (FlatFile can take the whole quick window for one move)
    }


@dataclass
class PeerServer:
    """A running boardgame.io server process."""

    popen: subprocess.Popen
    port: int
    storage: str = "memory"
    directory: Path | None = None

    @classmethod
    def start(cls, storage: str = "memory") -> PeerServer:
        """A server with `storage` (STORAGES); FlatFile writes to a fresh temporary folder."""
        if storage not in STORAGES:
            raise ValueError(f"unknown peer storage {storage!r}")
        directory = (
            Path(tempfile.mkdtemp(prefix="bgio-flatfile-")) if storage == "flatfile" else None
        )
        argv = ["node", "server.js", "0", storage] + ([str(directory)] if directory else [])
        popen = subprocess.Popen(argv, cwd=PEER, env=ENV, stdout=subprocess.PIPE, text=True)
        line = popen.stdout.readline()
        if not line:
            popen.kill()
            popen.wait()
            popen.stdout.close()
            raise RuntimeError("the boardgame.io server exited before listening")
        return cls(popen, json.loads(line)["port"], storage, directory)

    def stop(self) -> None:
        self.popen.terminate()
        try:
            self.popen.wait(10)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()
        self.popen.stdout.close()
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> PeerServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


async def run_level(server: PeerServer, level: int, warmup: float, duration: float) -> dict:
    """One level: connect `level` slots, then time them; CPU of the server and of the client."""
    return await _run(server, "load.js", level, warmup, duration)


async def run_paced(
    server: PeerServer, matches: int, pace: tuple[float, float], duration: float
) -> dict:
    """`matches` live matches at `pace` for `duration` s (bench/peer/pace.js), with the
    server's resident memory per connection (2 per match) and CPU per live match second."""
    before = rss_bytes(server.popen.pid)
    result = await _run(server, "pace.js", matches, *pace, duration, rss_before=before)
    streams = matches * 2
    cores = result["cpu"]["peer_server"]["cores"]
    result.update(
        matches=matches,
        streams=streams,
        pace_s=list(pace),
        rss_bytes_per_stream=round((result.pop("rss_connected") - before) / streams),
        cpu_us_per_live_match_s=round(cores * 1e6 / matches, 1) if cores else None,
        live_matches_per_core=round(matches / cores) if cores else None,
    )
    return result


async def _run(server: PeerServer, script: str, count: int, *args: float, rss_before=None):
    """Start a load client script, wait for it to be ready, time it; its result and CPU."""
    argv = [str(server.port), str(count), *(str(a) for a in args)]
    client = await asyncio.create_subprocess_exec(
        "node", script, *argv,
        cwd=PEER, env=ENV, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        ready = await client.stdout.readline()
        if not json.loads(ready or b"{}").get("ready"):
            raise RuntimeError(f"the boardgame.io load client ({script}) did not get ready")
        connected = rss_bytes(server.popen.pid) if rss_before is not None else None
        meter = CpuMeter({"peer_server": server.popen.pid, "peer_client": client.pid}).begin()
        began = time.perf_counter()
        client.stdin.write(b"go\n")
        await client.stdin.drain()
        line = await client.stdout.readline()
        wall = time.perf_counter() - began
        result = parse_result(line.decode())
        result["cpu"] = meter.end(wall, result["actions_total"])
        result["storage"] = server.storage
        if connected is not None:
            result["rss_connected"] = connected
        await client.wait()
        return result
    finally:
        if client.returncode is None:
            client.kill()
            await client.wait()
