"""What hosts size for (issue 22 item 3): live matches at a human pace, one match with many
spectators, Murder Castle at 7 seats, and 1 vs 2 gateways / rules replicas.

    .venv/bin/python -m bench.sizing           # the sizes in SIZES["full"] (a few minutes)
    .venv/bin/python -m bench.sizing --quick   # every scenario, tiny (bench.run --quick too)
    .venv/bin/python -m bench.sizing --live 10000   # the issue's 10,000 live matches

The live matches run again on the boardgame.io peer (issue 31 item 1), in memory and with
its durable FlatFile storage, at the same pace and count; each row reports server CPU per
live match per second and live matches per core.

Each scenario starts its own stack (Redis, rules services, gateways as processes) and
reports JSON; bench/README.md has the table. The sizes are scaled down from the issue's
(10,000 live matches, 1,000 spectators) to what one shared 2-core machine carries next to
its load generator; `SIZES` says by how much and the JSON repeats it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from pathlib import Path

import redis.asyncio as aioredis

from bench import bgio, loadgen
from bench.stats import CpuMeter, rss_bytes, summarize_ms
from parlour.client import GatewayClient
from parlour.client.client import Seat
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.launcher import LocalStack, Process, wait_serving

SIZES = {
    "full": {
        "live_matches": 400,  # the issue asks 10,000: 20,000 streams (or 2,000 with the load
        # generator on the same shared cores) do not fit beside the rest
        "live_seconds": 20.0,
        "pace_s": [1.0, 5.0],
        "spectators": 500,  # the issue asks 1,000 at 10k deliveries/s
        "deliveries_per_s": 5000,
        # issue 31 item 3: the issue's size, over the gateway's workers and reader processes
        "workers_spectators": {
            "spectators": 1000,
            "deliveries_per_s": 10_000,
            "workers": 2,
            "readers": 2,
            "connections": 8,
        },
        "castle_seeds": [23, 31, 36, 3],  # the shortest random 7-seat matches of seeds 0-39
        "shape_level": 32,
        "shape_seconds": 6.0,
    },
    "quick": {
        "live_matches": 12,
        "live_seconds": 1.0,
        "pace_s": [0.1, 0.5],
        "spectators": 8,
        "deliveries_per_s": 200,
        "workers_spectators": {
            "spectators": 8,
            "deliveries_per_s": 200,
            "workers": 2,
            "readers": 2,
            "connections": 2,
        },
        "castle_seeds": [23],
        "shape_level": 4,
        "shape_seconds": 0.6,
    },
}
#: The issue's live matches (issue 31 item 1): `--live 10000` runs them.
ISSUE_LIVE = 10_000
UNLIMITED = {"PARLOUR_CREATES_PER_MINUTE": "0", "PARLOUR_STREAMS_PER_CONNECTION": "0"}


def server_pids(
    stack: LocalStack, gateways: list[Process] | None = None, game: str = loadgen.GAME
) -> dict[str, int]:
    """The processes a scenario uses (CPU meter names), and this load generator."""
    pids = {"redis": stack.redis.process.pid, "bench": os.getpid()}
    for i, proc in enumerate(gateways or [stack.gateway]):
        pids["gateway" + (f"#{i}" if i else "")] = proc.popen.pid
    for i, proc in enumerate(stack.rules[game]):
        pids[f"rules:{game}" + (f"#{i}" if i else "")] = proc.popen.pid
    return pids


def server_us(cpu: dict) -> float:
    return round(sum(v["cpu_us_per_op"] for k, v in cpu.items() if k != "bench"), 1)


async def used_memory(url: str) -> int:
    r = aioredis.from_url(url)
    try:
        return int((await r.info("memory"))["used_memory"])
    finally:
        await r.aclose()


async def public_events(url: str, match: str) -> int:
    """How many of the match's stored events a spectator may see."""
    from parlour.store.matchstore import MatchStore

    store = MatchStore.from_url(url)
    try:
        return sum(1 for e in await store.events_after(match, 0, 10_000) if e.visible_to(None))
    finally:
        await store.close()


# -- live matches at a human pace -------------------------------------------------------------
async def live_matches(stack: LocalStack, size: dict) -> dict:
    """`live_matches` matches, a Play session per seat, each match acting every 1-5 s."""
    count, seconds = size["live_matches"], size["live_seconds"]
    async with GatewayClient(stack.address) as client:
        redis_before = await used_memory(stack.redis_url)
        gateway_before = rss_bytes(stack.gateway.popen.pid)
        pool = await loadgen.prepare(client, count)
        rec = loadgen.Recorder(0.0, float("inf"))
        opened: list[asyncio.Future] = []
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        rng = random.Random(22)

        async def paced(m: loadgen.Prepared) -> None:
            ready = loop.create_future()
            opened.append(ready)
            try:
                await loadgen.play_session(
                    client,
                    m,
                    rec,
                    pace=lambda: rng.uniform(*size["pace_s"]),
                    opened=ready,
                    stop=stop,
                )
            except Exception as error:  # noqa: BLE001 - counted and reported
                rec.errors.append(f"{m.match_id}: {type(error).__name__}: {error}"[:300])
                if not ready.done():
                    ready.set_result(None)

        tasks = [asyncio.create_task(paced(m)) for m in pool]
        await asyncio.gather(*opened)
        streams = count * loadgen.SEATS
        gateway_rss = rss_bytes(stack.gateway.popen.pid)
        redis_live = await used_memory(stack.redis_url)
        meter = CpuMeter(server_pids(stack)).begin()
        began = time.perf_counter()
        rec.window_start = began
        await asyncio.sleep(seconds)
        rec.window_end = time.perf_counter()
        acks = len(rec.within(rec.ack, rec.window_end))
        cpu = meter.end(rec.window_end - began, acks)
        stop.set()
        await asyncio.gather(*tasks)
    return {
        "matches": count,
        "streams": streams,
        "pace_s": size["pace_s"],
        "window_s": seconds,
        "actions_per_s": round(acks / seconds, 1),
        "ack": summarize_ms(rec.within(rec.ack, rec.window_end)),
        "delivery": summarize_ms(rec.within(rec.delivery, rec.window_end)),
        "gateway_rss_bytes_per_stream": round((gateway_rss - gateway_before) / streams),
        "redis_bytes_per_live_match": round((redis_live - redis_before) / count),
        "cpu": cpu,
        "server_cpu_us_per_action": server_us(cpu),
        "errors": len(rec.errors),
        "error_samples": rec.errors[:3],
        **per_live_match(server_cores(cpu), count),
    }


def server_cores(cpu: dict) -> float:
    """Cores the server side used (every process but this load generator)."""
    return sum(v["cores"] for k, v in cpu.items() if k != "bench")


def per_live_match(cores: float, matches: int) -> dict:
    """What a host sizes with: server CPU µs per live match per second, live matches one
    core carries, and the cores ISSUE_LIVE matches would take at that rate."""
    return {
        "cpu_us_per_live_match_s": round(cores * 1e6 / matches, 1) if cores else None,
        "live_matches_per_core": round(matches / cores) if cores else None,
        f"cores_for_{ISSUE_LIVE}": round(cores * ISSUE_LIVE / matches, 2),
    }


async def live_peer(size: dict, storage: str) -> dict:
    """The boardgame.io peer with `storage` at the same pace and match count (bench/bgio.py)."""
    bgio.ensure_installed()
    with bgio.PeerServer.start(storage) as server:
        pace = (size["pace_s"][0], size["pace_s"][1])
        row = await bgio.run_paced(server, size["live_matches"], pace, size["live_seconds"])
    row.update(per_live_match(row["cpu"]["peer_server"]["cores"], row["matches"]))
    return row


def live_ratios(sizing: dict) -> dict:
    """parlour ÷ each peer row: CPU per live match second (above 1: parlour costs more)."""
    ours = sizing["live_matches"]["cpu_us_per_live_match_s"]
    return {
        storage: round(ours / row["cpu_us_per_live_match_s"], 2)
        if ours and row.get("cpu_us_per_live_match_s")
        else None
        for storage, row in sizing.get("live_peer", {}).items()
    }


# -- one match, many spectators ------------------------------------------------------------
async def spectators(stack: LocalStack, size: dict) -> dict:
    """`spectators` StreamEvents watchers of one match whose seats act at the pace that makes
    `deliveries_per_s` deliveries (events x watchers) a second."""
    count, rate = size["spectators"], size["deliveries_per_s"]
    async with GatewayClient(stack.address) as client:
        match = await client.create_match(
            loadgen.GAME, loadgen.SEATS, options=loadgen.OPTIONS, seed=0, spectators=True
        )
        seats = [await client.join(match.name, f"p{s}", seat=s) for s in range(loadgen.SEATS)]
        plan = loadgen.plan_for(0)
        events_per_action = plan.final_sequence / len(plan.actions)
        gap = events_per_action * count / rate
        submitted: dict[int, float] = {}
        latencies: list[float] = []
        clock = time.perf_counter

        async def watch() -> int:
            seen = 0
            call = client.stub.StreamEvents(
                gw.StreamEventsRequest(match=match.name, progress_with_events=True)
            )
            async for item in call:
                kind = item.WhichOneof("kind")
                for event in {"event": [item.event], "batch": item.batch.events}.get(kind, []):
                    latencies.append(clock() - submitted[event.version])
                    seen += 1
                if kind == "finished":
                    return seen
            return seen

        watchers = [asyncio.create_task(watch()) for _ in range(count)]
        while stack.gateway.metric("parlour_subscribers") < count:  # all subscribed
            await asyncio.sleep(0.05)
        meter = CpuMeter(server_pids(stack)).begin()
        began = clock()
        for i, (seat, action) in enumerate(plan.actions):
            submitted[i + 2] = clock()
            await seats[seat].submit(action, request_id=f"s{i}")
            await asyncio.sleep(max(0.0, began + (i + 1) * gap - clock()))
        seen = await asyncio.wait_for(asyncio.gather(*watchers), 60)
        wall = clock() - began
        cpu = meter.end(wall, sum(seen))
        public = await public_events(stack.redis_url, match.name.removeprefix("matches/"))
    return {
        "spectators": count,
        "target_deliveries_per_s": rate,
        "deliveries": sum(seen),
        "deliveries_per_s": round(sum(seen) / wall, 1),
        "delivery": summarize_ms(latencies),
        "cpu_per_delivery": cpu,
        "public_events": public,
        "errors": sum(1 for n in seen if n != public),
    }


# -- one match, 1,000 spectators over the gateway's workers (issue 31 item 3) -----------------
ROOT = Path(__file__).resolve().parents[1]


def worker_pids(parent: int) -> list[int]:
    """The gateway workers of a `--workers` parent (its children running the workers)."""
    with open(f"/proc/{parent}/task/{parent}/children") as listing:
        children = [int(pid) for pid in listing.read().split()]
    out = []
    for pid in children:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            if b"parlour.gateway.worker\0" in cmdline.read():
                out.append(pid)
    return out


async def workers_spectators(size: dict) -> dict:
    """One match, `spectators` StreamEvents watchers spread over `workers` gateway worker
    processes (PARLOUR_GATEWAY_WORKERS: each worker reads the match once for all its
    watchers) and over `readers` reader processes (bench/spectate.py), seats acting at the
    pace that makes `deliveries_per_s`. Every process's CPU is reported: the one at a full
    core is what bounds the rate."""
    spec = size["workers_spectators"]
    count, rate, workers = spec["spectators"], spec["deliveries_per_s"], spec["workers"]
    env = {**UNLIMITED, "PARLOUR_GATEWAY_WORKERS": str(workers)}
    with LocalStack([loadgen.GAME], env=env) as stack:
        gateway = stack.gateway
        ports = [gateway.metrics_port + i for i in range(workers)]
        watchers = [Process(f"worker{i}", gateway.port, gateway.popen, metrics_port=port)
                    for i, port in enumerate(ports)]  # fmt: skip

        def subscribers() -> list[float]:
            """Each worker's subscriber count (0 while its /metrics is not up yet)."""
            counts = []
            for worker in watchers:
                try:
                    counts.append(worker.metric("parlour_subscribers"))
                except OSError:  # urllib's URLError too
                    counts.append(0.0)
            return counts

        async with GatewayClient(stack.address) as client:
            match = await client.create_match(
                loadgen.GAME, loadgen.SEATS, options=loadgen.OPTIONS, seed=0, spectators=True
            )
            seats = [await client.join(match.name, f"p{s}", seat=s) for s in range(loadgen.SEATS)]
            shares = [count // spec["readers"] + (i < count % spec["readers"])
                      for i in range(spec["readers"])]  # fmt: skip
            readers = [
                await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "bench.spectate",
                    stack.address,
                    match.name,
                    str(share),
                    str(spec["connections"]),
                    cwd=ROOT,
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    limit=1 << 24,  # the arrivals line: ~20 bytes per delivery
                )
                for share in shares
            ]
            try:
                for reader in readers:
                    await reader.stdout.readline()
                spread = await asyncio.to_thread(subscribers)
                deadline = time.monotonic() + 60
                while sum(spread) < count:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"{spread} of {count} spectators subscribed")
                    await asyncio.sleep(0.1)
                    spread = await asyncio.to_thread(subscribers)
                pids = {
                    f"gateway worker {i}": p for i, p in enumerate(worker_pids(gateway.popen.pid))
                }
                pids |= {f"reader {i}": r.pid for i, r in enumerate(readers)}
                pids |= {"rules": stack.rules[loadgen.GAME][0].popen.pid,
                         "redis": stack.redis.process.pid, "bench": os.getpid()}  # fmt: skip
                plan = loadgen.plan_for(0)
                gap = plan.final_sequence / len(plan.actions) * count / rate
                submitted: dict[int, float] = {}
                meter = CpuMeter(pids).begin()
                began = time.monotonic()
                for i, (seat, action) in enumerate(plan.actions):
                    submitted[i + 2] = time.monotonic()
                    await seats[seat].submit(action, request_id=f"w{i}")
                    await asyncio.sleep(max(0.0, began + (i + 1) * gap - time.monotonic()))
                lines = [await asyncio.wait_for(r.stdout.readline(), 120) for r in readers]
                wall = time.monotonic() - began
                outputs = [json.loads(line) for line in lines]
                seen = [n for out in outputs for n in out["seen"]]
                cpu = meter.end(wall, sum(seen))  # the readers wait for stdin to end
            finally:
                for reader in readers:  # a reader still reading (an error) is killed
                    reader.stdin.close()
                    try:
                        await asyncio.wait_for(reader.wait(), 10)
                    except TimeoutError:
                        reader.kill()
                        await reader.wait()
            public = await public_events(stack.redis_url, match.name.removeprefix("matches/"))
    latencies = [t - submitted[int(v)] for out in outputs for v, ts in out["arrivals"].items()
                 for t in ts]  # fmt: skip
    return {
        "spectators": count,
        "workers": workers,
        "readers": len(readers),
        "subscribers_per_worker": spread,
        "target_deliveries_per_s": rate,
        "deliveries": sum(seen),
        "deliveries_per_s": round(sum(seen) / wall, 1),
        "delivery": summarize_ms(latencies),
        "cpu_per_delivery": cpu,
        "busiest": max((k for k in cpu if k != "bench"), key=lambda k: cpu[k]["cores"]),
        # what the target rate takes at this run's CPU per delivery (cores, by role)
        "cores_at_target": {
            role: round(
                sum(v["cpu_us_per_op"] for k, v in cpu.items() if k.startswith(prefix))
                * rate
                / 1e6,
                2,
            )
            for role, prefix in (
                ("gateway", "gateway"),
                ("readers", "reader"),
                ("rules+redis", ("rules", "redis")),
            )
        },  # fmt: skip
        "public_events": public,
        "errors": sum(1 for n in seen if n != public) + (count - len(seen)),
    }


# -- Murder Castle at 7 seats -----------------------------------------------------------------
async def murder_castle(stack: LocalStack, size: dict) -> dict:
    """Whole 7-seat Murder Castle matches, a Play session per seat, random legal actions."""
    seats, seeds = 7, size["castle_seeds"]
    count = len(seeds)
    async with GatewayClient(stack.address) as client:
        pool = [await loadgen.prepare_game(client, "murdercastle", seats, s) for s in seeds]
        rec = loadgen.Recorder(0.0, float("inf"))
        meter = CpuMeter(server_pids(stack, game="murdercastle")).begin()
        began = time.perf_counter()
        await asyncio.gather(*(loadgen.play_session(client, m, rec) for m in pool))
        wall = time.perf_counter() - began
        cpu = meter.end(wall, len(rec.ack))
    return {
        "seats": seats,
        "matches": count,
        "actions": len(rec.ack),
        "actions_per_match": round(len(rec.ack) / count, 1),
        "seconds_per_match": round(wall / count, 2) if count else None,
        "ack": summarize_ms([lat for _, lat in rec.ack]),
        "delivery": summarize_ms([lat for _, lat in rec.delivery]),
        "cpu": cpu,
        "server_cpu_us_per_action": server_us(cpu),
        "matches_finished": rec.matches,
        "errors": len(rec.errors),
        "error_samples": rec.errors[:3],
    }


# -- the shape: 1 vs 2 gateways, 1 vs 2 rules replicas ------------------------------------------
async def shape_run(stack: LocalStack, size: dict, gateways: list[Process], offset: int) -> dict:
    """Play at `shape_level`, seat s of each match playing through gateway s mod len."""
    level, seconds = size["shape_level"], size["shape_seconds"]
    clients = [GatewayClient(p.address) for p in gateways]
    for client in clients:
        await client.__aenter__()
    try:
        pool = await loadgen.prepare(clients[0], level * 3 + int(seconds * 40), offset=offset)
        for m in pool:
            m.seats = [
                Seat(clients[s.seat % len(clients)], s.match, s.seat, s.token) for s in m.seats
            ]
        warm, pool = pool[:level], pool[level:]
        await asyncio.gather(
            *(loadgen.play_session(clients[0], m, loadgen.Recorder(0, 0)) for m in warm)
        )
        meter = CpuMeter(server_pids(stack, gateways)).begin()
        began = time.perf_counter()
        result, rec = await loadgen.run_level(clients[0], "play", level, pool, 0.3, seconds)
        result["cpu"] = meter.end(time.perf_counter() - began, len(rec.ack))
    finally:
        for client in clients:
            await client.__aexit__(None, None, None)
    result["server_cpu_us_per_action"] = server_us(result["cpu"])
    result["gateways"] = len(gateways)
    result["rules_replicas"] = len(stack.rules[loadgen.GAME])
    return result


async def shape(stack: LocalStack, size: dict, started: list[Process]) -> dict:
    """1 gateway and 1 rules replica; a second gateway; then a second rules replica behind
    a fresh gateway."""

    def gateway() -> Process:
        routes = f"{loadgen.GAME}={stack.rules_target(loadgen.GAME)}"
        started.append(stack.start_gateway(routes))
        wait_serving(started[-1])
        return started[-1]

    runs = {"1 gateway, 1 rules": await shape_run(stack, size, [stack.gateway], 40_000)}
    runs["2 gateways, 1 rules"] = await shape_run(stack, size, [stack.gateway, gateway()], 50_000)
    stack.rules[loadgen.GAME].append(stack.start_rules(loadgen.GAME))
    wait_serving(stack.rules[loadgen.GAME][-1])
    runs["1 gateway, 2 rules"] = await shape_run(stack, size, [gateway()], 60_000)
    return runs


async def run_all(quick: bool, log=print, live: int = 0, peer: bool = True) -> dict:
    """Every scenario on one stack (tinycards and murdercastle), in order; then the
    boardgame.io peer's live matches (in memory and FlatFile) at the same pace and count.
    `live` overrides the live match count (ISSUE_LIVE: the issue's size)."""
    size = dict(SIZES["quick" if quick else "full"])
    if live:
        size["live_matches"] = live
    out: dict = {
        "sizes": size,
        "scaled_down_from": {"live_matches": ISSUE_LIVE, "spectators": 1000},
    }
    with LocalStack([loadgen.GAME, "murdercastle"], env=UNLIMITED) as stack:
        started: list[Process] = []
        try:
            for name, scenario in (
                ("live_matches", live_matches),
                ("spectators", spectators),
                ("murder_castle", murder_castle),
            ):
                began = time.perf_counter()
                out[name] = await scenario(stack, size)
                log(f"  sizing {name}: {time.perf_counter() - began:.1f} s")
            began = time.perf_counter()
            out["shape"] = await shape(stack, size, started)
            log(f"  sizing shape: {time.perf_counter() - began:.1f} s")
        finally:
            for proc in started:
                proc.stop()
    began = time.perf_counter()
    out["workers_spectators"] = await workers_spectators(size)
    log(f"  sizing spectators over workers: {time.perf_counter() - began:.1f} s")
    if peer:
        out["live_peer"] = {}
        for storage in bgio.STORAGES:
            began = time.perf_counter()
            out["live_peer"][storage] = await live_peer(size, storage)
            log(f"  sizing live, boardgame.io {storage}: {time.perf_counter() - began:.1f} s")
        out["live_vs_peer"] = live_ratios(out)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="every scenario, tiny")
    parser.add_argument("--out", default="", help="write the JSON here")
    parser.add_argument(
        "--live",
        type=int,
        default=0,
        help=f"live matches (default: SIZES; {ISSUE_LIVE} = the issue's)",
    )
    parser.add_argument("--no-peer", action="store_true", help="skip the boardgame.io peer")
    args = parser.parse_args()
    import uvloop

    log = lambda t: print(t, file=sys.stderr)  # noqa: E731
    results = uvloop.run(run_all(args.quick, log, live=args.live, peer=not args.no_peer))
    text = json.dumps(results, indent=2) + "\n"
    if args.out:
        Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
