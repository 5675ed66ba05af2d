"""The boardgame.io peer (issue 18 item 1): its server and load client as Node processes.

bench/peer/ pins boardgame.io 0.50.2 (package.json + package-lock.json, installed with
`npm ci` on first use). The server keeps matches in memory and talks socket.io; the game
is a counter, one move per turn, 22 moves a match (as many as a tinycards bench match).
The load client (bench/peer/load.js) has the shape of bench/loadgen.py: `concurrency`
slots playing matches one after another, two players per match, one move in flight,
latency = move -> the other player's client sees the new state.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from bench.stats import CpuMeter

PEER = Path(__file__).resolve().parent / "peer"
VERSION = "0.50.2"
ENV = {**os.environ, "NODE_ENV": "production"}  # boardgame.io logs every move otherwise


def ensure_installed() -> None:
    """`npm ci` the pinned boardgame.io into bench/peer/node_modules unless it is there."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        raise RuntimeError("the boardgame.io peer needs node and npm (apt-get install nodejs npm)")
    installed = PEER / "node_modules" / "boardgame.io" / "package.json"
    if installed.exists() and json.loads(installed.read_text())["version"] == VERSION:
        return
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=PEER, check=True)


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
        "delivery": {k: raw["delivery"][k] for k in ("n", "p50_ms", "p99_ms", "max_ms")},
    }


@dataclass
class PeerServer:
    """A running boardgame.io server process."""

    popen: subprocess.Popen
    port: int

    @classmethod
    def start(cls) -> PeerServer:
        popen = subprocess.Popen(
            ["node", "server.js", "0"], cwd=PEER, env=ENV, stdout=subprocess.PIPE, text=True
        )
        line = popen.stdout.readline()
        if not line:
            popen.kill()
            popen.wait()
            popen.stdout.close()
            raise RuntimeError("the boardgame.io server exited before listening")
        return cls(popen, json.loads(line)["port"])

    def stop(self) -> None:
        self.popen.terminate()
        try:
            self.popen.wait(10)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()
        self.popen.stdout.close()

    def __enter__(self) -> PeerServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


async def run_level(server: PeerServer, level: int, warmup: float, duration: float) -> dict:
    """One level: connect `level` slots, then time them; CPU of the server and of the client."""
    client = await asyncio.create_subprocess_exec(
        "node", "load.js", str(server.port), str(level), str(warmup), str(duration),
        cwd=PEER, env=ENV, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        ready = await client.stdout.readline()
        if not json.loads(ready or b"{}").get("ready"):
            raise RuntimeError("the boardgame.io load client did not get ready")
        meter = CpuMeter({"peer_server": server.popen.pid, "peer_client": client.pid}).begin()
        began = time.perf_counter()
        client.stdin.write(b"go\n")
        await client.stdin.drain()
        line = await client.stdout.readline()
        wall = time.perf_counter() - began
        result = parse_result(line.decode())
        result["cpu"] = meter.end(wall, result["actions_total"])
        await client.wait()
        return result
    finally:
        if client.returncode is None:
            client.kill()
            await client.wait()
