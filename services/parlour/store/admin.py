"""Host operations on stored matches, run against PARLOUR_REDIS_URL (or --redis-url):

    parlour match delete MATCH [MATCH …]   remove every key of each match now
    parlour match show MATCH               game, status, version, rules version, expiry

Neither is reachable through the public player API: deleting is the host's decision,
made with the host's Redis credentials.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from parlour.store import keys
from parlour.store.matchstore import MatchStore
from parlour.store.server import configured_url


async def delete(url: str, matches: list[str]) -> dict[str, bool]:
    """Delete each match; whether it existed."""
    store = MatchStore.from_url(url)
    try:
        return {match: await store.delete(match) for match in matches}
    finally:
        await store.close()


async def show(url: str, match: str) -> dict[str, str] | None:
    """What a host needs to see about one stored match (None if it is not stored)."""
    store = MatchStore.from_url(url)
    try:
        pipe = store.redis.pipeline(transaction=False)
        pipe.hmget(keys.meta(match), "game", "seats", "status", "rules")
        pipe.hget(keys.state(match), "v")
        pipe.ttl(keys.state(match))
        (game, seats, status, rules), version, ttl = await pipe.execute()
    finally:
        await store.close()
    if game is None and version is None:
        return None
    return {
        "match": match,
        "game": (game or b"?").decode(),
        "seats": (seats or b"?").decode(),
        "status": (status or b"in play").decode(),
        "version": (version or b"0").decode(),
        "rules version": (rules or b"1").decode(),
        "expires": "never" if ttl < 0 else f"in {ttl} s",
    }


def run(args: argparse.Namespace) -> None:
    url = args.redis_url or configured_url()
    if not url:
        sys.exit("no Redis: set PARLOUR_REDIS_URL or pass --redis-url")
    if args.match_command == "delete":
        results = asyncio.run(delete(url, args.matches))
        for match, existed in results.items():
            print(f"{match}: {'deleted' if existed else 'not found'}")
        sys.exit(0 if all(results.values()) else 1)
    found = asyncio.run(show(url, args.match))
    if found is None:
        sys.exit(f"{args.match}: not found")
    print("  ".join(f"{k}={v}" for k, v in found.items()))
