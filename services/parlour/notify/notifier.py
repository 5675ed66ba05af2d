"""The notifier: sends the outbox's notices to the host's webhook, signed, at least once.

Notifiers form one consumer group on the outbox stream, so a pool sends each notice once.
A notice is acknowledged only after the receiver answered 2xx (or after MAX_ATTEMPTS, when
it moves to the dead-letter stream); until then it stays pending, and any notifier claims it
again once it has been idle for its backoff (1 s, doubling, at most 10 min, and never less
than the POST timeout + 1 s, so a try in flight is not duplicated) — a notice a killed
notifier was sending included. Each POST carries `Parlour-Signature:
t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` and `Idempotency-Key`.
Every PARLOUR_NOTIFY_SWEEP_SECONDS a notifier also re-reads each timed match (closing the gap
between a commit and its outbox write) and writes "clock_low" for seats near their deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import os
import time
from typing import Annotated

import httpx
import redis.asyncio as aioredis
import redis.exceptions
from pydantic import Field

from parlour.clock import now_ms
from parlour.notify.outbox import GROUP, KINDS, STREAM, Outbox
from parlour.rules.v1 import rules_pb2 as pb
from parlour.settings import Settings, load
from parlour.store import keys

log = logging.getLogger("parlour.notify")
DEAD = "parlour:notify:dead"
MAX_ATTEMPTS = 12


def prefs_key(player: str) -> str:
    """Set of the notice kinds a person turned OFF (player: 'players/<record key>')."""
    return f"parlour:notify-prefs:{player.removeprefix('players/')}"


class NotifierSettings(Settings):
    """PARLOUR_NOTIFY_*: where and how notices are sent."""

    redis_url: str = Field(min_length=1)
    notify_url: str = ""
    notify_secret: str = ""
    notify_clock_low_hours: Annotated[float, Field(ge=0)] = 12.0
    notify_sweep_seconds: Annotated[float, Field(gt=0)] = 30.0
    notify_backoff_seconds: Annotated[float, Field(gt=0)] = 1.0
    #: A receiver that does not answer within this many seconds counts as a failure; no
    #: notice is claimed again sooner than this after its last try began.
    notify_post_timeout_seconds: Annotated[float, Field(gt=0)] = 10.0


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The Parlour-Signature header value for `body` sent at `timestamp` (Unix seconds)."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def verify(secret: str, header: str, body: bytes, tolerance: float = 300.0) -> bool:
    """Whether `header` signs `body` with `secret` within `tolerance` seconds (for receivers)."""
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    try:
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    expected = sign(secret, timestamp, body).split("v1=", 1)[1]
    fresh = abs(time.time() - timestamp) <= tolerance
    return fresh and hmac.compare_digest(expected, parts.get("v1", ""))


class Notifier:
    """One consumer of the outbox group."""

    def __init__(self, redis, settings: NotifierSettings, name: str | None = None) -> None:
        self.redis = redis
        self.settings = settings
        self.name = name or f"notifier-{os.getpid()}"
        self.http = httpx.AsyncClient(timeout=settings.notify_post_timeout_seconds)
        self.outbox = Outbox(redis)

    async def ensure_group(self) -> None:
        try:
            await self.redis.xgroup_create(STREAM, GROUP, id="0", mkstream=True)
        except redis.exceptions.ResponseError as error:
            if "BUSYGROUP" not in str(error):
                raise

    async def run(self) -> None:
        """Send, retry and sweep until cancelled."""
        await self.ensure_group()
        swept = 0.0
        while True:
            try:
                await self.retry_due()
                if time.monotonic() - swept >= self.settings.notify_sweep_seconds:
                    await self.sweep()
                    swept = time.monotonic()
                got = await self.redis.xreadgroup(GROUP, self.name, {STREAM: ">"}, count=16,
                                                  block=500)
                for _, entries in got or []:
                    for entry_id, fields in entries:
                        await self.deliver(entry_id, fields, attempt=1)
            except (redis.exceptions.ConnectionError, OSError):
                log.exception("notifier: Redis away")
                await asyncio.sleep(1)

    def backoff(self, deliveries: int) -> float:
        """Seconds a notice delivered `deliveries` times waits before the next try: never
        less than a POST may take, so a try still in flight is not sent twice by the pool."""
        doubled = self.settings.notify_backoff_seconds * 2 ** max(0, deliveries - 1)
        return max(self.settings.notify_post_timeout_seconds + 1, min(600.0, doubled))

    async def retry_due(self) -> None:
        """Claim and re-send the pending notices whose backoff passed (any consumer's)."""
        pending = await self.redis.xpending_range(STREAM, GROUP, "-", "+", 64)
        for item in pending:
            deliveries = item["times_delivered"]
            if item["time_since_delivered"] < self.backoff(deliveries) * 1000:
                continue
            claimed = await self.redis.xclaim(
                STREAM, GROUP, self.name, int(self.backoff(deliveries) * 1000),
                [item["message_id"]],
            )
            for entry_id, fields in claimed:
                if fields:
                    await self.deliver(entry_id, fields, attempt=deliveries + 1)

    async def deliver(self, entry_id, fields, attempt: int) -> None:
        """POST one notice; acknowledge it on 2xx, on an opt-out, or after MAX_ATTEMPTS."""
        body = fields[b"n"]
        notice = json.loads(body)
        if await self.opted_out(notice) or await self.post(notice["id"], body):
            await self.redis.xack(STREAM, GROUP, entry_id)
        elif attempt >= MAX_ATTEMPTS:
            await self.redis.xadd(DEAD, {"n": body}, maxlen=10_000, approximate=True)
            await self.redis.xack(STREAM, GROUP, entry_id)
            log.warning("notice given up", extra={"id": notice["id"]})

    async def opted_out(self, notice: dict) -> bool:
        player = notice.get("player", "")
        return bool(player) and bool(
            await self.redis.sismember(prefs_key(player), notice["type"])
        )

    async def post(self, key: str, body: bytes) -> bool:
        """Whether the receiver took the notice (any 2xx)."""
        if not self.settings.notify_url:
            return False
        headers = {
            "Content-Type": "application/json",
            "Idempotency-Key": key,
            "Parlour-Signature": sign(self.settings.notify_secret, int(time.time()), body),
        }
        try:
            reply = await self.http.post(self.settings.notify_url, content=body, headers=headers)
        except httpx.HTTPError as error:
            log.info("notice not sent", extra={"id": key, "error": str(error)})
            return False
        return 200 <= reply.status_code < 300

    async def sweep(self) -> None:
        """Re-read every timed match: notices a commit did not write, and clock_low."""
        low = int(self.settings.notify_clock_low_hours * 3_600_000)
        async for timers in self.redis.scan_iter(match=keys.timers("*")):
            async for member, _ in self.redis.zscan_iter(timers):
                match = member.decode()
                raw = await self.redis.hget(keys.state(match), "p")
                if raw:
                    progress = pb.MatchProgress.FromString(raw)
                    await self.outbox.changed(match, progress, low, now_ms())


async def serve(settings: NotifierSettings) -> None:
    """One notifier until cancelled."""
    client = aioredis.from_url(settings.redis_url)
    notifier = Notifier(client, settings)
    try:
        await notifier.run()
    finally:
        await notifier.http.aclose()
        await client.aclose()


def main() -> None:
    """`parlour serve-notifier`: settings are checked before anything starts."""
    settings = load(NotifierSettings)
    logging.basicConfig(level=logging.INFO)
    if not settings.notify_url:
        log.warning("PARLOUR_NOTIFY_URL is empty: notices stay in the outbox")
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(settings))


__all__ = ["KINDS", "Notifier", "NotifierSettings", "main", "serve", "sign", "verify"]
