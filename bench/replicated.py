"""The replicated commit (issue 40): what waiting for a replica costs each action.

    python -m bench.replicated [--quick]

A primary and one replica (valkey-server from the shipped deploy/redis/replicated.conf) on
loopback; 64 writers at once, each committing tinycards-sized actions (a 600-byte State, 3
events) to its own match through MatchStore, first acknowledged as soon as the primary ran
the commit (PARLOUR_REDIS_REPLICAS_ACK=0), then after WAIT 1 and the confirmation script
(=1). Per row: actions/s, ack latency (p50, p99), CPU µs per action of this process, the
primary and the replica. `make bench` runs it as its "replicated" section.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import redis

from bench.stats import CpuMeter, summarize_ms
from parlour.store import connection
from parlour.store.matchstore import MatchStore
from parlour.store.replication import Replication
from parlour.store.server import free_port, server_binary

CONF = Path(__file__).resolve().parent.parent / "deploy" / "redis" / "replicated.conf"
CONCURRENCY = 64
STATE = os.urandom(600)
EVENTS = [(os.urandom(60), b"*", 0), (os.urandom(40), b"0", 0), (os.urandom(40), b"*!0", 0)]


class Pair:
    """A primary and a replica in a scratch directory."""

    def __init__(self) -> None:
        self.dir = tempfile.mkdtemp(prefix="parlour-bench-pair-")
        self.ports = [free_port(), free_port()]
        self.procs: list[subprocess.Popen] = []

    def start(self) -> Pair:
        for port, extra in zip(
            self.ports, ([], ["--replicaof", "127.0.0.1", str(self.ports[0])]), strict=True
        ):
            config = Path(self.dir) / f"node-{port}.conf"
            shutil.copy(CONF, config)
            self.procs.append(subprocess.Popen(
                [server_binary(), str(config), "--port", str(port), "--dir", self.dir,
                 "--appenddirname", f"aof-{port}", "--save", "", "--loglevel", "warning",
                 *extra],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            ))  # fmt: skip
        replica = redis.Redis(port=self.ports[1])
        deadline = time.monotonic() + 30
        while True:
            try:
                if replica.info("replication").get("master_link_status") == "up":
                    return self
            except redis.RedisError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the replica did not sync")
            time.sleep(0.05)

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
            proc.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


async def row(pair: Pair, replicas: int, seconds: float) -> dict:
    """CONCURRENCY writers for `seconds`, acknowledged after `replicas` replicas."""
    store = MatchStore(
        connection.connect(f"redis://127.0.0.1:{pair.ports[0]}/0"),
        replication=Replication(replicas=replicas),
    )
    latencies: list[float] = []
    stop = time.perf_counter() + seconds

    async def writer() -> None:
        match = uuid.uuid4().hex
        await store.create_state(match, STATE, b"p", {"game": "bench", "seats": "2"})
        version = 1
        while time.perf_counter() < stop:
            started = time.perf_counter()
            done = await store.commit_action(
                match, version, STATE, EVENTS, uuid.uuid4().hex, b"r" * 40, b"p" * 80,
                logged_action=b"a" * 30,
            )  # fmt: skip
            latencies.append(time.perf_counter() - started)
            version = done.version

    pids = {"bench": os.getpid(), "primary": pair.procs[0].pid, "replica": pair.procs[1].pid}
    try:
        meter = CpuMeter(pids).begin()
        began = time.perf_counter()
        await asyncio.gather(*(writer() for _ in range(CONCURRENCY)))
        wall = time.perf_counter() - began
        cpu = meter.end(wall, len(latencies))
    finally:
        await store.close()
    return {
        "actions_per_s": round(len(latencies) / wall, 1),
        "ack": summarize_ms(sorted(latencies)),
        "cpu": cpu,
        "cpu_us_per_action": round(sum(p["cpu_us_per_op"] for p in cpu.values()), 1),
    }


async def run(quick: bool, log=print) -> dict:
    """The section: the same load acknowledged without and with the replica's WAIT."""
    seconds = 0.5 if quick else 5.0
    pair = Pair().start()
    try:
        out: dict = {"concurrency": CONCURRENCY}
        for name, replicas in (("primary_only", 0), ("one_replica", 1)):
            out[name] = r = await row(pair, replicas, seconds)
            log(f"  commit acked {name.replace('_', ' ')}: {r['actions_per_s']:.0f} actions/s, "
                f"p99 {r['ack']['p99_ms']:.1f} ms, {r['cpu_us_per_action']:.0f} us CPU per "
                f"action (this process + primary + replica)")
        out["extra_cpu_us_per_action"] = round(
            out["one_replica"]["cpu_us_per_action"] - out["primary_only"]["cpu_us_per_action"], 1
        )
        out["p99_x"] = round(
            out["one_replica"]["ack"]["p99_ms"] / out["primary_only"]["ack"]["p99_ms"], 2
        )
        return out
    finally:
        pair.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    print(json.dumps(asyncio.run(run(parser.parse_args().quick)), indent=2))


if __name__ == "__main__":
    main()
