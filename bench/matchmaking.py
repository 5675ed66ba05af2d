"""Matchmaking (issue 45): time to match, rating spread per match, CPU per ticket.

    python -m bench.matchmaking [--quick] [--tickets N] [--seconds S]

Two gateway processes, one tinycards rules service and Redis (real processes); N tickets
(default 2,000; --quick 40) arrive spread evenly over S seconds (default 60; --quick 3),
alternately on the two gateways, each person's rating (mu) drawn from a normal
distribution (mean 25, deviation 8, seeded) and stored as their record before the run.
Each ticket asks for a two-seat rated match and follows its stream to the end. Reported:
time from asking to MATCHED (p50/p99), the rating spread of each match (largest minus
smallest mu in it), and CPU per ticket of each server process (gateways, rules, Redis)
and of this load generator, plus the load average (the machine is shared: read the CPU
numbers with it). Settings are the gateway's defaults but the pass and poll periods.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import time

import redis.asyncio as aioredis

from bench.stats import CpuMeter, percentile, summarize_ms
from parlour.client import GatewayClient
from parlour.client.matchmaking import Ask, find_match
from parlour.gateway.records import name_key
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.launcher import LocalStack, wait_serving
from parlour.store import keys
from parlour.store.ratingstore import Standing

GAME, VARIANT = "tinycards", "standard"
ENV = {
    "PARLOUR_CREATES_PER_MINUTE": "0",
    "PARLOUR_STREAMS_PER_CONNECTION": "0",
    "PARLOUR_MATCH_PASS_SECONDS": "0.1",
    "PARLOUR_MATCH_POLL_SECONDS": "0.5",
}


async def seed_ratings(redis_url: str, ratings: dict[str, float]) -> None:
    """Every person's record before the run: mu as drawn, sigma 2 (an established player)."""
    redis = aioredis.from_url(redis_url)
    try:
        await redis.hset(keys.players(GAME, VARIANT), mapping={
            name_key(name): Standing(mu, 2.0, 10, 5, name).encode()
            for name, mu in ratings.items()})
    finally:
        await redis.aclose()


async def one_ticket(client: GatewayClient, name: str, at: float, out: dict) -> None:
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    asked = time.monotonic()
    async for state in find_match(client, Ask(GAME, name=name)):
        if state.state == gw.TICKET_STATE_MATCHED:
            out[name] = (time.monotonic() - asked, state.match)
            return


async def measure(addresses: list[str], redis_url: str, pids: dict[str, int], tickets: int,
                  seconds: float, seed: int) -> dict:
    rng = random.Random(seed)
    ratings = {f"person-{i}": rng.gauss(25.0, 8.0) for i in range(tickets)}
    await seed_ratings(redis_url, ratings)
    clients = [GatewayClient(a) for a in addresses]
    matched: dict[str, tuple[float, str]] = {}
    meter = CpuMeter(pids).begin()
    started = time.monotonic()
    load_before = os.getloadavg()
    tasks = [asyncio.create_task(one_ticket(
        clients[i % len(clients)], name, started + seconds * i / tickets, matched))
        for i, name in enumerate(ratings)]
    done, pending = await asyncio.wait(tasks, timeout=seconds + 120)
    for task in pending:
        task.cancel()
    wall = time.monotonic() - started
    cpu = meter.end(wall, tickets)
    load_after = os.getloadavg()
    for client in clients:
        await client.close()
    for task in done:
        task.result()
    by_match: dict[str, list[float]] = {}
    for name, (_, match) in matched.items():
        by_match.setdefault(match, []).append(ratings[name])
    spreads = sorted(max(mus) - min(mus) for mus in by_match.values())
    waits = summarize_ms([took for took, _ in matched.values()])
    return {
        "tickets": tickets,
        "arrivals_over_s": seconds,
        "matched": len(matched),
        "unmatched": tickets - len(matched),
        "matches": len(by_match),
        "time_to_match": waits,
        "rating_spread": {
            "p50": round(percentile(spreads, 50), 2),
            "p99": round(percentile(spreads, 99), 2),
            "mean": round(sum(spreads) / len(spreads), 2) if spreads else None,
            "rating_sd": 8.0,
        },
        "cpu_us_per_ticket": {name: row["cpu_us_per_op"] for name, row in cpu.items()},
        "cores": {name: row["cores"] for name, row in cpu.items()},
        "loadavg_before": [round(x, 2) for x in load_before],
        "loadavg_after": [round(x, 2) for x in load_after],
        "wall_s": round(wall, 1),
    }


def run(tickets: int, seconds: float, seed: int = 45) -> dict:
    """Start the stack (two gateways), measure, stop."""
    with LocalStack([GAME], env=ENV) as stack:
        second = stack.start_gateway(f"{GAME}={stack.rules_target(GAME)}")
        try:
            wait_serving(second)
            pids = {
                "gateway_a": stack.gateway.popen.pid,
                "gateway_b": second.popen.pid,
                "rules": stack.rules[GAME][0].popen.pid,
                "redis": stack.redis.process.pid if stack.redis else 0,
                "bench": os.getpid(),
            }
            return asyncio.run(measure([stack.address, second.address], stack.redis_url,
                                       pids, tickets, seconds, seed))
        finally:
            second.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="40 tickets over 3 s")
    parser.add_argument("--tickets", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    tickets, seconds = (40, 3.0) if args.quick else (args.tickets, args.seconds)
    result = run(tickets, seconds)
    waits, spread = result["time_to_match"], result["rating_spread"]
    print(f"matchmaking: {result['matched']}/{tickets} tickets matched; time to match "
          f"p50 {waits['p50_ms']:.0f} ms, p99 {waits['p99_ms']:.0f} ms; rating spread per "
          f"match p50 {spread['p50']}, p99 {spread['p99']} (ratings' sd 8); load average "
          f"{result['loadavg_after'][0]}")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
