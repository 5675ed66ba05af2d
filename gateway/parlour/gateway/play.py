"""One Play session: actions in; acknowledgements and the viewer's events out.

Messages ready at the same moment leave as one PlayBatch. Once the match is
over, every ack is sent and the viewer has passed the last event, a final
MatchFinished message goes out and the stream ends with OK. While the seat has
actions in flight, events caused by it (and any after them, to keep order)
are held until the action's acknowledgement, so the acting seat usually gets
its ack and the events of its action in a single message. The match's progress
after each change (MatchProgress) follows the change's events, and is held the
same way while the seat has actions in flight.

What waits for the client is bounded: once `limit` messages are queued (held ones
included) for a client that does not read, the session stops taking events from
its subscription (which then falls back to reading history, as StreamEvents does)
and stops reading actions, until the client catches up.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

from parlour.gateway import public
from parlour.gateway.fanout import Finished, Heartbeat, Progress, Subscription
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rpc import metrics
from parlour.rpc.batching import Batches, Mailbox
from parlour.rpc.errors import Refused, ServiceError, classify, invalid_argument
from parlour.store.matchstore import StoredEvent

Act = Callable[[gw.SubmitActionRequest], Awaitable[gw.SubmitActionResponse]]


def refusal(request_id: str, error: ServiceError) -> gw.ActionAck:
    """An ack that carries a refusal, with the details a unary error would carry."""
    ack = gw.ActionAck(
        request_id=request_id,
        code=error.code.value[0],
        message=error.message,
        reason=error.reason,
        metadata=error.metadata,
    )
    if error.field is not None:
        ack.field_violations.add(field=error.field, description=error.message, reason=error.reason)
    return ack


class PlaySession:
    """Runs one Play stream after its `open` message."""

    #: Messages waiting for clients over every session of the process (the
    #: parlour_play_queued_messages gauge reads it when scraped: no lock per message).
    all_queued = 0

    def __init__(
        self,
        seat: int | None,
        act: Act,
        match_event: Callable[[StoredEvent], gw.MatchEvent],
        heartbeat: float,
        finished: Callable[[], Awaitable[gw.MatchFinished]],
        limit: int = 1024,
    ) -> None:
        self.seat = seat
        self.act = act
        self.match_event = match_event
        self.heartbeat = heartbeat
        self.limit = limit
        self.out = Mailbox()
        #: The loop it runs on (asyncio.create_task asks for it, a getpid() on CPython 3.11).
        self.loop = asyncio.get_running_loop()
        self.queued = 0
        self.room = asyncio.Event()
        self.room.set()
        self.in_flight = 0
        self.held: list[tuple[int, gw.PlayResponse]] = []
        self.acting: set[asyncio.Task] = set()
        self.finished = finished
        self.final: gw.MatchFinished | None = None
        self.ended = False

    async def run(
        self, opened: gw.SessionOpened, requests: AsyncIterator, sub: Subscription
    ) -> AsyncIterator[gw.PlayResponse]:
        """Yield the session's outgoing messages until the client finishes or fails."""
        self.send(gw.PlayResponse(opened=opened))
        sub.sink = self  # events and progress come straight from the feed while it is idle
        reader = asyncio.create_task(self.read_actions(requests))
        pump = asyncio.create_task(self.pump_events(sub))
        pump.add_done_callback(self.relay_failure)
        try:
            batches = Batches(self.out)
            while (ready := await batches.next()) is not None:
                for item in ready:
                    if isinstance(item, asyncio.Task):  # a failed event pump
                        raise item.exception()
                self.taken(len(ready))
                if len(ready) == 1:
                    yield ready[0]
                else:
                    yield gw.PlayResponse(batch=gw.PlayBatch(items=ready))
        finally:
            reader.cancel()
            pump.cancel()
            PlaySession.all_queued -= self.queued

    def count(self) -> None:
        """One more message waits for the client (queued or held)."""
        self.queued += 1
        PlaySession.all_queued += 1
        if self.queued >= self.limit:
            self.room.clear()

    def taken(self, count: int) -> None:
        """`count` messages left for the client."""
        self.queued -= count
        PlaySession.all_queued -= count
        if self.queued < self.limit:
            self.room.set()

    def send(self, message: gw.PlayResponse) -> None:
        self.count()
        self.out.put_nowait(message)

    def relay_failure(self, task: asyncio.Task) -> None:
        """A failed event pump (e.g. trimmed history, revoked token) ends the session."""
        if not task.cancelled() and task.exception() is not None:
            self.out.put_nowait(task)

    async def read_actions(self, requests: AsyncIterator) -> None:
        async for message in requests:
            await self.room.wait()
            if isinstance(message, Refused) or not message.HasField("action"):
                error = (
                    message.error
                    if isinstance(message, Refused)
                    else invalid_argument("action", "expected an action")
                )
                self.send(gw.PlayResponse(ack=refusal("", error)))
                continue
            self.in_flight += 1
            self.count()  # its ack
            task = self.loop.create_task(self.acknowledge(message.action))
            self.acting.add(task)
            task.add_done_callback(self.acting.discard)
        if self.acting:
            await asyncio.wait(set(self.acting))
        self.release(None)
        self.out.put_nowait(None)

    async def acknowledge(self, action: gw.SubmitActionRequest) -> None:
        try:
            response = await self.act(action)
        except Exception as error:  # noqa: BLE001 - relayed to the client as an ack
            ack, upto = refusal(action.request_id, classify(error)), None
        else:
            ack = gw.ActionAck(request_id=action.request_id, response=response)
            upto = response.result.progress.last_sequence
        self.in_flight -= 1
        self.out.put_nowait(gw.PlayResponse(ack=ack))  # first, as when no event was held
        self.release(upto)
        self.end_if_finished()

    def end_if_finished(self) -> None:
        """Send MatchFinished and end, once the match is over and no ack is owed."""
        if self.final is None or self.in_flight or self.ended:
            return
        self.ended = True
        self.release(None)
        self.send(gw.PlayResponse(finished=self.final))
        self.out.put_nowait(None)

    def release(self, upto: int | None) -> None:
        """Send the held events up to sequence `upto`, or all once nothing is in flight."""
        if not self.in_flight:
            ready, self.held = self.held, []
        elif upto is None:
            return
        else:
            count = 0
            while count < len(self.held) and self.held[count][0] <= upto:
                count += 1
            ready, self.held = self.held[:count], self.held[count:]
        for _, message in ready:
            self.out.put_nowait(message)

    def has_room(self) -> bool:
        """Whether the client's queue takes more (Subscription's sink)."""
        return self.room.is_set()

    def take_progress(self, note: Progress) -> None:
        """The match's progress after a change: out now, or after the seat's own ack."""
        message = gw.PlayResponse(progress=progress_message(note))
        self.count()
        if self.in_flight:  # after the ack of the seat's own action, if it is that
            self.held.append((note.last_sequence, message))
        else:
            self.out.put_nowait(message)

    def take_events(self, events: list[StoredEvent]) -> None:
        """Events the viewer may see, in order (the room was checked before)."""
        metrics.EVENTS_SENT.inc(len(events))
        for event in events:
            message = gw.PlayResponse(event=self.match_event(event))
            self.count()
            if self.in_flight and (self.held or event.actor == self.seat):
                self.held.append((event.sequence, message))
            else:
                self.out.put_nowait(message)

    async def pump_events(self, sub: Subscription) -> None:
        async for item in sub.events(self.heartbeat):
            if isinstance(item, Finished):
                self.final = await self.finished()
                self.end_if_finished()
                return
            if isinstance(item, Heartbeat):
                if not self.held and not self.queued:
                    beat = gw.Heartbeat(last_sequence=item.last_sequence)
                    self.send(gw.PlayResponse(heartbeat=beat))
                continue
            if isinstance(item, Progress):
                await self.room.wait()
                self.take_progress(item)
                continue
            for event in item:
                await self.room.wait()
                self.take_events([event])


def progress_message(note: Progress) -> gw.MatchProgress:
    """The public MatchProgress of a change, made once whatever the number of sessions
    (callers copy it into their message)."""
    if note.public is None:
        object.__setattr__(note, "public", public.progress(note.data))
    return note.public


metrics.PLAY_QUEUED.set_function(lambda: PlaySession.all_queued)
