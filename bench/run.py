"""End-to-end benchmark of parlour against floors measured in the same run.

    .venv/bin/python -m bench.run            # full run (~2-3 minutes)
    .venv/bin/python -m bench.run --quick    # smoke: every path once, briefly (make test runs it)
    .venv/bin/python -m bench.run --profile  # also profile an extra Play run at the top level:
                                             # py-spy --native (gateway, rules, load) and perf
                                             # (gateway, rules, Redis) -> flame graphs (SVG)

Writes bench/results/<timestamp>.json (and profile-<label>-*.svg/.txt with --profile).
See bench/README.md for how to read the ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import math
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

import grpc
import redis.asyncio as aioredis

from bench import (
    bgio,
    check,
    flame,
    floors,
    loadgen,
    matchmaking,
    profile,
    quiet,
    ratings,
    redis_sizing,
    replicated,
    sizing,
)
from bench.stats import CpuMeter
from parlour.client import GatewayClient
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.launcher import LocalStack
from parlour.store import keys

RESULTS = Path(__file__).resolve().parent / "results"
TARGET_LEVEL = 64
TARGET_SPEEDUP = 3.0
# Guessed actions/s per level, only to size each level's pool of prepared matches.
POOL_GUESS = {1: 700, 16: 3500, 64: 4000}
FULL_LEVELS, QUICK_LEVELS = "1,16,64", "2,8"


def message_sizes() -> tuple[int, int]:
    """Bytes of a typical SubmitActionRequest and SubmitActionResponse, for the floors."""
    plan = loadgen.plan_for(0)
    match_id = "0" * 32
    request = gw.SubmitActionRequest(
        match=f"matches/{match_id}", action=plan.actions[0][1], request_id=f"{match_id}:10"
    )
    progress = gw.MatchProgress(version=12, last_sequence=16)
    progress.pending.add(seat=1, kind="turn")
    response = gw.SubmitActionResponse(
        result=gw.ActResult(progress=progress, first_sequence=15, event_count=2)
    )
    return request.ByteSize(), response.ByteSize()


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        levels = args.levels or (QUICK_LEVELS if args.quick else FULL_LEVELS)
        self.levels = [int(x) for x in levels.split(",")]
        self.quick = args.quick
        self.warmup = 0.2 if args.quick else 1.0
        self.duration = args.duration or (0.6 if args.quick else 7.0)
        self.floor_duration = args.floor_duration or (0.3 if args.quick else 2.5)
        self.stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        self.results: dict = {
            "started": dt.datetime.now().isoformat(timespec="seconds"),
            "machine": {
                "cpus": os.cpu_count(),
                "python": platform.python_version(),
                "grpcio": grpc.__version__,
                "platform": platform.platform(),
            },
            "settings": {
                "levels": self.levels,
                "warmup_s": self.warmup,
                "duration_s": self.duration,
                "floor_duration_s": self.floor_duration,
                "quick": self.quick,
                "peer": not args.no_peer,
                "sizing": not args.no_sizing,
                "game": loadgen.GAME,
                "options": "hand_size=1",
                "actions_per_match": len(loadgen.plan_for(0).actions),
            },
        }
        self.finished: list[str] = []
        #: The boardgame.io peer servers by storage (bgio.STORAGES), unless --no-peer.
        self.peers: dict[str, bgio.PeerServer] = {}

    # -- floors ----------------------------------------------------------------------
    async def run_floors(self, redis_url: str, redis_pid: int) -> dict:
        request_bytes, response_bytes = message_sizes()
        self.results["settings"]["floor_message_bytes"] = [request_bytes, response_bytes]
        servers = floors.FloorServers.start(response_bytes, redis_url)
        out: dict = {}
        try:
            pids = {**servers.pids(), "redis": redis_pid, "bench": os.getpid()}
            payload = b"q" * request_bytes
            for floor in floors.FLOORS:
                out[floor] = {}
                for level in self.levels:
                    meter = CpuMeter(pids).begin()
                    began = time.perf_counter()
                    result = await floors.measure(
                        servers, floor, payload, level, self.warmup / 2, self.floor_duration
                    )
                    result["cpu"] = meter.end(time.perf_counter() - began, result["calls"])
                    if "cpu_us_per_call" in result:  # a floor whose caller measured itself
                        result["cpu"]["client"] = {"cpu_us_per_op": result["cpu_us_per_call"]}
                    out[floor][str(level)] = result
                    log(
                        f"  floor {floor:15s} c={level:<3d} {result['ops_per_s']:8.0f}/s "
                        f"p50 {result['p50_ms']:.2f} ms p99 {result['p99_ms']:.2f} ms"
                    )
        finally:
            servers.stop()
        return out

    # -- the stack -------------------------------------------------------------------------
    def pool_size(self, level: int) -> int:
        guess = POOL_GUESS.get(level, 4000)
        per_match = len(loadgen.plan_for(0).actions)
        return math.ceil(guess * (self.warmup + self.duration) * 1.4 / per_match) + 2 * level

    async def run_stack(self, stack: LocalStack, client: GatewayClient) -> dict:
        pids = self.stack_pids(stack)
        offset = 0
        # Warm-up: open the gateway's ActStream link, fill caches, load scripts.
        warm = await loadgen.prepare(client, 8, parallel=8)
        for i, m in enumerate(warm):
            rec = loadgen.Recorder(0, 0)
            await loadgen.DRIVERS["unary" if i % 2 else "play"](client, m, rec)
        out = {"unary": {}, "play": {}}
        for storage in self.peers:
            self.results[PEER_SECTIONS[storage]] = {}
        for level in self.levels:  # interleaved: unary, Play, then the peer, level by level
            for path in ("unary", "play"):
                began = time.perf_counter()
                pool = await loadgen.prepare(client, self.pool_size(level), offset=offset)
                offset += len(pool)
                setup = time.perf_counter() - began
                meter = CpuMeter(pids).begin()
                began = time.perf_counter()
                result, rec = await loadgen.run_level(
                    client, path, level, pool, self.warmup, self.duration
                )
                result["cpu"] = meter.end(time.perf_counter() - began, len(rec.ack))
                result["setup_s"] = round(setup, 2)
                result["matches_prepared"] = len(pool)
                self.finished += rec.finished
                out[path][str(level)] = result
                log(
                    f"  {path:5s} c={level:<3d} {result['actions_per_s']:8.0f} actions/s "
                    f"ack p50 {result['ack']['p50_ms']:.2f} p99 {result['ack']['p99_ms']:.2f} ms, "
                    f"delivery p50 {result['delivery']['p50_ms']:.2f} "
                    f"p99 {result['delivery']['p99_ms']:.2f} ms"
                    f"{'  ERRORS ' + str(result['errors']) if result['errors'] else ''}"
                    f"{'  (pool ran dry)' if result['pool_ran_dry'] else ''}"
                )
            for storage, peer in self.peers.items():
                result = await self.run_peer(peer, level)
                self.results[PEER_SECTIONS[storage]][str(level)] = result
        return out

    async def run_peer(self, peer: bgio.PeerServer, level: int) -> dict:
        result = await bgio.run_level(peer, level, self.warmup, self.duration)
        log(
            f"  peer  c={level:<3d} {result['actions_per_s']:8.0f} moves/s   "
            f"delivery p50 {result['delivery']['p50_ms']:.2f} "
            f"p99 {result['delivery']['p99_ms']:.2f} ms (boardgame.io {bgio.VERSION}, "
            f"{peer.storage})"
        )
        return result

    @staticmethod
    def stack_pids(stack: LocalStack) -> dict[str, int]:
        pids = {"gateway": stack.gateway.popen.pid}
        for game, procs in stack.rules.items():
            for i, proc in enumerate(procs):
                pids[f"rules:{game}" + (f"#{i}" if i else "")] = proc.popen.pid
        pids["redis"] = stack.redis.process.pid if stack.redis and stack.redis.process else 0
        pids["bench"] = os.getpid()
        return {k: v for k, v in pids.items() if v}

    # -- durability and memory ----------------------------------------------------------
    async def check_durable(self, r: aioredis.Redis) -> dict:
        """Every finished match holds all its versions and events in Redis."""
        plan = loadgen.plan_for(0)
        expect_version, expect_events = len(plan.actions) + 1, plan.final_sequence
        bad = 0
        for start in range(0, len(self.finished), 500):
            chunk = self.finished[start : start + 500]
            pipe = r.pipeline(transaction=False)
            for match in chunk:
                pipe.hget(keys.state(match), "v")
                pipe.xlen(keys.events(match))
            replies = await pipe.execute()
            for version, length in zip(replies[::2], replies[1::2], strict=True):
                if int(version or 0) != expect_version or length != expect_events:
                    bad += 1
        return {
            "matches_checked": len(self.finished),
            "incomplete": bad,
            "expected_version": expect_version,
            "expected_events": expect_events,
        }

    async def memory(self, r: aioredis.Redis, client: GatewayClient) -> dict:
        """MEMORY USAGE of a finished match's keys, and the INFO used_memory growth per match."""
        sample = self.finished[-200:]
        per_key: dict[str, list[int]] = {}
        for match in sample:
            for key in keys.all_for(match):
                kind = key.rsplit(":", 1)[1]
                used = await r.memory_usage(key, samples=0)
                per_key.setdefault(kind, []).append(used or 0)
        by_key = {k: round(sum(v) / len(v)) for k, v in per_key.items()}
        count = 12 if self.quick else 200
        before = (await r.info("memory"))["used_memory"]
        pool = await loadgen.prepare(client, count, offset=10_000)
        result, rec = await loadgen.run_level(client, "play", 16, pool, 0.0, 3600.0)
        after = (await r.info("memory"))["used_memory"]
        self.finished += rec.finished
        return {
            "memory_usage_bytes_per_match": sum(by_key.values()),
            "memory_usage_by_key": by_key,
            "matches_sampled": len(sample),
            "info_used_memory_delta_per_match": round((after - before) / max(1, rec.matches)),
            "info_matches": rec.matches,
            "errors": result["errors"],
        }

    # -- profile -----------------------------------------------------------------------------
    async def profile(self, stack: LocalStack, client: GatewayClient) -> dict:
        """An extra Play run at the top level under py-spy (gateway, rules, this load
        generator) and perf (gateway, rules, Redis): flame graphs and a summary."""
        level = max(self.levels)
        pool = await loadgen.prepare(client, self.pool_size(level), offset=20_000)
        seconds = self.warmup + self.duration
        RESULTS.mkdir(parents=True, exist_ok=True)
        label = self.args.profile_label or self.stamp
        pids = self.stack_pids(stack)
        py_targets = {
            "gateway": pids["gateway"],
            "rules": pids["rules:tinycards"],
            "load": pids["bench"],
        }
        perf_targets = {
            "gateway": pids["gateway"],
            "rules": pids["rules:tinycards"],
            "redis": pids["redis"],
        }
        work = Path(tempfile.mkdtemp(prefix="parlour-profile-"))
        spies = {
            f"py-{name}": (
                work / f"{name}.raw",
                profile.start(pid, work / f"{name}.raw", seconds, native=True),
            )
            for name, pid in py_targets.items()
        }
        if not self.args.no_perf:
            spies |= {
                f"perf-{name}": (
                    work / f"{name}.perf",
                    profile.start_perf(pid, work / f"{name}.perf", seconds),
                )
                for name, pid in perf_targets.items()
            }
        meter = CpuMeter(pids).begin()
        began = time.perf_counter()
        result, rec = await loadgen.run_level(
            client, "play", level, pool, self.warmup, self.duration
        )
        result["cpu"] = meter.end(time.perf_counter() - began, len(rec.ack))
        texts = [
            f"Play at concurrency {level} under py-spy --native and perf: "
            f"{result['actions_per_s']} actions/s (slowed by the sampling), ack p99 "
            f"{result['ack']['p99_ms']} ms; CPU us/action: "
            + ", ".join(f"{k} {v['cpu_us_per_op']:.0f}" for k, v in result["cpu"].items())
        ]
        files = {}
        for name, (raw, spy) in spies.items():
            _, err = await asyncio.to_thread(spy.communicate)
            if not raw.exists():
                texts.append(f"== {name}: failed: {err.decode(errors='replace')[-500:]}")
                continue
            folded = profile.read_pyspy(raw) if name.startswith("py-") else profile.read_perf(raw)
            (RESULTS / f"profile-{label}-{name}.folded").write_text(
                "".join(f"{';'.join(frames)} {count}\n" for frames, count in folded)
            )
            title = f"{name} at c={level}, Play ({label})"
            svg = RESULTS / f"profile-{label}-{name}.svg"
            svg.write_text(flame.svg(flame.tree(folded), title))
            files[name] = str(svg)
            texts.append(profile.summarize(folded, title))
            if name.startswith("perf-"):
                texts.append(f"   by library: {profile.libraries(folded)}")
        shutil.rmtree(work, ignore_errors=True)
        path = RESULTS / f"profile-{label}.txt"
        path.write_text("\n\n".join(texts) + "\n")
        log(f"  profile: {path} and {len(files)} flame graphs")
        return {"run": result, "summary_file": str(path), "flame_graphs": files}

    # -- all ------------------------------------------------------------------------------------
    async def main(self) -> dict:
        started = time.perf_counter()
        self.results["machine"]["loadavg_start"] = os.getloadavg()
        if os.getloadavg()[0] > quiet.QUIET_LOAD:
            log(
                f"warning: load average {os.getloadavg()[0]:.1f} before starting; other processes "
                "share these cores and the figures will be noisy"
            )
        watch = quiet.LoadWatch().start()
        log("starting the stack (Redis, tinycards rules service, gateway as processes)...")
        # one load generator is one peer: the per-peer quotas (issue 9 item 13) are off
        unlimited = {"PARLOUR_CREATES_PER_MINUTE": "0", "PARLOUR_STREAMS_PER_CONNECTION": "0"}
        try:
            if not self.args.no_peer:
                bgio.ensure_installed()
                for storage in bgio.STORAGES:
                    self.peers[storage] = bgio.PeerServer.start(storage)
            with LocalStack([loadgen.GAME], env=unlimited) as stack:
                await self.run_all(stack)
        finally:
            for peer in self.peers.values():
                peer.stop()
        if not self.args.no_sizing:
            log("what hosts size for (bench/sizing.py, each scenario its own stack):")
            self.results["sizing"] = await sizing.run_all(
                self.quick, log, live=self.args.live, peer=not self.args.no_peer
            )
        log("the replicated commit (issue 40: a primary and one replica, c=64):")
        self.results["replicated"] = await replicated.run(self.quick, log)
        if not self.quick:  # make test runs its quick path on its own (test_matchmaking_bench)
            log("matchmaking (issue 45, bench/matchmaking.py: 2,000 tickets, two gateways):")
            self.results["matchmaking"] = await asyncio.to_thread(matchmaking.run, 2000, 60.0)
        self.results["machine"]["loadavg_end"] = os.getloadavg()
        self.results["machine"]["load"] = watch.stop()
        self.results["ratios"] = ratios(self.results, self.levels)
        self.results["vs_peer"] = peer_ratios(self.results, self.levels)
        self.results["floor_per_action"] = transport_floor(self.results, str(self.levels[-1]))
        self.results["elapsed_s"] = round(time.perf_counter() - started, 1)
        return self.results

    async def run_all(self, stack: LocalStack) -> None:
        r = aioredis.from_url(stack.redis_url)
        try:
            log("floors:")
            self.results["floors"] = await self.run_floors(stack.redis_url, stack.redis.process.pid)
            async with GatewayClient(stack.address) as client:
                log("parlour (gateway -> rules -> Redis, every seat subscribed):")
                self.results["parlour"] = await self.run_stack(stack, client)
                log("memory per finished match:")
                self.results["memory"] = await self.memory(r, client)
                self.results["memory"]["after_retry_window"] = await redis_sizing.after_window(
                    1 if self.quick else 3
                )
                self.results["durability"] = await self.check_durable(r)
                log("ratings (issue 36):")
                self.results["ratings"] = await ratings.run(
                    stack.redis_url, stack.redis.process.pid, self.quick, log
                )
                if self.args.profile:
                    log("profiling Play at the top level:")
                    self.results["profile"] = await self.profile(stack, client)
        finally:
            await r.aclose()


def ratios(results: dict, levels: list[int]) -> dict:
    """Our throughput and p99 ack as multiples of each floor at the same concurrency."""
    out: dict = {}
    for path, by_level in results["parlour"].items():
        out[path] = {}
        for level in levels:
            ours = by_level[str(level)]
            row = {}
            for floor, floor_levels in results["floors"].items():
                f = floor_levels[str(level)]
                row[floor] = {
                    "throughput_x": round(ours["actions_per_s"] / f["ops_per_s"], 2)
                    if f["ops_per_s"]
                    else None,
                    "p99_ack_x": round(ours["ack"]["p99_ms"] / f["p99_ms"], 2)
                    if f["p99_ms"]
                    else None,
                }
            out[path][str(level)] = row
    top = str(TARGET_LEVEL if TARGET_LEVEL in levels else max(levels))
    floor = results["floors"]["two_hops_redis"][top]
    for path in results["parlour"]:
        ours = results["parlour"][path][top]
        out[path]["target"] = {
            "level": int(top),
            "throughput_goal_x": TARGET_SPEEDUP,
            "throughput_x": round(ours["actions_per_s"] / floor["ops_per_s"], 2),
            "p99_ack_ms": ours["ack"]["p99_ms"],
            "p99_floor_ms": floor["p99_ms"],
            "met": ours["actions_per_s"] >= TARGET_SPEEDUP * floor["ops_per_s"]
            and ours["ack"]["p99_ms"] <= floor["p99_ms"],
        }
    return out


#: Messages a Play action needs on the clients' streams, at least: the action in, its ack
#: (with its events) out, and the events out to the other seat (tinycards: 2 seats).
PLAY_CLIENT_MESSAGES = 3


def transport_floor(results: dict, level: str) -> dict[str, float]:
    """Server CPU µs of one Play action if parlour cost nothing but its transport, from the
    floors of the same run: the client-stream messages at `stream_echo`'s server cost per
    message, one ActLink round trip at `stream_mux`'s per pair in each of gateway and
    rules (its client side taken as its server side), and one EVALSHA: its caller's CPU
    (the `evalsha` floor's client process) and Redis's."""
    floors_ = results["floors"]

    def us(floor: str, process: str) -> float:
        return floors_[floor][level]["cpu"][process]["cpu_us_per_op"]

    per_message = us("stream_echo", "echo") / 2
    link = us("stream_mux", "echo")
    out = {
        "gateway": PLAY_CLIENT_MESSAGES * per_message + link,
        "rules": link + us("evalsha", "client"),
        "redis": us("evalsha", "redis"),
    }
    out = {k: round(v, 1) for k, v in out.items()}
    out["total"] = round(sum(out.values()), 1)
    return out


def ours_line(results: dict) -> str:
    """Parlour's server CPU per Play action at the top level beside its transport floor,
    and what is ours (the difference), per process."""
    top = str(results["settings"]["levels"][-1])
    cpu = results["parlour"]["play"][top]["cpu"]
    floor = results["floor_per_action"]
    parts = {
        "gateway": cpu["gateway"]["cpu_us_per_op"],
        "rules": sum(v["cpu_us_per_op"] for k, v in cpu.items() if k.startswith("rules:")),
        "redis": cpu.get("redis", {}).get("cpu_us_per_op", 0.0),
    }
    total = sum(parts.values())
    each = ", ".join(
        f"{k} {parts[k]:.0f} = floor {floor[k]:.0f} + ours {parts[k] - floor[k]:.0f}"
        for k in parts
    )
    return (
        f"Play c={top}: parlour {total:.0f} us server CPU per action = transport floor "
        f"{floor['total']:.0f} + ours {total - floor['total']:.0f} "
        f"({(total - floor['total']) / total:.0%}); {each}"
    )


PARLOUR_SERVERS = ("gateway", "rules:", "redis")
#: The results section of each peer storage (bgio.STORAGES).
PEER_SECTIONS = {"memory": "peer", "flatfile": "peer_flatfile"}


def server_cpu_us(cpu: dict) -> float:
    """CPU µs per action of parlour's server side: gateway + rules services + Redis."""
    return sum(v["cpu_us_per_op"] for k, v in cpu.items() if k.startswith(PARLOUR_SERVERS))


def peer_ratios(results: dict, levels: list[int]) -> dict:
    """Per path and level: parlour ÷ boardgame.io for actions/s and server CPU µs per action."""
    peer = results.get("peer") or {}
    flat = results.get("peer_flatfile") or {}
    out: dict = {}
    for path, by_level in results["parlour"].items():
        out[path] = {}
        for level in levels:
            theirs = peer.get(str(level))
            if not theirs:
                continue
            ours = by_level[str(level)]
            our_cpu = server_cpu_us(ours["cpu"])
            their_cpu = theirs["cpu"]["peer_server"]["cpu_us_per_op"]
            out[path][str(level)] = {
                "actions_per_s_x": round(ours["actions_per_s"] / theirs["actions_per_s"], 2)
                if theirs["actions_per_s"]
                else None,
                "server_cpu_us": round(our_cpu, 1),
                "peer_server_cpu_us": their_cpu,
                "server_cpu_x": round(our_cpu / their_cpu, 2) if their_cpu else None,
                "client_cpu_us": ours["cpu"].get("bench", {}).get("cpu_us_per_op"),
                "peer_client_cpu_us": theirs["cpu"]["peer_client"]["cpu_us_per_op"],
            }
            durable = flat.get(str(level))
            if durable:
                durable_cpu = durable["cpu"]["peer_server"]["cpu_us_per_op"]
                out[path][str(level)].update(
                    peer_flatfile_server_cpu_us=durable_cpu,
                    server_cpu_x_flatfile=round(our_cpu / durable_cpu, 2) if durable_cpu else None,
                )
    return out


def peer_table(results: dict) -> list[str]:
    """The peer's rows and the parlour/peer ratios, one line per level."""
    if not results.get("peer"):
        return []
    lines = [
        "",
        f"peer: boardgame.io {bgio.VERSION} (Node, in-memory, socket.io, counter move; ms; "
        "CPU us per action)",
        f"{'c':>4s}{'moves/s':>10s}{'dlv p50':>9s}{'dlv p99':>9s}{'server':>8s}{'client':>8s}"
        f"{'py client':>10s}"
        f"   parlour/peer: unary actions/s, server CPU | play actions/s, server CPU",
    ]
    for level, row in results["peer"].items():
        vs = [results["vs_peer"][path].get(level, {}) for path in ("unary", "play")]
        cells = " | ".join(
            f"{v.get('actions_per_s_x', float('nan')):5.2f}x {v.get('server_cpu_us', 0):4.0f}/"
            f"{v.get('peer_server_cpu_us', 0):.0f} us = {v.get('server_cpu_x', float('nan')):.2f}x"
            for v in vs
        )
        lines.append(
            f"{level:>4s}{row['actions_per_s']:>10.0f}{row['delivery']['p50_ms']:>9.2f}"
            f"{row['delivery']['p99_ms']:>9.2f}{row['cpu']['peer_server']['cpu_us_per_op']:>8.0f}"
            f"{row['cpu']['peer_client']['cpu_us_per_op']:>8.0f}"
            f"{vs[1].get('client_cpu_us') or float('nan'):>10.0f}   {cells}"
        )
    lines.append(
        "(parlour server CPU = gateway + rules + Redis; client = the Node peer load client, "
        "py client = parlour's Python bench during Play)"
    )
    return lines


def table(results: dict) -> str:
    levels = results["settings"]["levels"]
    lines = []
    lines.append(
        "Floors (bare grpc.aio on loopback, raw bytes of the same sizes; ops/s, p50/p99 ms)"
    )
    lines.append(f"{'floor':16s}" + "".join(f"{'c=' + str(c):>24s}" for c in levels))
    for floor, by_level in results["floors"].items():
        cells = "".join(
            f"{row['ops_per_s']:>9.0f}/s {row['p50_ms']:5.2f}/{row['p99_ms']:6.2f}"
            for row in (by_level[str(c)] for c in levels)
        )
        lines.append(f"{floor:16s}{cells}")
    lines.append("")
    lines.append("parlour end to end (tinycards, every seat subscribed; ms)")
    lines.append(
        f"{'path':6s}{'c':>4s}{'actions/s':>11s}{'ack p50':>9s}{'ack p99':>9s}"
        f"{'dlv p50':>9s}{'dlv p99':>9s}{'x 2hop+R':>9s}{'x unary':>9s}{'x stream':>9s}"
        f"{'x mux':>7s}{'err':>5s}"
    )
    for path, by_level in results["parlour"].items():
        for c in levels:
            row = by_level[str(c)]
            rat = results["ratios"][path][str(c)]
            lines.append(
                f"{path:6s}{c:>4d}{row['actions_per_s']:>11.0f}{row['ack']['p50_ms']:>9.2f}"
                f"{row['ack']['p99_ms']:>9.2f}{row['delivery']['p50_ms']:>9.2f}{row['delivery']['p99_ms']:>9.2f}"
                f"{rat['two_hops_redis']['throughput_x']:>9.2f}{rat['unary_echo']['throughput_x']:>9.2f}"
                f"{rat['stream_echo']['throughput_x']:>9.2f}{rat['stream_mux']['throughput_x']:>7.2f}{row['errors']:>5d}"
            )
    lines.append(
        "(x <floor> = our actions/s divided by that floor's ops/s at the same concurrency)"
    )
    lines.append("")
    for path in results["parlour"]:
        t = results["ratios"][path]["target"]
        lines.append(
            f"target {path:5s} c={t['level']}: {t['throughput_x']:.2f}x the two-hops+Redis floor "
            f"(goal >= {t['throughput_goal_x']:.0f}x), p99 ack {t['p99_ack_ms']:.1f} ms vs floor "
            f"{t['p99_floor_ms']:.1f} ms -> {'MET' if t['met'] else 'NOT MET'}"
        )
    mem = results["memory"]
    lines.append(
        f"memory per finished match: {mem['memory_usage_bytes_per_match']} B by MEMORY USAGE "
        f"({', '.join(f'{k} {v}' for k, v in mem['memory_usage_by_key'].items())}); "
        f"INFO used_memory grew {mem['info_used_memory_delta_per_match']} B per match"
    )
    kept = mem["after_retry_window"]
    met = "MET" if kept["bytes_per_match"] <= kept["goal_bytes"] else "NOT MET"
    lines.append(
        f"memory per finished match after its retry window: {kept['bytes_per_match']} B by "
        f"MEMORY USAGE ({', '.join(f'{k} {v}' for k, v in kept['by_key'].items())}; "
        f"{kept['events']:.0f} events, {kept['actions']:.0f} actions; goal <= "
        f"{kept['goal_bytes']} B -> {met})"
    )
    rt = results["ratings"]
    lines.append(
        f"ratings: {rt['c1']['updates_per_s']:.0f} updates/s one at a time, "
        f"{rt['c16']['updates_per_s']:.0f}/s 16 at a time; openskill alone "
        f"{rt['floor_openskill']['updates_per_s']:.0f}/s (x{rt['x_floor']:.2f}); "
        f"{rt['memory']['bytes_per_person']} B per person in Redis "
        f"({rt['memory']['matches_per_person']} matches each)"
    )
    if mm := results.get("matchmaking"):
        lines.append(
            f"matchmaking: {mm['matched']}/{mm['tickets']} tickets matched, time to match p50 "
            f"{mm['time_to_match']['p50_ms']:.0f} ms, p99 {mm['time_to_match']['p99_ms']:.0f} ms; "
            f"rating spread p50 {mm['rating_spread']['p50']}, p99 {mm['rating_spread']['p99']}"
        )
    d = results["durability"]
    lines.append(
        f"durability: {d['matches_checked']} finished matches checked, {d['incomplete']} incomplete"
    )
    lines.append(
        f"load average at start/end: {results['machine']['loadavg_start'][0]:.1f}/"
        f"{results['machine']['loadavg_end'][0]:.1f} on {results['machine']['cpus']} CPUs"
    )
    load = results["machine"]["load"]
    lines.append(
        f"load average of other work (max/end): {load['others_loadavg_max']:.2f}/"
        f"{load['others_loadavg_end']:.2f}, machine's max {load['machine_loadavg_max']:.2f}; "
        f"other processes used {load['others_cores']:.2f} cores"
    )
    lines.append(ours_line(results))
    cpu = results["parlour"]["play"][str(levels[-1])]["cpu"]
    lines.append(
        f"CPU during play c={levels[-1]} (cores used, us per action): "
        + ", ".join(f"{k} {v['cores']:.2f}/{v['cpu_us_per_op']:.0f}" for k, v in cpu.items())
    )
    lines += peer_table(results)
    lines += sizing_table(results.get("sizing"))
    lines += hosts_table(results)
    return "\n".join(lines)


def hosts_table(results: dict) -> list[str]:
    """boardgame.io in memory, boardgame.io FlatFile and parlour side by side, both regimes:
    saturation (server CPU µs per action at the top level, Play) and a real pace (server
    CPU µs per live match per second, live matches per core); ratios are parlour ÷ row."""
    sized = results.get("sizing") or {}
    peers = sized.get("live_peer") or {}
    if not peers or not results.get("peer"):
        return []
    top = str(results["settings"]["levels"][-1])
    ours_sat = server_cpu_us(results["parlour"]["play"][top]["cpu"])
    ours_live = sized["live_matches"]
    rows = [("parlour (Play, Redis)", ours_sat, ours_live)]
    for storage, section in PEER_SECTIONS.items():
        sat = results.get(section, {}).get(top, {}).get("cpu", {}).get("peer_server", {})
        rows.append((f"boardgame.io {storage}", sat.get("cpu_us_per_op"), peers.get(storage, {})))

    def ratio(ours, theirs) -> str:
        return f"{ours / theirs:.2f}x" if ours and theirs else "-"

    lines = [
        "",
        f"hosts: saturation (c={top}) and a real pace ({ours_live['matches']} live matches, "
        f"every seat connected, a move every {ours_live['pace_s'][0]:g}-"
        f"{ours_live['pace_s'][1]:g} s); parlour / row",
        f"{'':24s}{'sat us/action':>14s}{'ratio':>8s}{'live us/match/s':>17s}{'ratio':>8s}"
        f"{'matches/core':>14s}{'KiB/stream':>12s}{'dlv p99 ms':>12s}",
    ]
    nan = float("nan")
    for name, sat, live in rows:
        per_stream = live.get("gateway_rss_bytes_per_stream", live.get("rss_bytes_per_stream"))
        cost = live.get("cpu_us_per_live_match_s")
        p99 = live.get("delivery", {}).get("p99_ms")
        lines.append(
            f"{name:24s}{sat or nan:>14.0f}{ratio(ours_sat, sat):>8s}{cost or nan:>17.0f}"
            f"{ratio(ours_live.get('cpu_us_per_live_match_s'), cost):>8s}"
            f"{live.get('live_matches_per_core') or 0:>14d}"
            f"{(per_stream or 0) / 1024:>12.1f}{p99 or nan:>12.1f}"
        )
    lines.append(
        f"(parlour at {ours_live['live_matches_per_core']} live matches per core needs "
        f"{ours_live[f'cores_for_{sizing.ISSUE_LIVE}']} cores for {sizing.ISSUE_LIVE:,}; Redis "
        f"{ours_live['redis_bytes_per_live_match'] / 1024:.1f} KiB per live match)"
    )
    return lines


def sizing_table(sizing: dict | None) -> list[str]:
    """bench/sizing.py's scenarios, one line each."""
    if not sizing:
        return []
    live, spec, castle = sizing["live_matches"], sizing["spectators"], sizing["murder_castle"]
    ws = sizing["workers_spectators"]
    lines = [
        "",
        "what hosts size for (bench/sizing.py; ms, server CPU us per action):",
        f"  {live['matches']} live matches, {live['streams']} Play streams, acting every "
        f"{live['pace_s'][0]:g}-{live['pace_s'][1]:g} s: {live['actions_per_s']:.0f} actions/s, "
        f"ack p99 {live['ack']['p99_ms']:.1f}, delivery p99 {live['delivery']['p99_ms']:.1f}, "
        f"gateway {live['gateway_rss_bytes_per_stream'] / 1024:.1f} KiB per stream, Redis "
        f"{live['redis_bytes_per_live_match'] / 1024:.1f} KiB per live match, "
        f"{live['server_cpu_us_per_action']:.0f} us",
        f"  1 match, {spec['spectators']} spectators: {spec['deliveries_per_s']:.0f} deliveries/s "
        f"(target {spec['target_deliveries_per_s']}), delivery p50/p99 "
        f"{spec['delivery']['p50_ms']:.1f}/{spec['delivery']['p99_ms']:.1f}",
        f"  1 match, {ws['spectators']} spectators over {ws['workers']} gateway workers "
        f"({'/'.join(f'{n:.0f}' for n in ws['subscribers_per_worker'])}) and {ws['readers']} "
        f"reader processes: {ws['deliveries_per_s']:.0f} deliveries/s (target "
        f"{ws['target_deliveries_per_s']}), delivery p50/p99 {ws['delivery']['p50_ms']:.1f}/"
        f"{ws['delivery']['p99_ms']:.1f}; busiest {ws['busiest']}; cores the target takes: "
        + ", ".join(f"{k} {v:.2f}" for k, v in ws["cores_at_target"].items()),
        f"  Murder Castle, 7 seats: {castle['matches']} matches of "
        f"{castle['actions_per_match']:.0f} actions, {castle['seconds_per_match']:.1f} s each, "
        f"ack p99 {castle['ack']['p99_ms']:.1f}, delivery p99 {castle['delivery']['p99_ms']:.1f}, "
        f"{castle['server_cpu_us_per_action']:.0f} us",
    ]
    for name, row in sizing["shape"].items():
        lines.append(
            f"  {name}: {row['actions_per_s']:.0f} actions/s, ack p99 {row['ack']['p99_ms']:.1f}, "
            f"{row['server_cpu_us_per_action']:.0f} us"
        )
    return lines


def not_quiet(load: dict, max_load: float, quick: bool) -> str:
    """Why a run's figures are refused ('' when they stand): other work's load average
    went above `max_load` (0: never refuse; a quick run never refuses)."""
    if quick or not max_load or load["others_loadavg_max"] <= max_load:
        return ""
    return (
        f"the machine was not quiet: other work's load average reached "
        f"{load['others_loadavg_max']:.2f} (> {max_load:g}; the machine's own "
        f"{load['machine_loadavg_max']:.2f}, other processes used {load['others_cores']:.2f} "
        "cores); no table and no ratios. Re-run with nothing else on the machine."
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--quick", action="store_true", help="smoke run: every path once, briefly (levels 2,8)"
    )
    parser.add_argument(
        "--profile", action="store_true", help="py-spy an extra Play run at the top level"
    )
    parser.add_argument(
        "--profile-label", default="", help="with --profile: name the files (default: time)"
    )
    parser.add_argument("--no-perf", action="store_true", help="with --profile: py-spy only")
    parser.add_argument("--levels", default="", help="concurrent matches (default 1,16,64)")
    parser.add_argument("--out", default="", help="write the JSON here (default bench/results/)")
    parser.add_argument("--duration", type=float, default=0.0, help="measured seconds per level")
    parser.add_argument(
        "--floor-duration", type=float, default=0.0, help="measured seconds per floor level"
    )
    parser.add_argument(
        "--no-peer", action="store_true", help="skip the boardgame.io peer (needs node and npm)"
    )
    parser.add_argument("--no-sizing", action="store_true", help="skip bench/sizing.py")
    parser.add_argument(
        "--max-load",
        type=float,
        default=quiet.QUIET_LOAD,
        help="refuse the figures when other work's load average exceeded this (0: never; "
        "--quick never refuses)",
    )
    parser.add_argument(
        "--live", type=int, default=0, help="live matches in bench/sizing.py (10000: the issue's)"
    )
    args = parser.parse_args()
    import uvloop

    results = uvloop.run(Bench(args).main())
    results["problems"] = check.problems(results)
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = Path(args.out or RESULTS / f"{dt.datetime.now().strftime('%Y%m%d-%H%M%S')}.json")
    path.write_text(json.dumps(results, indent=2) + "\n")
    refused = not_quiet(results["machine"]["load"], args.max_load, args.quick)
    if refused:
        print(f"{refused}\nresults: {path}", file=sys.stderr)
        sys.exit(3)
    print(table(results))
    print(f"\nresults: {path} ({results['elapsed_s']} s)")
    if results["problems"]:
        print("bench problems:\n  " + "\n  ".join(results["problems"]), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
