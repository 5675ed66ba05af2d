"""Fan out each match's event stream to this gateway's subscribers, each filtered for its viewer.

One feed task per match reads the Redis stream and hands every entry to every
subscriber's bounded queue. A subscriber tracks the last sequence it has
passed and fills any gap from Redis history, so joining late, resuming, or
overflowing its queue (a slow reader) never loses or repeats an event and
never holds up other subscribers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass

import grpc
from parlour.rpc import metrics
from parlour.rpc.errors import ServiceError
from parlour.store.matchstore import MatchStore, StoredEvent

log = logging.getLogger("parlour.gateway.fanout")


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """Nothing new; the subscriber has seen everything up to `last_sequence`."""

    last_sequence: int


class Subscription:
    """One viewer's position in one match's stream."""

    def __init__(self, hub: EventHub, match: str, seat: int | None, after: int, size: int) -> None:
        self.hub = hub
        self.match = match
        self.seat = seat
        self.cursor = after
        self.queue: asyncio.Queue[StoredEvent] = asyncio.Queue(size)
        self.overflowed = False

    def offer(self, event: StoredEvent) -> None:
        """Called by the feed; drops the event (to be re-read from history) if the queue is full."""
        if self.overflowed:
            return
        try:
            self.queue.put_nowait(event)
        except asyncio.QueueFull:
            self.overflowed = True
            metrics.SUBSCRIBERS_LAGGING.inc()

    async def events(self, heartbeat: float) -> AsyncIterator[StoredEvent | Heartbeat]:
        """Visible events in order from the cursor, and heartbeats while idle."""
        async for event in self._catch_up(None):
            yield event
        while True:
            if self.overflowed and self.queue.empty():
                self.overflowed = False
                async for event in self._catch_up(None):
                    yield event
                continue
            try:
                event = await asyncio.wait_for(self.queue.get(), heartbeat)
            except TimeoutError:
                yield Heartbeat(self.cursor)
                continue
            if event.sequence <= self.cursor:
                continue
            if event.sequence > self.cursor + 1:
                async for missed in self._catch_up(event.sequence):
                    yield missed
            self.cursor = event.sequence
            if event.visible_to(self.seat):
                yield event

    async def _catch_up(self, before: int | None) -> AsyncIterator[StoredEvent]:
        """Read history after the cursor (up to `before`, exclusive, or to the end)."""
        store = self.hub.store
        while before is None or self.cursor + 1 < before:
            batch = await store.events_after(self.match, self.cursor, count=512)
            if batch and batch[0].sequence != self.cursor + 1:
                raise history_trimmed(self.cursor, batch[0].sequence)
            if not batch:
                if before is not None:
                    raise history_trimmed(self.cursor, before)
                return
            for event in batch:
                if before is not None and event.sequence >= before:
                    return
                self.cursor = event.sequence
                if event.visible_to(self.seat):
                    yield event


def history_trimmed(cursor: int, first: int) -> ServiceError:
    """The events after `cursor` are no longer kept."""
    return ServiceError(
        grpc.StatusCode.OUT_OF_RANGE,
        "HISTORY_TRIMMED",
        f"events after sequence {cursor} were trimmed; the oldest kept is {first}",
        metadata={"oldest_sequence": str(first)},
    )


class MatchFeed:
    """Reads one match's stream and offers each entry to the match's subscribers."""

    def __init__(self, hub: EventHub, match: str) -> None:
        self.hub = hub
        self.match = match
        self.subscribers: set[Subscription] = set()
        self.started = asyncio.Event()
        self.task = asyncio.create_task(self.run())

    async def run(self) -> None:
        """Offer every entry after the stream's head at start-up; subscribers read older ones."""
        store = self.hub.store
        cursor = await store.last_sequence(self.match)
        self.started.set()
        while self.subscribers:
            try:
                batch = await store.events_after(self.match, cursor, count=512, block_ms=1000)
            except Exception as error:  # noqa: BLE001 - keep serving; subscribers refill from history
                log.warning("feed read failed", extra={"match": self.match, "error": str(error)})
                await asyncio.sleep(0.5)
                continue
            for event in batch:
                cursor = event.sequence
                for subscriber in list(self.subscribers):
                    subscriber.offer(event)


class EventHub:
    """Every match feed of this gateway."""

    def __init__(self, store: MatchStore, queue_size: int = 1024) -> None:
        self.store = store
        self.queue_size = queue_size
        self.feeds: dict[str, MatchFeed] = {}

    async def check_resumable(self, match: str, after: int) -> None:
        """Refuse a resume point older than the kept history."""
        first = await self.store.first_sequence(match)
        if first is not None and first > after + 1:
            raise history_trimmed(after, first)

    @contextlib.asynccontextmanager
    async def subscribe(self, match: str, seat: int | None, after: int):
        """A Subscription, attached to the match's feed for the duration."""
        await self.check_resumable(match, after)
        subscription = Subscription(self, match, seat, after, self.queue_size)
        feed = self.feeds.get(match)
        if feed is None or feed.task.done():
            feed = self.feeds[match] = MatchFeed(self, match)
        feed.subscribers.add(subscription)
        try:
            await feed.started.wait()
            yield subscription
        finally:
            feed.subscribers.discard(subscription)
            if not feed.subscribers:
                feed.task.cancel()
                if self.feeds.get(match) is feed:
                    del self.feeds[match]

    async def close(self) -> None:
        """Stop every feed."""
        for feed in self.feeds.values():
            feed.task.cancel()
