"""Matchmaking tickets in Redis (issue 45): one pool per game, variant, options and
rated-or-friendly, every key of a pool under one hash tag (store/keys.pool_tag), so a
ticket's changes (tickets.lua) and a matching pass (match.lua) are each one atomic script
on standalone, Sentinel or Cluster alike. A ticket is matched at most once: only a pass
moves it from searching to matched, and only while it is searching."""

from __future__ import annotations

import json
import secrets
import time
import uuid
from dataclasses import dataclass
from importlib import resources

import redis.asyncio as aioredis

from parlour.store import keys


def now_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass(frozen=True, slots=True)
class Window:
    """How far a ticket's rating window reaches: `start` at once, growing `growth` a
    second, never past `limit` (all in rating points, mu)."""

    start: float
    growth: float
    limit: float

    def at(self, waited_ms: int) -> float:
        return min(self.start + self.growth * waited_ms / 1000, self.limit)


@dataclass(frozen=True, slots=True)
class PassRules:
    """A matching pass's settings (ms): the window, when bots fill (0 never), the longest
    wait, the grace a ticket without a stream keeps, how long finished tickets are kept."""

    window: Window
    bots_after_ms: int
    longest_ms: int
    grace_ms: int
    keep_ms: int
    anchors: int = 200
    matches: int = 64


def pool_keys(pool: str) -> list[str]:
    return [keys.tickets(pool), keys.ticket_ratings(pool), keys.ticket_waiting(pool),
            keys.tickets_done(pool)]


class TicketStore:
    """Tickets and matching passes on one Redis client."""

    def __init__(self, client: aioredis.Redis) -> None:
        self.redis = client
        folder = resources.files("parlour.store")
        self._ticket = client.register_script(folder.joinpath("tickets.lua").read_text())
        self._match = client.register_script(folder.joinpath("match.lua").read_text())
        self._claim = client.register_script(folder.joinpath("bots.lua").read_text())

    async def put(self, pool: str, ticket_id: str, ticket: dict, lifetime_ms: int) -> None:
        """Store a new searching ticket and list its pool; the pool's keys live
        `lifetime_ms` past its newest ticket (longer than any wait plus the keep)."""
        args = ["put", ticket_id, json.dumps(ticket), ticket["r"], ticket["t"], lifetime_ms]
        await self._ticket(keys=pool_keys(pool), args=args)
        await self.redis.zadd(keys.POOLS, {pool: ticket["t"]})

    async def touch(self, pool: str, ticket_id: str, lease_ms: int, grace_ms: int,
                    longest_ms: int) -> dict | None:
        """Renew a ticket's lease (a stream follows it) until now + lease_ms, and return it;
        lease_ms 0 lets the lease lapse now (the stream closed). None: no such ticket. A
        party still gathering `longest_ms` after it was asked expires."""
        now = now_ms()
        raw = await self._ticket(keys=pool_keys(pool), args=[
            "touch", ticket_id, now + lease_ms, now, grace_ms, longest_ms])
        return json.loads(raw) if raw else None

    async def get(self, pool: str, ticket_id: str) -> dict | None:
        raw = await self.redis.hget(keys.tickets(pool), ticket_id)
        return json.loads(raw) if raw else None

    async def cancel(self, pool: str, ticket_id: str) -> dict | None:
        """Cancel a searching ticket; returns the ticket as it stands after (None: unknown)."""
        raw = await self._ticket(keys=pool_keys(pool), args=["cancel", ticket_id, now_ms()])
        return json.loads(raw) if raw else None

    async def confirm(self, pool: str, ticket_id: str, subject: str, name: str) -> dict | None:
        """A party member (identity on) confirms under `name`; the ticket after (None:
        unknown). The last confirmation puts the ticket in the pool."""
        raw = await self._ticket(keys=pool_keys(pool),
                                 args=["confirm", ticket_id, subject, name, now_ms()])
        return json.loads(raw) if raw else None

    async def pools(self, lifetime_ms: int) -> list[str]:
        """Pools with a ticket asked for within `lifetime_ms` (the pool lifetime); older
        ones, whose keys have expired, are dropped from the list."""
        now = now_ms()
        await self.redis.zremrangebyscore(keys.POOLS, "-inf", f"({now - lifetime_ms}")
        return [p.decode() for p in await self.redis.zrangebyscore(keys.POOLS, now - lifetime_ms,
                                                                    "+inf")]

    async def run_pass(
        self, pool: str, rules: PassRules
    ) -> tuple[int, list[tuple[str, list[str]]]]:
        """One matching pass: (tickets still searching, [(match id, ticket ids)])."""
        w = rules.window
        args: list = [now_ms(), w.start, w.growth, w.limit, rules.bots_after_ms,
                      rules.longest_ms, rules.grace_ms, rules.keep_ms, rules.anchors]
        for _ in range(rules.matches):
            args += [uuid.uuid4().hex, str(secrets.randbits(63))]
        reply = await self._match(keys=pool_keys(pool), args=args)
        made: list[tuple[str, list[str]]] = []
        current: list[str] = []
        for item in reply[1:]:
            text = item.decode()
            if text:
                current.append(text)
            else:
                made.append((current[0], current[1:]))
                current = []
        return int(reply[0]), made

    async def lease_bots(self, match: str, bots: dict, until_ms: int) -> None:
        """Hold a matchmade match's bots (`bots`: seats, n restarts) until `until_ms`."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(keys.BOT_SEATS, match, json.dumps(bots))
        pipe.zadd(keys.BOT_LEASES, {match: until_ms})
        await pipe.execute()

    async def renew_bots(self, matches: list[str], until_ms: int) -> None:
        """Renew the leases of the bots this gateway runs (only leases still listed)."""
        if matches:
            await self.redis.zadd(keys.BOT_LEASES, dict.fromkeys(matches, until_ms), xx=True)

    async def claim_bots(self, until_ms: int, most: int) -> list[tuple[str, dict]]:
        """Lapsed bot leases, now held until `until_ms` by this caller alone."""
        reply = await self._claim(keys=[keys.BOT_LEASES, keys.BOT_SEATS],
                                  args=[now_ms(), until_ms, most])
        return [(reply[i].decode(), json.loads(reply[i + 1]) if reply[i + 1] else {})
                for i in range(0, len(reply), 2)]

    async def drop_bots(self, match: str) -> None:
        """The match's bots are done (it ended, or they cannot run): no lease."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.zrem(keys.BOT_LEASES, match)
        pipe.hdel(keys.BOT_SEATS, match)
        await pipe.execute()
