"""Fan out each match's events to this gateway's subscribers, each filtered for its viewer.

A match's feed hands each new event to each of its subscribers' bounded queues: the
events of actions this gateway forwarded straight from the rules service's answer, the
others read from the match's Redis stream when a commit notice says there are some (see
EventHub). A subscriber tracks the last sequence it has passed and fills any gap from
Redis history, so joining late, resuming, or overflowing its queue (a slow reader) never
loses or repeats an event and never holds up other subscribers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

import grpc

from parlour.rpc import metrics
from parlour.rpc.errors import ServiceError, log_failure
from parlour.rules.v1 import rules_pb2 as rules
from parlour.store import keys
from parlour.store.matchstore import MatchStore, StoredEvent

log = logging.getLogger("parlour.gateway.fanout")
#: Trailing metadata key of a stream ended by a drain: the sequence to resume after.
RESUME_TRAILER = "parlour-resume-after-sequence"


@dataclass(frozen=True, slots=True)
class Finished:
    """The match is over and the subscriber has passed its last event: the stream ends."""

    last_sequence: int


@dataclass(frozen=True, slots=True)
class Progress:
    """The match's version moved to `version`; `data` is its MatchProgress (rules.v1
    bytes), whose events end at `last_sequence`."""

    version: int
    last_sequence: int
    data: bytes
    #: Its public MatchProgress, made once by the first session that sends it.
    public: object = field(default=None, compare=False)
    #: Its StreamEventsResponse bytes, encoded once by the first stream that sends it.
    encoded: bytes | None = field(default=None, compare=False)


#: Put in an idle subscriber's queue by Beats: a heartbeat interval passed with nothing new.
IDLE = object()


class Beats:
    """One timer per gateway process for every idle subscriber's heartbeat (not a timer
    per wait): every quarter interval, each subscriber that has waited a whole interval
    gets IDLE in its queue, so a heartbeat leaves after 1 to 1.25 intervals of quiet."""

    def __init__(self) -> None:
        #: Waiting subscribers, by heartbeat interval (each knows since when: `idle_since`).
        self.waiting: dict[float, set[Subscription]] = {}
        self._tasks: dict[float, asyncio.Task] = {}

    async def wait(self, subscriber: Subscription, heartbeat: float):
        """The subscriber's next queue item, or IDLE after `heartbeat` seconds of quiet.
        While it waits, the feed may hand it events directly (Subscription.offer)."""
        waiting = self.waiting.get(heartbeat)
        if waiting is None or self._tasks[heartbeat].done():
            waiting = self.waiting.setdefault(heartbeat, set())
            self._tasks[heartbeat] = asyncio.create_task(self._tick(heartbeat, waiting))
        subscriber.idle_since = time.monotonic()
        waiting.add(subscriber)
        subscriber.parked = True
        try:
            return await subscriber.queue.get()
        finally:
            subscriber.parked = False
            waiting.discard(subscriber)

    async def _tick(self, heartbeat: float, waiting: set[Subscription]) -> None:
        while True:
            await asyncio.sleep(heartbeat / 4)
            due = time.monotonic() - heartbeat
            for subscriber in list(waiting):
                if subscriber.idle_since <= due and subscriber.queue.empty():
                    subscriber.queue.put_nowait(IDLE)

    def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()


@dataclass(frozen=True, slots=True)
class Change:
    """A change's visible events and the match's progress after them, ready together (a
    subscription's `events(together=True)`)."""

    events: list[StoredEvent]
    progress: Progress


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """Nothing new; the subscriber has seen everything up to `last_sequence`."""

    last_sequence: int


class Sink(Protocol):
    """Takes a subscription's events and progress as they are offered, without a queue
    hop, while its consumer waits (PlaySession)."""

    def has_room(self) -> bool: ...
    def take_events(self, events: list[StoredEvent]) -> None: ...
    def take_progress(self, note: Progress) -> None: ...


class Subscription:
    """One viewer's position in one match's stream.

    Its consumer iterates `events()`. While that consumer is parked waiting for the next
    item, with nothing queued, a `sink` (if one is attached) takes each next event or
    progress straight from the feed: the same cursor, visibility and order as the queued
    path, without a queue hop and a wake-up per item. Anything else (a gap, the last event,
    a check the revocation guard must make, a full sink) goes through the queue.
    """

    def __init__(self, hub: EventHub, match: str, seat: int | None, after: int, size: int) -> None:
        self.hub = hub
        self.match = match
        self.seat = seat
        self.cursor = after
        #: Events and progress from the feed; None from end(); IDLE from Beats.
        self.queue: asyncio.Queue[StoredEvent | Progress | object | None] = asyncio.Queue(size)
        self.overflowed = False
        self.failure: ServiceError | None = None
        #: The last sequence handed out (where a stream ended now would resume).
        self.delivered = after
        self.finished = False
        #: The latest progress offered, and the version of the last one handed out.
        self.progress: Progress | None = None
        self.progress_sent = 0
        #: The match's last sequence if it was finished when subscribing (None: it was
        #: not), read with the stream's bounds.
        self.finished_at_start: int | None = None
        #: Awaited before a batch holding an event private to the seat and committed after
        #: a seat token of the match was revoked (its seat version is above
        #: `seat_version`); raises if the viewer may no longer see the seat's events, else
        #: brings `seat_version` up to date.
        self.guard: Callable[[], Awaitable[None]] | None = None
        self.seat_version = 0
        #: Takes items directly while the consumer is parked (Beats.wait) and idle since.
        self.sink: Sink | None = None
        self.parked = False
        self.idle_since = 0.0

    def end(self, error: ServiceError) -> None:
        """End the subscription with `error` (its consumer sees it at its next step)."""
        self.failure = error
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)  # wakes a waiting consumer; a full queue wakes anyway

    async def _checked(self, batch: list[StoredEvent]) -> list[StoredEvent]:
        if self.failure is not None:
            raise self.failure
        if self.guard is not None and any(
            e.seat_version > self.seat_version and not e.visibility.startswith(b"*") for e in batch
        ):
            await self.guard()
        self.delivered = self.cursor
        return batch

    def offer(self, event: StoredEvent | Progress) -> None:
        """Called by the feed; drops the event (to be re-read from history) or progress (the
        latest is sent after the catch-up) if the queue is full."""
        if isinstance(event, Progress):
            self.progress = event
        if self.overflowed:
            return
        if self.parked and self.sink is not None and self.queue.empty() and self._direct(event):
            return
        try:
            self.queue.put_nowait(event)
        except asyncio.QueueFull:
            self.overflowed = True
            metrics.SUBSCRIBERS_LAGGING.inc()

    def _direct(self, item: StoredEvent | Progress) -> bool:
        """Hand `item` to the sink now, as `events()` would; False: it must be queued."""
        sink = self.sink
        if self.failure is not None or not sink.has_room():
            return False
        if isinstance(item, Progress):
            if item.last_sequence > self.cursor:
                return False
            if item.version > self.progress_sent:
                self.progress_sent = item.version
                sink.take_progress(item)
        else:
            if item.sequence != self.cursor + 1 or item.final:
                return item.sequence <= self.cursor  # already passed: nothing to do
            if (
                self.guard is not None
                and item.seat_version > self.seat_version
                and not item.visibility.startswith(b"*")
            ):
                return False
            self.cursor = self.delivered = item.sequence
            if item.visible_to(self.seat):
                sink.take_events([item])
        self.idle_since = time.monotonic()
        return True

    def _progressed(self, note: Progress | None) -> Progress | None:
        """`note`, if it is news and the cursor has passed its events (else None)."""
        if note is None or note.version <= self.progress_sent or note.last_sequence > self.cursor:
            return None
        self.progress_sent = note.version
        return note

    async def events(
        self, heartbeat: float, together: bool = False
    ) -> AsyncIterator[list[StoredEvent] | Progress | Change | Heartbeat | Finished]:
        """Visible events in order from the cursor, in batches of those ready together,
        each change's Progress after its events (the latest of those ready together; with
        `together`, one Change of both when they are ready at once), heartbeats while idle,
        and Finished (then nothing) once the match's last event has been passed."""
        async for batch in self._catch_up(None):
            yield await self._checked(batch)
        if self.finished or await self._passed_the_end(self.finished_at_start):
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
                if (note := self._progressed(self.progress)) is not None:
                    yield note
                continue
            try:
                event = self.queue.get_nowait()
            except asyncio.QueueEmpty:
                event = await self.hub.beats.wait(self, heartbeat)
                if event is IDLE:
                    self.delivered = self.cursor
                    if (note := self._progressed(self.progress)) is not None:
                        yield note
                        continue
                    if await self._passed_the_end():
                        yield Finished(self.cursor)
                        return
                    yield Heartbeat(self.cursor)
                    continue
            ready: list[StoredEvent] = []
            note: Progress | None = None
            while True:
                if event is None:  # put by end(), which set the failure first
                    raise self.failure
                if event is IDLE:  # a beat that lost the race with an event
                    pass
                elif isinstance(event, Progress):
                    note = event if note is None or event.version > note.version else note
                else:
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
                ready = await self._checked(ready)
            if self.finished:
                if ready:
                    yield ready
                yield Finished(self.cursor)
                return
            note = self._progressed(note)
            if together and ready and note is not None:
                yield Change(ready, note)
                continue
            if ready:
                yield ready
            if note is not None:
                yield note

    async def _passed_the_end(self, known: int | None = -1) -> bool:
        """Whether the match is finished and the cursor is at its last event (a finishing
        action may append no event, so the stream marker alone is not enough). `known`:
        the answer read already (-1: read it now)."""
        last = await self.hub.store.finished_at(self.match) if known == -1 else known
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


def history_rewound(cursor: int, last: int) -> ServiceError:
    """The match's stored events end at `last`, before `cursor`, which was delivered: a
    Redis fail-over lost them. The viewer re-reads the match and resumes after `last`."""
    return ServiceError(
        grpc.StatusCode.OUT_OF_RANGE,
        "HISTORY_REWOUND",
        f"events after sequence {last} were delivered and then lost by the store; re-read "
        f"the match and resume after {last}",
        metadata={"last_sequence": str(last), "delivered_sequence": str(cursor)},
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
    """One match's subscribers and the last sequence offered to them."""

    def __init__(self, cursor: int) -> None:
        self.cursor = cursor
        self.subscribers: set[Subscription] = set()
        #: A read of the match's new events is running / another was asked meanwhile.
        self.reading = False
        self.again = False
        #: The version of the last progress offered.
        self.version = 0

    def offer(self, events: list[StoredEvent]) -> None:
        """Hand the events this feed has not offered yet to every subscriber, in order."""
        for event in events:
            if event.sequence > self.cursor:
                self.cursor = event.sequence
                for subscriber in self.subscribers:
                    subscriber.offer(event)

    def progressed(self, note: Progress) -> bool:
        """Hand a newer progress to every subscriber, once its events were offered (False
        if they were not: the feed must read them first)."""
        if note.last_sequence > self.cursor:
            return False
        if note.version > self.version:
            self.version = note.version
            for subscriber in self.subscribers:
                subscriber.offer(note)
        return True


class EventHub:
    """Every match feed of this gateway.

    Events reach a feed two ways: the events of an action this gateway forwarded come in
    the rules service's answer (`deliver`); for every other commit of a subscribed match
    (other gateways, turn timers, undo) the commit publishes the match id on this
    gateway's channel (store/commit.lua, keys.gateways) and the feed reads what is new
    from the match's stream. After each (re)subscription to the channel every feed reads
    once, so a notice missed while it was down is not missed.
    """

    def __init__(self, store: MatchStore, queue_size: int = 1024) -> None:
        self.store = store
        self.queue_size = queue_size
        self.gateway_id = uuid.uuid4().hex[:16]
        self.feeds: dict[str, MatchFeed] = {}
        self.closing = False
        self._listener: asyncio.Task | None = None
        self._tasks: set[asyncio.Task] = set()
        self.beats = Beats()

    def drain(self) -> None:
        """End every subscription with UNAVAILABLE and the last sequence it handed out."""
        for feed in self.feeds.values():
            for subscription in feed.subscribers:
                subscription.end(draining(subscription.delivered))

    def deliver(self, match: str, events: list[StoredEvent], progress: Progress) -> None:
        """The events and progress of a commit this gateway made (from the rules service's
        answer); if some events before them are missing here, they are read first."""
        feed = self.feeds.get(match)
        if feed is None:
            return
        if events:
            feed.offer(events)
        # behind what was offered: an older answer, or a rewound store (_read_progress tells)
        if not feed.progressed(progress) or progress.last_sequence < feed.cursor:
            self.notified(match)

    @contextlib.asynccontextmanager
    async def subscribe(self, match: str, seat: int | None, after: int):
        """A Subscription, attached to the match's feed for the duration.

        Refuses a negative resume point (INVALID_ARGUMENT), one past the last sequence
        (OUT_OF_RANGE SEQUENCE_AHEAD) and one older than the kept history (OUT_OF_RANGE
        HISTORY_TRIMMED), each with the current last sequence.
        """
        self._listen()
        feed = self.feeds.get(match)
        version = 0
        if feed is None:  # told of commits from now on, then read where the stream is
            stored, first, last, finished_at = await self.store.open_feed(match, self.gateway_id)
            version = rules.MatchProgress.FromString(stored).version if stored else 0
        else:
            first, last, finished_at = await self.store.stream_bounds(match, finished=True)
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
        subscription.finished_at_start = finished_at
        feed = self.feeds.get(match)
        if feed is None:
            feed = self.feeds[match] = MatchFeed(last)
            feed.version = max(feed.version, version)
        subscription.progress_sent = feed.version  # progress is news from here on
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
                self._spawn(self._unwatch(match))
            metrics.LIVE_MATCHES.set(len(self.feeds))

    async def _unwatch(self, match: str) -> None:
        if match not in self.feeds:
            with contextlib.suppress(Exception):
                await self.store.unwatch_match(match, self.gateway_id)

    def _spawn(self, coroutine) -> None:
        task = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _listen(self) -> None:
        if self._listener is None or self._listener.done():
            self._listener = asyncio.create_task(self._listen_forever())

    async def _listen_forever(self) -> None:
        channel = keys.GATEWAY_CHANNEL + self.gateway_id
        while not self.closing:
            try:
                async with self.store.subscribed(channel) as notices:
                    for match in list(self.feeds):
                        self.notified(match)
                    while not self.closing:
                        if (match := await notices.next(0.5)) is not None:
                            self.notified(match)
            except Exception as error:  # noqa: BLE001 - resubscribe; every feed then re-reads
                log_failure(log, "commit notices failed", error)
                await asyncio.sleep(0.5)

    def notified(self, match: str) -> None:
        """A commit this gateway did not make: read the feed's new events (one read at a
        time per feed; notices arriving meanwhile make it read once more)."""
        feed = self.feeds.get(match)
        if feed is None:
            return
        if feed.reading:
            feed.again = True
            return
        feed.reading = True
        self._spawn(self._read_new(match, feed))

    async def _read_new(self, match: str, feed: MatchFeed) -> None:
        try:
            while True:
                feed.again = False
                try:
                    events = await self.store.events_after(match, feed.cursor, count=512)
                except Exception as error:  # noqa: BLE001 - subscribers refill from history
                    log_failure(log, "event read failed", error, match=match)
                    return
                if feed.again or len(events) == 512:
                    feed.offer(events)
                    continue
                done = await self._read_progress(match, feed, events) or not events
                if done and not feed.again:  # (a notice may come during the read)
                    return
        finally:
            feed.reading = False

    async def _read_progress(self, match: str, feed: MatchFeed, events: list[StoredEvent]) -> bool:
        """Offer the events read and then the match's stored progress, read first so that
        subscribers take both at once; False if its events are not all read yet."""
        # stored and confirmed before the read: the store has them
        offered = max(feed.cursor, events[-1].sequence if events else 0)
        try:
            data, last = await self.store.confirmed_progress(match)
        except Exception as error:  # noqa: BLE001 - the next notice or resubscription reads
            log_failure(log, "progress read failed", error, match=match)
            feed.offer(events)
            return True
        feed.offer(events)
        if last is not None and last < offered:
            self._rewound(match, feed, last)
        if data is None:
            return True
        header = rules.MatchProgress.FromString(data)
        return feed.progressed(Progress(header.version, header.last_sequence, data))

    def _rewound(self, match: str, feed: MatchFeed, last: int) -> None:
        """The store lost events this feed offered: end the streams past `last` with
        HISTORY_REWOUND, count and log the loss, and go on from `last`."""
        metrics.EVENTS_REWOUND.inc(feed.cursor - last)
        log.error(
            "history rewound: a Redis fail-over lost delivered events",
            extra={"match": match, "delivered": feed.cursor, "stored": last},
        )
        for subscription in feed.subscribers:
            if subscription.cursor > last:
                subscription.end(history_rewound(subscription.cursor, last))
        feed.cursor, feed.version = last, 0

    async def close(self) -> None:
        """Stop listening."""
        self.closing = True
        if self._listener is not None:
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(self._listener, 2)
        for task in list(self._tasks):
            task.cancel()
        self.beats.close()
