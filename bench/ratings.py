"""Ratings (issue 36): updates per second and Redis bytes per person.

    python -m bench.ratings [--quick] [--profile]

Plays finished tinycards matches between people drawn from a pool (a real rules core on a
real Redis), then forgets every rating and rates all the matches again, one after another
and 16 at a time, timing only the rating (rules/ratings.py: read the standings, openskill,
store/ratings.lua). The floor in the same run is openskill alone (the same updates, no
Redis): the ratio says what the store adds. Bytes per person: MEMORY USAGE of every
ratings key (leaderboard, standings, recent lists, boards set) over the people on the
board; a match's `rated` marker is counted apart (it expires after a week).
`make bench` runs it as its "ratings" section; `--profile` adds where the time goes
(bench/results/profile-i36-ratings.txt).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
import uuid

import redis.asyncio as aioredis

from bench.stats import CpuMeter
from parlour.engine.registry import get_game
from parlour.engine.rng import Rng
from parlour.rules.core import RulesCore, pack
from parlour.rules.ratings import rate
from parlour.rules.v1 import rules_pb2 as pb
from parlour.store import keys
from parlour.store.matchstore import MatchStore
from parlour.store.ratingstore import Standing

GAME, VARIANT = "tinycards", "standard"


async def finished_match(core: RulesCore, store: MatchStore, players: list[str], seed: int) -> str:
    """A tinycards match between `players` (record keys), played to its end."""
    match = uuid.uuid4().hex
    await core.create_match(pb.CreateMatchRequest(
        match_id=match, options=pack(core.game.default_options(2)), seats=2, seed=seed,
        meta={"game": GAME, "seats": "2"}))
    for seat, player in enumerate(players):
        await store.take_seat(match, seat, f"h{seat}", f"P {player[-6:]}", "", "f", record=player)
    rng, step = Rng.from_seed(seed), 0
    progress = (await core.current(match)).progress
    while not progress.HasField("outcome"):
        seat = progress.pending[0].seat
        actions = (await core.list_actions(match, seat)).actions
        progress = (await core.act(pb.ActRequest(
            match_id=match, seat=seat, action=actions[rng.below(len(actions))],
            token_hash=f"h{seat}", request_id=f"r{step}"))).result.progress
        step += 1
    return match


async def forget(redis, matches: list[str], people: list[str]) -> None:
    """Every rating and marker gone, so the same matches can be rated again."""
    doomed = [keys.board(GAME, VARIANT), keys.players(GAME, VARIANT)]
    doomed += [keys.rated(GAME, VARIANT, m) for m in matches]
    doomed += [keys.recent(GAME, VARIANT, p) for p in people]
    await redis.delete(*doomed)


async def timed(core: RulesCore, matches: list[str], concurrency: int, pids: dict) -> dict:
    meter = CpuMeter(pids).begin()
    started = time.perf_counter()
    queue = list(matches)

    async def worker() -> None:
        while queue:
            assert await core.ratings.settle(queue.pop(), 0) == "applied"

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    wall = time.perf_counter() - started
    return {"updates_per_s": round(len(matches) / wall, 1), "cpu": meter.end(wall, len(matches))}


def floor(updates: int) -> dict:
    """openskill alone: the same number of two-player updates, no Redis."""
    side = [[Standing(25.0, 25 / 3, 0, 0, "")], [Standing(25.0, 25 / 3, 0, 0, "")]]
    started = time.process_time()
    for _ in range(updates):
        rate(side, (1, 2))
    used = time.process_time() - started
    return {"updates_per_s": round(updates / used, 1),
            "cpu_us_per_update": round(used / updates * 1e6, 1)}


async def bytes_per_person(redis, matches: list[str], people: list[str]) -> dict:
    usage = 0
    for key in [keys.board(GAME, VARIANT), keys.players(GAME, VARIANT)]:
        usage += await redis.memory_usage(key, samples=0) or 0
    for person in people:
        for key in (keys.recent(GAME, VARIANT, person), keys.played(person)):
            usage += await redis.memory_usage(key, samples=0) or 0
    marker = [await redis.memory_usage(keys.rated(GAME, VARIANT, m), samples=0) or 0
              for m in matches[:20]]
    return {
        "bytes_per_person": round(usage / len(people)),
        "matches_per_person": round(2 * len(matches) / len(people), 1),
        "rated_marker_bytes_per_match": round(sum(marker) / len(marker)),
    }


async def profiled(core: RulesCore, matches: list[str]) -> str:
    """pyinstrument's tree of the matches rated one after another (where the time goes)."""
    from pyinstrument import Profiler

    profiler = Profiler(async_mode="enabled")
    profiler.start()
    for match in matches:
        await core.ratings.settle(match, 0)
    profiler.stop()
    return profiler.output_text(unicode=False, color=False)


async def run(redis_url: str, redis_pid: int, quick: bool, log=print,
              profile: bool = False) -> dict:
    """The ratings section: updates/s (1 and 16 at a time, with CPU per update of this
    process and Redis), the openskill floor, and bytes per person; with `profile`, a
    further pass under pyinstrument, logged."""
    people_count, match_count = (10, 20) if quick else (200, 1000)
    store = MatchStore.from_url(redis_url)
    redis = aioredis.from_url(redis_url)
    core = RulesCore(get_game(GAME), store)
    rng = Rng.from_seed(36)
    people = [f"n{uuid.uuid4().hex}" for _ in range(people_count)]
    try:
        matches = []
        for seed in range(match_count):
            first = rng.below(people_count)
            second = (first + 1 + rng.below(people_count - 1)) % people_count
            matches.append(await finished_match(core, store, [people[first], people[second]],
                                                seed))
        pids = {"bench": os.getpid(), "redis": redis_pid}
        out: dict = {"matches": match_count, "people": people_count}
        for concurrency in (1, 16):
            await forget(redis, matches, people)
            out[f"c{concurrency}"] = row = await timed(core, matches, concurrency, pids)
            log(f"  ratings c={concurrency}: {row['updates_per_s']:.0f} updates/s, "
                f"{row['cpu']['bench']['cpu_us_per_op']:.0f} us rules + "
                f"{row['cpu']['redis']['cpu_us_per_op']:.0f} us Redis CPU per update")
        out["floor_openskill"] = floor(match_count)
        out["x_floor"] = round(
            out["c1"]["updates_per_s"] / out["floor_openskill"]["updates_per_s"], 3)
        out["memory"] = await bytes_per_person(redis, matches, people)
        log(f"  openskill alone {out['floor_openskill']['updates_per_s']:.0f} updates/s "
            f"(ratings c=1 = {out['x_floor']:.2f}x that); "
            f"{out['memory']['bytes_per_person']} B per person in Redis "
            f"({out['memory']['matches_per_person']} matches each), "
            f"+{out['memory']['rated_marker_bytes_per_match']} B per match while it is kept")
        if profile:
            await forget(redis, matches, people)
            log(await profiled(core, matches))
        await forget(redis, matches, people)
        await redis.delete(*(keys.played(p) for p in people))
        return out
    finally:
        await redis.aclose()
        await store.close()


def main() -> None:
    from parlour.store.server import EmbeddedRedis

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--profile", action="store_true",
                        help="also rate the matches once more under pyinstrument and print where "
                        "the time goes")
    args = parser.parse_args()
    with EmbeddedRedis() as server:
        result = asyncio.run(run(server.url, server.process.pid, args.quick,
                                 profile=args.profile))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
