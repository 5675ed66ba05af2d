"""The streams: StreamEvents (a viewer's events, the match's progress after each change,
heartbeats while idle, MatchFinished at the end) and Play (one seat's actions in; its acks
and events out, see play.py)."""

from __future__ import annotations

from parlour.gateway import expiry, identity, public
from parlour.gateway.edge import Callers, Viewer, match_id_of
from parlour.gateway.fanout import (
    Change,
    EventHub,
    Finished,
    Heartbeat,
    Progress,
    Subscription,
)
from parlour.gateway.forward import ForwardCalls
from parlour.gateway.matches import MatchCalls, match_resource
from parlour.gateway.play import PlaySession, progress_message
from parlour.gateway.quotas import Quotas
from parlour.gateway.routing import Router
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rpc import context as request_context
from parlour.rpc import metrics
from parlour.rpc.errors import Refused, guarded, invalid_argument, not_found
from parlour.rules.v1 import rules_pb2 as rules
from parlour.store.matchstore import MatchStore, StoredEvent


def match_event(event: StoredEvent, event_url: str) -> gw.MatchEvent:
    """A stored event (a RecordedEvent; the game's own events without their type URL,
    `event_url`: rules/records.py) as the public MatchEvent, with the game's text; made
    once per event, whatever the number of subscribers (callers copy it into a message)."""
    public = event.memo.get(event_url)
    if public is None:
        public = event.memo[event_url] = _match_event(event, event_url)
    return public


def _match_event(event: StoredEvent, event_url: str) -> gw.MatchEvent:
    recorded = rules.RecordedEvent.FromString(event.payload)
    public = gw.MatchEvent(
        sequence=event.sequence,
        version=event.version,
        actor=event.actor,
        event=recorded.event,
        text=recorded.text,
    )
    if not public.event.type_url:
        public.event.type_url = event_url
    return public


#: The memo key of the StreamEventsResponse bytes of a run of events (with their sequences).
STREAM_BYTES = "stream-bytes"


def stream_message(
    item: list[StoredEvent] | Progress | Change | Heartbeat, event_url: str
) -> gw.StreamEventsResponse | bytes:
    """A heartbeat, the match's progress, one event, a batch of events, or a change's events
    with its progress as one StreamEvents message. Changes leave as the message's bytes,
    encoded once for every stream that sends the same (the handler's serializer passes bytes
    through)."""
    if isinstance(item, Heartbeat):
        return gw.StreamEventsResponse(heartbeat=gw.Heartbeat(last_sequence=item.last_sequence))
    if isinstance(item, Progress):
        if item.encoded is None:
            message = gw.StreamEventsResponse(progress=progress_message(item))
            object.__setattr__(item, "encoded", message.SerializeToString())
        return item.encoded
    note = item.progress if isinstance(item, Change) else None
    events = item.events if isinstance(item, Change) else item
    metrics.EVENTS_SENT.inc(len(events))
    memo = events[0].memo
    key = (STREAM_BYTES, event_url, note and note.version, *(e.sequence for e in events))
    encoded = memo.get(key)
    if encoded is None:
        if note is not None:
            batch = gw.EventBatch(events=[match_event(e, event_url) for e in events])
            batch.progress.CopyFrom(progress_message(note))
            message = gw.StreamEventsResponse(batch=batch)
        elif len(events) == 1:
            message = gw.StreamEventsResponse(event=match_event(events[0], event_url))
        else:
            batch = gw.EventBatch(events=[match_event(e, event_url) for e in events])
            message = gw.StreamEventsResponse(batch=batch)
        encoded = memo[key] = message.SerializeToString()
    return encoded


class StreamCalls:
    """StreamEvents and Play (whose actions go through `forward`)."""

    def __init__(
        self,
        callers: Callers,
        store: MatchStore,
        router: Router,
        hub: EventHub,
        quotas: Quotas,
        forward: ForwardCalls,
        matches: MatchCalls,
        heartbeat: float,
        play_queue: int,
    ) -> None:
        self.callers = callers
        self.store = store
        self.router = router
        self.hub = hub
        self.quotas = quotas
        self.forward = forward
        self.matches = matches
        self.heartbeat = heartbeat
        self.play_queue = play_queue

    async def event_url(self, game: str) -> str:
        """The type URL of the game's own Event messages."""
        return public.TYPE_URL_PREFIX + (await self.router.describe(game)).event_type

    async def finished(self, match: str, sub: Subscription | None = None) -> gw.MatchFinished:
        """The last message of a finished match's streams: the final progress the
        subscription was offered, else the stored one."""
        note = sub.progress if sub is not None else None
        if note is not None and note.last_sequence >= sub.cursor:
            final = progress_message(note)
            if final.HasField("outcome"):
                return gw.MatchFinished(progress=final)
        progress = await self.store.stored_progress(match)
        if progress is None:
            raise not_found("match", f"matches/{match}")
        return gw.MatchFinished(progress=public.progress(progress))

    @guarded
    async def StreamEvents(self, request, context):
        with self.quotas.stream(context.peer()):
            viewer = await self.callers.viewer(request.match, context, seated=False)
            together = request.progress_with_events
            async for message in self.stream_events(viewer, request.after_sequence, together):
                yield message

    async def stream_events(self, viewer: Viewer, after: int, together: bool = False):
        """The viewer's events after `after`, heartbeats while idle; with `together`, a
        change's events and progress in one message."""
        event_url = await self.event_url(viewer.game)
        async with self.hub.subscribe(viewer.match, viewer.seat, after) as sub:
            with self.callers.revocable(viewer, sub), expiry.until_expiry(sub, identity.current()):
                if viewer.token_hash is not None:
                    await self.callers.still_seated(viewer, sub)
                async for item in sub.events(self.heartbeat, together):
                    if isinstance(item, Finished):
                        final = await self.finished(viewer.match, sub)
                        yield gw.StreamEventsResponse(finished=final)
                        return
                    yield stream_message(item, event_url)

    @guarded
    async def Play(self, request_iterator, context):
        with self.quotas.stream(context.peer()):
            async for message in self.play(request_iterator, context):
                yield message

    async def play(self, request_iterator, context):
        """A Play session once its stream slot is held."""
        first = await anext(request_iterator, None)
        if isinstance(first, Refused):
            raise first.error
        if first is None or not first.HasField("open"):
            raise invalid_argument("open", "the first message of Play must be 'open'", "OPEN_FIRST")
        match = match_id_of(first.open.match)
        meta, progress = await self.matches.meta_and_progress(match)
        viewer = self.callers.resolve(match, meta, self.callers.seat_token(context), seated=False)
        request_context.note(match=match, game=viewer.game, seat=viewer.seat)
        opened = gw.SessionOpened(match=match_resource(match, meta, progress))
        if viewer.seat is not None:
            opened.seat = viewer.seat
        event_url = await self.event_url(viewer.game)
        async with self.hub.subscribe(viewer.match, viewer.seat, first.open.after_sequence) as sub:
            session = PlaySession(
                viewer.seat,
                expiry.acting(identity.current(), lambda action: self.forward.act(viewer, action)),
                lambda event: match_event(event, event_url),
                self.heartbeat,
                lambda: self.finished(viewer.match, sub),
                self.play_queue,
            )
            with self.callers.revocable(viewer, sub), expiry.until_expiry(sub, identity.current()):
                if viewer.token_hash is not None:
                    await self.callers.still_seated(viewer, sub)
                async for message in session.run(opened, request_iterator, sub):
                    yield message
