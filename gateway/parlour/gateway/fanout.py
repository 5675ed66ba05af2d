"""Fan out each match's event stream to this gateway's subscribers, each filtered for its viewer.

One reader task (on a Redis Cluster, one per hash slot in use) reads the
subscribed matches' streams and hands each entry to each of that match's
subscribers' bounded queues. A
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
import redis.asyncio as aioredis

from parlour.rpc import metrics
from parlour.rpc.errors import ServiceError
from parlour.store import keys
from parlour.store.connection import is_cluster
from parlour.store.matchstore import MatchStore, StoredEvent, parse_entry

log = logging.getLogger("parlour.gateway.fanout")
#: Trailing metadata key of a stream ended by a drain: the sequence to resume after.
RESUME_TRAILER = "parlour-resume-after-sequence"


@dataclass(frozen=True, slots=True)
class Finished:
    """The match is over and the subscriber has passed its last event: the stream ends."""

    last_sequence: int


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
        #: The last sequence handed out (where a stream ended now would resume).
        self.delivered = after
        self.finished = False
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
        self.delivered = self.cursor
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

    async def events(
        self, heartbeat: float
    ) -> AsyncIterator[list[StoredEvent] | Heartbeat | Finished]:
        """Visible events in order from the cursor, in batches of those ready together,
        heartbeats while idle, and Finished (then nothing) once the match's last event
        has been passed."""
        async for batch in self._catch_up(None):
            yield await self._checked(batch)
        if self.finished or await self._passed_the_end():
            yield Finished(self.cursor)
            return
        while True:
            if self.failure is not None:
                raise self.failure
            if self.overflowed and self.queue.empty():
                self.overflowed = False
                async for batch in self._catch_up(None):
                    yield await self._checked(batch)
                if self.finished:
                    yield Finished(self.cursor)
                    return
                continue
            try:
                event = self.queue.get_nowait()
            except asyncio.QueueEmpty:
                try:
                    async with asyncio.timeout(heartbeat):
                        event = await self.queue.get()
                except TimeoutError:
                    self.delivered = self.cursor
                    if await self._passed_the_end():
                        yield Finished(self.cursor)
                        return
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
                    self.finished |= event.final
                    if event.visible_to(self.seat):
                        ready.append(event)
                if self.queue.empty():
                    break
                event = self.queue.get_nowait()
            if ready:
                yield await self._checked(ready)
            if self.finished:
                yield Finished(self.cursor)
                return

    async def _passed_the_end(self) -> bool:
        """Whether the match is finished and the cursor is at its last event (a finishing
        action may append no event, so the stream marker alone is not enough)."""
        last = await self.hub.store.finished_at(self.match)
        self.finished = last is not None and self.cursor >= last
        return self.finished

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
                self.finished |= event.final
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


def draining(cursor: int) -> ServiceError:
    """The gateway is shutting down: resume elsewhere after `cursor` (also in the trailers)."""
    return ServiceError(
        grpc.StatusCode.UNAVAILABLE,
        "SERVER_DRAINING",
        f"the gateway is shutting down; resume after sequence {cursor}",
        metadata={"resume_after_sequence": str(cursor)},
        trailers={RESUME_TRAILER: str(cursor)},
    )


class MatchFeed:
    """One match's subscribers and the last sequence read for them."""

    def __init__(self, cursor: int) -> None:
        self.cursor = cursor
        self.subscribers: set[Subscription] = set()


class StreamReader:
    """Reads a group of feeds with one blocking multi-stream XREAD on a dedicated connection;
    CLIENT UNBLOCK, sent on the same server, makes it re-read with newly added feeds.

    On standalone or Sentinel Redis one reader reads every feed. On a Cluster a multi-key
    command must stay in one hash slot, so each slot with subscribed feeds gets its own
    reader, connected to the node that serves the slot; it stops once its slot has no
    feeds left for `idle_seconds`.
    """

    def __init__(self, hub: EventHub, group: str, open_clients, idle_seconds: float | None):
        self.hub = hub
        self.group = group
        self.node = ""
        self._open = open_clients
        self._idle = idle_seconds
        self._control = None
        self._wake = asyncio.Event()
        self._reader_id: int | None = None
        self.task: asyncio.Task | None = None

    def ensure_running(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._read_forever())

    async def interrupt(self) -> None:
        """Make a blocked XREAD return now (it then re-reads with the current feeds)."""
        self._wake.set()
        if self._reader_id is not None and self._control is not None:
            with contextlib.suppress(Exception):
                await self._control.client_unblock(self._reader_id)

    async def _read_forever(self) -> None:
        idle = False
        while not self.hub.closing and not idle:
            connection, self._control, self.node = self._open()
            try:
                self._reader_id = await connection.client_id()
                idle = await self._read_with(connection)
            except Exception as error:  # noqa: BLE001 - keep serving; subscribers refill from history
                log.warning("event read failed", extra={"error": str(error), "node": self.node})
                await asyncio.sleep(0.5)
            finally:
                self._reader_id = None
                await connection.aclose()
                if self._control is not self.hub.store.redis:
                    await self._control.connection_pool.disconnect()
                self._control = None

    async def _read_with(self, connection) -> bool:
        """Read until closing (False) or, with an idle limit, no feeds for that long (True)."""
        hub = self.hub
        while not hub.closing:
            feeds = hub.feeds_in(self.group)
            if not feeds:
                self._wake.clear()
                try:
                    async with asyncio.timeout(self._idle):
                        await self._wake.wait()
                except TimeoutError:
                    if not hub.feeds_in(self.group):
                        return True
                continue
            streams = {keys.events(m): f"{f.cursor}-0" for m, f in feeds.items()}
            reply = await connection.xread(streams, count=512, block=hub.max_block_ms)
            for key, entries in reply or ():
                feed = hub.feeds.get(keys.match_of(key.decode()))
                if feed is None:
                    continue
                for entry_id, fields in entries:
                    event = parse_entry(entry_id, fields)
                    feed.cursor = event.sequence
                    for subscriber in list(feed.subscribers):
                        subscriber.offer(event)
        return False

    async def close(self) -> None:
        """Unblock the reader and let it close its connection itself (cancelling a blocked
        redis-py read can stall closing the connection)."""
        if self.task is None or self.task.done():
            return
        await self.interrupt()
        try:
            await asyncio.wait_for(asyncio.shield(self.task), 2)
        except TimeoutError:
            self.task.cancel()


class EventHub:
    """Every match feed of this gateway, read by blocking XREADs (see StreamReader).

    `max_block_ms` bounds how long a read started just before an unblock can
    miss a new feed, and how soon a Cluster reader notices that its slot moved.
    """

    def __init__(self, store: MatchStore, queue_size: int = 1024, max_block_ms: int = 250) -> None:
        self.store = store
        self.queue_size = queue_size
        self.max_block_ms = max_block_ms
        self.feeds: dict[str, MatchFeed] = {}
        self.readers: dict[str, StreamReader] = {}
        self.closing = False
        self._cluster = is_cluster(store.redis)

    def drain(self) -> None:
        """End every subscription with UNAVAILABLE and the last sequence it handed out."""
        for feed in self.feeds.values():
            for subscription in feed.subscribers:
                subscription.end(draining(subscription.delivered))

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
            await self._include_new_feed(match)
        feed.subscribers.add(subscription)
        metrics.SUBSCRIBERS.inc()
        metrics.LIVE_MATCHES.set(len(self.feeds))
        try:
            yield subscription
        finally:
            metrics.SUBSCRIBERS.dec()
            feed.subscribers.discard(subscription)
            if not feed.subscribers and self.feeds.get(match) is feed:
                del self.feeds[match]
            metrics.LIVE_MATCHES.set(len(self.feeds))

    def group_of(self, match: str) -> str:
        """Which reader reads the match's stream: '' for all, on a Cluster its hash slot."""
        return str(self.store.redis.keyslot(keys.events(match))) if self._cluster else ""

    def feeds_in(self, group: str) -> dict[str, MatchFeed]:
        """The feeds one reader reads."""
        if not self._cluster:
            return self.feeds
        return {m: f for m, f in self.feeds.items() if self.group_of(m) == group}

    async def _include_new_feed(self, match: str) -> None:
        group = self.group_of(match)
        reader = self.readers.get(group)
        if reader is None:
            if self._cluster:
                await self.store.redis.initialize()
            reader = self.readers[group] = self._reader_for(group, keys.events(match))
        reader.ensure_running()
        await reader.interrupt()

    def _reader_for(self, group: str, sample_key: str) -> StreamReader:
        store = self.store
        if not self._cluster:
            return StreamReader(
                self, group, lambda: (store.redis.client(), store.redis, ""), idle_seconds=None
            )

        def on_slot_node():
            node = store.redis.get_node_from_key(sample_key)
            client = aioredis.Redis(
                connection_pool=aioredis.ConnectionPool(
                    connection_class=node.connection_class,
                    **node.connection_kwargs,  # the node's host, port and credentials
                )
            )
            return client.client(), client, node.name

        return StreamReader(self, group, on_slot_node, idle_seconds=5.0)

    async def close(self) -> None:
        """Stop every reader."""
        self.closing = True
        for reader in list(self.readers.values()):
            await reader.close()
