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
from pydantic import Field

from parlour.clock import now_ms
from parlour.notify.outbox import KINDS, Outbox
from parlour.rpc.errors import log_failure
from parlour.rules.v1 import rules_pb2 as pb
from parlour.settings import Settings, load
from parlour.store.connection import UNREACHABLE
from parlour.store.outbox import NoticeQueue

log = logging.getLogger("parlour.notify")
MAX_ATTEMPTS = 12


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

    def __init__(self, queue: NoticeQueue, settings: NotifierSettings) -> None:
        self.queue = queue
        self.settings = settings
        self.http = httpx.AsyncClient(timeout=settings.notify_post_timeout_seconds)
        self.outbox = Outbox(queue.outbox)
        self.prefs = queue.prefs

    async def run(self) -> None:
        """Send, retry and sweep until cancelled."""
        await self.queue.ensure_group()
        swept = 0.0
        while True:
            try:
                await self.retry_due()
                if time.monotonic() - swept >= self.settings.notify_sweep_seconds:
                    await self.sweep()
                    swept = time.monotonic()
                for entry_id, fields in await self.queue.read(16, 500):
                    await self.deliver(entry_id, fields, attempt=1)
            except (*UNREACHABLE, OSError) as error:
                log_failure(log, "notifier: Redis away", error)
                await asyncio.sleep(1)

    def backoff(self, deliveries: int) -> float:
        """Seconds a notice delivered `deliveries` times waits before the next try: never
        less than a POST may take, so a try still in flight is not sent twice by the pool."""
        doubled = self.settings.notify_backoff_seconds * 2 ** max(0, deliveries - 1)
        return max(self.settings.notify_post_timeout_seconds + 1, min(600.0, doubled))

    async def retry_due(self) -> None:
        """Claim and re-send the pending notices whose backoff passed (any consumer's)."""
        for item in await self.queue.pending(64):
            deliveries = item["times_delivered"]
            if item["time_since_delivered"] < self.backoff(deliveries) * 1000:
                continue
            claimed = await self.queue.claim(
                int(self.backoff(deliveries) * 1000), item["message_id"]
            )
            for entry_id, fields in claimed:
                if fields:
                    await self.deliver(entry_id, fields, attempt=deliveries + 1)

    async def deliver(self, entry_id, fields, attempt: int) -> None:
        """POST one notice; acknowledge it on 2xx, on an opt-out, or after MAX_ATTEMPTS."""
        body = fields[b"n"]
        notice = json.loads(body)
        if await self.opted_out(notice) or await self.post(notice["id"], body):
            await self.queue.ack(entry_id)
        elif attempt >= MAX_ATTEMPTS:
            await self.queue.bury(entry_id, body)
            log.warning("notice given up", extra={"id": notice["id"]})

    async def opted_out(self, notice: dict) -> bool:
        player = notice.get("player", "")
        return bool(player) and await self.prefs.is_muted(player, notice["type"])

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
        async for match, raw in self.queue.timed_progress():
            progress = pb.MatchProgress.FromString(raw)
            await self.outbox.changed(match, progress, low, now_ms())


async def serve(settings: NotifierSettings) -> None:
    """One notifier until cancelled."""
    queue = NoticeQueue.from_url(settings.redis_url, f"notifier-{os.getpid()}")
    notifier = Notifier(queue, settings)
    try:
        await notifier.run()
    finally:
        await notifier.http.aclose()
        await queue.close()


def main() -> None:
    """`parlour serve-notifier`: settings are checked before anything starts."""
    settings = load(NotifierSettings)
    logging.basicConfig(level=logging.INFO)
    if not settings.notify_url:
        log.warning("PARLOUR_NOTIFY_URL is empty: notices stay in the outbox")
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(settings))


__all__ = ["KINDS", "Notifier", "NotifierSettings", "main", "serve", "sign", "verify"]
