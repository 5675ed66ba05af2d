"""Per-caller quotas at the public edge: matches created per minute by one caller (its
verified subject with identity on, else its address: edge.scope), streams open at once
on one connection. Over quota: RESOURCE_EXHAUSTED.

Limits are per gateway process (configured by PARLOUR_CREATES_PER_MINUTE and
PARLOUR_STREAMS_PER_CONNECTION; 0 turns a quota off).
"""

from __future__ import annotations

import contextlib
import time

import grpc

from parlour.rpc.errors import ServiceError

#: Idle callers forgotten once this many are tracked (a full bucket needs no memory).
MAX_TRACKED = 10_000


def exhausted(reason: str, message: str, **metadata: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, reason, message, metadata=metadata)


class Quotas:
    """Token buckets of match creations per caller (edge.scope); open streams per connection."""

    def __init__(self, creates_per_minute: int, streams_per_connection: int) -> None:
        self.creates_per_minute = creates_per_minute
        self.streams_per_connection = streams_per_connection
        self.buckets: dict[str, tuple[float, float]] = {}
        self.streams: dict[str, int] = {}

    def spend_create(self, caller: str) -> None:
        """Take one creation from the caller's bucket, or refuse."""
        rate = self.creates_per_minute
        if not rate:
            return
        now = time.monotonic()
        tokens, since = self.buckets.get(caller, (float(rate), now))
        tokens = min(float(rate), tokens + (now - since) * rate / 60)
        if tokens < 1:
            wait = (1 - tokens) * 60 / rate
            raise exhausted(
                "CREATE_QUOTA_EXCEEDED",
                f"at most {rate} matches per minute from one caller; retry in {wait:.1f} s",
                retry_after_seconds=f"{wait:.1f}",
            )
        if len(self.buckets) >= MAX_TRACKED:
            self.forget_idle(now)
        self.buckets[caller] = (tokens - 1, now)

    def forget_idle(self, now: float) -> None:
        """Drop the buckets that have refilled completely."""
        rate = self.creates_per_minute
        for caller, (tokens, since) in list(self.buckets.items()):
            if tokens + (now - since) * rate / 60 >= rate:
                del self.buckets[caller]

    @contextlib.contextmanager
    def stream(self, connection: str):
        """Hold one of the connection's stream slots while the block runs, or refuse."""
        limit = self.streams_per_connection
        open_now = self.streams.get(connection, 0)
        if limit and open_now >= limit:
            raise exhausted(
                "STREAM_QUOTA_EXCEEDED",
                f"at most {limit} open streams per connection",
                limit=str(limit),
            )
        self.streams[connection] = open_now + 1
        try:
            yield
        finally:
            left = self.streams[connection] - 1
            if left:
                self.streams[connection] = left
            else:
                del self.streams[connection]
