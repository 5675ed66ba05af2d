"""Measure what one match costs in Redis, per game, for sizing (deploy/README.md).

    python -m bench.redis_sizing [--matches 3] [GAME …]

Runs a local stack (real processes, an embedded Valkey), plays random bot matches through
the gateway, and sums MEMORY USAGE over every key of each match: just created with every
seat taken (a live match before play), finished (with its request records, kept the retry
window for late retries) and finished once the retry window has passed (every key the
finished retention keeps: meta, state, events, action log). The stack runs with a retry
window of WINDOW seconds so the last column is measured after Redis expired the records,
not computed, and itemised by key. Prints a Markdown table; issue 41 item 4's goal is ≤ 4 KB
for tinycards (`make bench` prints that row: `after_window`).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import redis.asyncio as aioredis

from parlour.client import GatewayClient
from parlour.client.bots import play_random_match
from parlour.engine.registry import get_game, playable_games
from parlour.launcher import LocalStack
from parlour.store import keys

#: PARLOUR_REQUEST_RETRY_SECONDS for the measuring stack (the default is 600).
WINDOW = 1
#: Issue 41 item 4: a finished tinycards match, once its retry window passed, in bytes.
GOAL = 4096


async def expired(redis, key: str) -> None:
    """Wait until Redis expired `key` (the retry window has passed)."""
    deadline = time.monotonic() + WINDOW + 10
    while await redis.exists(key):
        if time.monotonic() > deadline:
            raise RuntimeError(f"{key} outlived the retry window")
        await asyncio.sleep(0.1)


async def key_bytes(redis, match: str) -> dict[str, int]:
    """Bytes Redis reports for each key of the match that exists, by kind (state, events…)."""
    out = {}
    for key in keys.all_for(match):
        used = await redis.memory_usage(key, samples=0)
        if used:
            out[key.rsplit(":", 1)[1]] = used
    return out


async def match_bytes(redis, match: str) -> int:
    """Bytes Redis reports for every key of the match."""
    return sum((await key_bytes(redis, match)).values())


async def measure(address: str, redis_url: str, game: str, matches: int) -> dict[str, float]:
    redis = aioredis.from_url(redis_url)
    seats = get_game(game).min_seats
    created, finished, kept, actions, events = [], [], [], [], []
    by_key: dict[str, list[int]] = {}
    try:
        async with GatewayClient(address) as client:
            for seed in range(matches):
                probe = await client.create_match(game, seats, seed=seed)
                for seat in range(seats):
                    await client.join(probe.name, f"p{seat}", seat=seat)
                created.append(await match_bytes(redis, probe.name.removeprefix("matches/")))
                report = await play_random_match(client, game, seats, seed=seed)
                match = report.match.name.removeprefix("matches/")
                finished.append(await match_bytes(redis, match))
                await expired(redis, keys.requests(match))
                left = await key_bytes(redis, match)
                kept.append(sum(left.values()))
                for kind, used in left.items():
                    by_key.setdefault(kind, []).append(used)
                actions.append(report.actions)
                events.append(report.progress.last_sequence)
    finally:
        await redis.aclose()
    mean = statistics.mean
    return {
        "seats": seats,
        "actions": mean(actions),
        "events": mean(events),
        "created": mean(created),
        "finished": mean(finished),
        "kept": mean(kept),
        "kept_by_key": {kind: round(sum(v) / matches) for kind, v in by_key.items()},
    }


async def after_window(matches: int) -> dict:
    """A finished tinycards match's bytes once its retry window has passed, by key, from a
    stack of its own (WINDOW-second window), as bench.run reports them (issue 41 item 4)."""
    with LocalStack(["tinycards"], env={"PARLOUR_REQUEST_RETRY_SECONDS": str(WINDOW)}) as stack:
        row = await measure(stack.address, stack.redis_url, "tinycards", matches)
    return {
        "bytes_per_match": round(row["kept"]),
        "by_key": row["kept_by_key"],
        "matches": matches,
        "actions": row["actions"],
        "events": row["events"],
        "goal_bytes": GOAL,
    }


async def main_async(games: list[str], matches: int) -> None:
    with LocalStack(games, env={"PARLOUR_REQUEST_RETRY_SECONDS": str(WINDOW)}) as stack:
        rows = {
            game: await measure(stack.address, stack.redis_url, game, matches) for game in games
        }
    print(
        "| game | seats | actions | events | live, seated, before play | finished | "
        "finished, after the retry window |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for game, r in rows.items():
        print(
            f"| {game} | {r['seats']} | {r['actions']:.0f} | {r['events']:.0f} | "
            f"{r['created'] / 1024:.1f} KiB | {r['finished'] / 1024:.1f} KiB | "
            f"{r['kept'] / 1024:.1f} KiB ({r['kept']:.0f} B: "
            + ", ".join(f"{k} {v}" for k, v in r["kept_by_key"].items())
            + ") |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--matches", type=int, default=3)
    options = parser.parse_args()
    games = options.games or [g.name for g in playable_games()]
    asyncio.run(main_async(games, options.matches))


if __name__ == "__main__":
    main()
