"""Fan out each match's event stream to this gateway's subscribers, each filtered for its viewer.

One reader task per gateway reads every subscribed match's Redis stream and
hands each entry to each of that match's subscribers' bounded queues. A
subscriber tracks the last sequence it has passed and fills any gap from
Redis history, so joining late, resuming, or overflowing its queue (a slow
reader) never loses or repeats an event and never holds up other subscribers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

import grpc

from parlour.rpc import metrics
from parlour.rpc.errors import ServiceError
from parlour.store import keys
from parlour.store.matchstore import MatchStore, StoredEvent, parse_entry

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
        self.queue: asyncio.Queue[StoredEvent | None] = asyncio.Queue(size)
        self.overflowed = False
        self.failure: ServiceError | None = None
        #: Awaited before a batch holding an event private to the seat is handed out;
        #: raises if the viewer may no longer see the seat's events.
        self.guard: Callable[[], Awaitable[None]] | None = None

    def end(self, error: ServiceError) -> None:
        """End the subscription with `error` (its consumer sees it at its next step)."""
        self.failure = error
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)  # wakes a waiting consumer; a full queue wakes anyway

    async def _checked(self, batch: list[StoredEvent]) -> list[StoredEvent]:
        if self.failure is not None:
            raise self.failure
        if self.guard is not None and any(not e.visibility.startswith(b"*") for e in batch):
            await self.guard()
        return batch

    def offer(self, event: StoredEvent) -> None:
        """Called by the feed; drops the event (to be re-read from history) if the queue is full."""
        if self.overflowed:
            return
        try:
            self.queue.put_nowait(event)
        except asyncio.QueueFull:
            self.overflowed = True
            metrics.SUBSCRIBERS_LAGGING.inc()

    async def events(self, heartbeat: float) -> AsyncIterator[list[StoredEvent] | Heartbeat]:
        """Visible events in order from the cursor, in batches of those ready together,
        and heartbeats while idle."""
        async for batch in self._catch_up(None):
            yield await self._checked(batch)
        while True:
            if self.failure is not None:
                raise self.failure
            if self.overflowed and self.queue.empty():
                self.overflowed = False
                async for batch in self._catch_up(None):
                    yield await self._checked(batch)
                continue
            try:
                event = self.queue.get_nowait()
            except asyncio.QueueEmpty:
                try:
                    async with asyncio.timeout(heartbeat):
                        event = await self.queue.get()
                except TimeoutError:
                    yield Heartbeat(self.cursor)
                    continue
            ready: list[StoredEvent] = []
            while True:
                if event is None:  # put by end(), which set the failure first
                    raise self.failure
                if event.sequence > self.cursor + 1:
                    async for missed in self._catch_up(event.sequence):
                        ready += missed
                if event.sequence > self.cursor:
                    self.cursor = event.sequence
                    if event.visible_to(self.seat):
                        ready.append(event)
                if self.queue.empty():
                    break
                event = self.queue.get_nowait()
            if ready:
                yield await self._checked(ready)

    async def _catch_up(self, before: int | None) -> AsyncIterator[list[StoredEvent]]:
        """Read history after the cursor (up to `before`, exclusive, or to the end), in batches."""
        store = self.hub.store
        while before is None or self.cursor + 1 < before:
            batch = await store.events_after(self.match, self.cursor, count=512)
            if batch and batch[0].sequence != self.cursor + 1:
                raise history_trimmed(self.cursor, batch[0].sequence)
            if not batch:
                if before is not None:
                    raise history_trimmed(self.cursor, before)
                return
            visible = []
            for event in batch:
                if before is not None and event.sequence >= before:
                    break
                self.cursor = event.sequence
                if event.visible_to(self.seat):
                    visible.append(event)
            if visible:
                yield visible


def history_trimmed(cursor: int, first: int, last: int | None = None) -> ServiceError:
    """The events after `cursor` are no longer kept."""
    metadata = {"oldest_sequence": str(first)}
    if last is not None:
        metadata["last_sequence"] = str(last)
    return ServiceError(
        grpc.StatusCode.OUT_OF_RANGE,
        "HISTORY_TRIMMED",
        f"events after sequence {cursor} were trimmed; the oldest kept is {first}",
        metadata=metadata,
    )


class MatchFeed:
    """One match's subscribers and the last sequence read for them."""

    def __init__(self, cursor: int) -> None:
        self.cursor = cursor
        self.subscribers: set[Subscription] = set()


class EventHub:
    """Every match feed of this gateway, read by one task with one multi-stream XREAD.

    The reader blocks on one dedicated connection for all feeds at once; adding
    a feed unblocks it (CLIENT UNBLOCK) so the next read includes the new
    stream. `max_block_ms` bounds how long a read started just before an
    unblock can miss a new feed.
    """

    def __init__(self, store: MatchStore, queue_size: int = 1024, max_block_ms: int = 250) -> None:
        self.store = store
        self.queue_size = queue_size
        self.max_block_ms = max_block_ms
        self.feeds: dict[str, MatchFeed] = {}
        self._wake = asyncio.Event()
        self._reader_id: int | None = None
        self._reader: asyncio.Task | None = None
        self._closing = False

    @contextlib.asynccontextmanager
    async def subscribe(self, match: str, seat: int | None, after: int):
        """A Subscription, attached to the match's feed for the duration.

        Refuses a negative resume point (INVALID_ARGUMENT), one past the last sequence
        (OUT_OF_RANGE SEQUENCE_AHEAD) and one older than the kept history (OUT_OF_RANGE
        HISTORY_TRIMMED), each with the current last sequence.
        """
        first, last = await self.store.stream_bounds(match)
        if after < 0:
            raise ServiceError(
                grpc.StatusCode.INVALID_ARGUMENT,
                "BAD_RESUME_POINT",
                f"after_sequence must be 0 or more; the last sequence is {last}",
                field="after_sequence",
                metadata={"last_sequence": str(last)},
            )
        if after > last:
            raise ServiceError(
                grpc.StatusCode.OUT_OF_RANGE,
                "SEQUENCE_AHEAD",
                f"after_sequence {after} is past the last sequence {last}",
                metadata={"last_sequence": str(last)},
            )
        if first is not None and first > after + 1:
            raise history_trimmed(after, first, last)
        subscription = Subscription(self, match, seat, after, self.queue_size)
        feed = self.feeds.get(match)
        if feed is None:
            feed = self.feeds.setdefault(match, MatchFeed(last))
            await self._include_new_feed()
        feed.subscribers.add(subscription)
        try:
            yield subscription
        finally:
            feed.subscribers.discard(subscription)
            if not feed.subscribers and self.feeds.get(match) is feed:
                del self.feeds[match]

    async def _include_new_feed(self) -> None:
        if self._reader is None or self._reader.done():
            self._reader = asyncio.create_task(self._read_forever())
        await self._interrupt_read()

    async def _interrupt_read(self) -> None:
        """Make a blocked XREAD return now (it then re-reads with the current feeds)."""
        self._wake.set()
        if self._reader_id is not None:
            with contextlib.suppress(Exception):
                await self.store.redis.client_unblock(self._reader_id)

    async def _read_forever(self) -> None:
        while not self._closing:
            connection = self.store.redis.client()
            try:
                self._reader_id = await connection.client_id()
                await self._read_with(connection)
            except Exception as error:  # noqa: BLE001 - keep serving; subscribers refill from history
                log.warning("event read failed", extra={"error": str(error)})
                await asyncio.sleep(0.5)
            finally:
                self._reader_id = None
                await connection.aclose()

    async def _read_with(self, connection) -> None:
        while not self._closing:
            if not self.feeds:
                self._wake.clear()
                await self._wake.wait()
                continue
            streams = {keys.events(m): f"{f.cursor}-0" for m, f in self.feeds.items()}
            reply = await connection.xread(streams, count=512, block=self.max_block_ms)
            for key, entries in reply or ():
                feed = self.feeds.get(keys.match_of(key.decode()))
                if feed is None:
                    continue
                for entry_id, fields in entries:
                    event = parse_entry(entry_id, fields)
                    feed.cursor = event.sequence
                    for subscriber in list(feed.subscribers):
                        subscriber.offer(event)

    async def close(self) -> None:
        """Stop reading: unblock the reader and let it close its connection itself
        (cancelling a blocked redis-py read can stall closing the connection)."""
        self._closing = True
        if self._reader is None:
            return
        await self._interrupt_read()
        try:
            await asyncio.wait_for(asyncio.shield(self._reader), 2)
        except TimeoutError:
            self._reader.cancel()
