"""An async client of the gateway: matches, seats, views, actions, event streams, sessions.

Streams resume by themselves after a dropped connection (with backoff), from the
last sequence seen, so a reader gets every event it may see exactly once; if the server
lost events it had delivered (HISTORY_REWOUND: a Redis fail-over), they go on from where
the stored history ends, so sequences the reader saw come again, with what is stored.
Game messages unpack to their classes: the generated ones when imported, else
classes built from the gateway's reflection.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import random
import secrets
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import grpc
from google.protobuf import any_pb2, descriptor_pool, message_factory
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)
from grpc_status import rpc_status

from parlour.client.status import ServerStatus, is_lost
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc

log = logging.getLogger("parlour.client")
#: Codes after which a stream is reopened from where it was.
RESUMABLE = frozenset({grpc.StatusCode.UNAVAILABLE})
#: Ack codes of a refusal that may be retried with the same request id (not final).
RETRY_CODES = frozenset(
    code.value[0] for code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
)


def rewound_to(error: grpc.aio.AioRpcError, cursor: int) -> int | None:
    """The sequence to resume after when the server's stored events end before `cursor`,
    which the stream had delivered (HISTORY_REWOUND, or SEQUENCE_AHEAD on a resume): a Redis
    fail-over lost them (issue 40). None for any other refusal."""
    status = rpc_status.from_call(error)
    for detail in status.details if status else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info) and info.reason in ("HISTORY_REWOUND", "SEQUENCE_AHEAD"):
            last = int(info.metadata.get("last_sequence", "-1"))
            return last if 0 <= last < cursor else None
    return None


def resumable(error: grpc.aio.AioRpcError) -> bool:
    """A stream to reopen from where it was: its connection dropped (UNAVAILABLE), or the
    identity token it was opened with expired (IDENTITY_EXPIRED: the reopened stream
    carries the current one, when `identity_token` is a function)."""
    if error.code() in RESUMABLE:
        return True
    if error.code() != grpc.StatusCode.UNAUTHENTICATED:
        return False
    status = rpc_status.from_call(error)
    for detail in status.details if status else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info) and info.reason == "IDENTITY_EXPIRED":
            return True
    return False


def pack(message: Message) -> any_pb2.Any:
    """Wrap a game message in an Any."""
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


def new_request_id() -> str:
    """A fresh idempotency key."""
    return uuid.uuid4().hex


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff with jitter between reconnection attempts."""

    initial: float = 0.05
    maximum: float = 2.0
    attempts: int = 8

    def delay(self, attempt: int) -> float:
        """Seconds to wait before attempt number `attempt` (from 1)."""
        return random.uniform(0.5, 1.0) * min(self.maximum, self.initial * 2 ** (attempt - 1))


@dataclass(frozen=True)
class Update:
    """One event, unpacked: the game's Event message and the game's words for it."""

    sequence: int
    version: int
    actor: int
    text: str
    event: Message


@dataclass(frozen=True)
class Finished:
    """The last item of a feed: the match is over."""

    progress: gw.MatchProgress


#: Where a seat token travels when the gateway verifies identity (authorization: the JWT).
SEAT_HEADER = "x-parlour-seat-token"


class _Identity:
    """Sends `authorization: Bearer <JWT>` on every call; a seat token the call carried in
    `authorization` moves to x-parlour-seat-token (the gateway's form with identity on)."""

    def __init__(self, token: Callable[[], str]) -> None:
        self.token = token

    def _details(self, details):
        metadata = []
        for key, value in details.metadata or ():
            if key == "authorization":
                metadata.append((SEAT_HEADER, value.removeprefix("Bearer ")))
            else:
                metadata.append((key, value))
        metadata.append(("authorization", f"Bearer {self.token()}"))
        return details._replace(metadata=grpc.aio.Metadata(*metadata))


# grpc.aio files an interceptor under the first call kind it implements, so one per kind.
class _IdentityUnaryUnary(_Identity, grpc.aio.UnaryUnaryClientInterceptor):
    async def intercept_unary_unary(self, continuation, details, request):
        return await continuation(self._details(details), request)


class _IdentityUnaryStream(_Identity, grpc.aio.UnaryStreamClientInterceptor):
    async def intercept_unary_stream(self, continuation, details, request):
        return await continuation(self._details(details), request)


class _IdentityStreamStream(_Identity, grpc.aio.StreamStreamClientInterceptor):
    async def intercept_stream_stream(self, continuation, details, requests):
        return await continuation(self._details(details), requests)


def identity_interceptors(token: Callable[[], str]) -> list:
    """The interceptors that send the JWT on every kind of call the gateway has."""
    return [
        kind(token) for kind in (_IdentityUnaryUnary, _IdentityUnaryStream, _IdentityStreamStream)
    ]


class GatewayClient:
    """One channel to a gateway (TLS when `credentials` or `tls` is given). With
    `identity_token` (a JWT from the host's identity provider, or a function returning a
    current one) every call carries it, for a gateway that verifies identity."""

    def __init__(
        self,
        address: str,
        *,
        credentials: grpc.ChannelCredentials | None = None,
        tls: bool = False,
        backoff: Backoff | None = None,
        channel_options: list[tuple[str, object]] | None = None,
        identity_token: str | Callable[[], str] | None = None,
    ) -> None:
        self.address = address
        if credentials is None and tls:
            credentials = grpc.ssl_channel_credentials()
        self.credentials = credentials
        interceptors = None
        if identity_token is not None:
            token = identity_token if callable(identity_token) else lambda: identity_token
            interceptors = identity_interceptors(token)
        self.channel = (
            grpc.aio.secure_channel(
                address, credentials, options=channel_options, interceptors=interceptors
            )
            if credentials is not None
            else grpc.aio.insecure_channel(
                address, options=channel_options, interceptors=interceptors
            )
        )
        self.stub = gw_grpc.GatewayServiceStub(self.channel)
        self.backoff = backoff or Backoff()
        self._reflected: descriptor_pool.DescriptorPool | None = None

    async def close(self) -> None:
        await self.channel.close()

    async def __aenter__(self) -> GatewayClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- games and matches ----------------------------------------------------
    async def games(self) -> list[gw.Game]:
        """The games served."""
        return list((await self.stub.ListGames(gw.ListGamesRequest())).games)

    async def create_match(
        self,
        game: str,
        seats: int,
        *,
        options: Message | None = None,
        seed: int | None = None,
        spectators: bool = False,
        request_id: str | None = None,
        rated: bool | None = None,
    ) -> gw.Match:
        """Create a match (idempotent under retry with the same request id); spectators are
        refused unless allowed, as in a raw CreateMatch. `rated=False`: a friendly match
        whose result changes nobody's record (None: the gateway's default, rated)."""
        request = gw.CreateMatchRequest(
            game=game,
            seats=seats,
            allow_spectators=spectators,
            request_id=request_id or new_request_id(),
        )
        if options is not None:
            request.options.CopyFrom(pack(options))
        if seed is not None:
            request.seed = seed
        if rated is not None:
            request.rated = rated
        return (await self.stub.CreateMatch(request)).match

    async def join(
        self,
        match: str,
        name: str,
        seat: int | None = None,
        *,
        request_id: str | None = None,
        join_secret: str | None = None,
        bot: str = "",
        join_code: str = "",
    ) -> Seat:
        """Take a seat; returns a Seat holding its token and the record its results count
        toward. The request carries a join secret (a fresh one unless given; "" sends none)
        and is sent again, unchanged, while the answer is UNAVAILABLE or DEADLINE_EXCEEDED
        (the backoff's attempts): a repeat after a lost answer re-opens the seat with a fresh
        token instead of stranding it. A bot names its strategy in `bot` ("greedy"), so its
        results count toward the strategy's record, not a name's. `join_code`: a private
        table's."""
        request = gw.JoinMatchRequest(
            match=match,
            display_name=name,
            request_id=request_id or new_request_id(),
            join_secret=secrets.token_urlsafe(24) if join_secret is None else join_secret,
            bot=bot,
            join_code=join_code,
        )
        if seat is not None:
            request.seat = seat
        for attempt in range(1, max(self.backoff.attempts, 1) + 1):  # once with attempts=0
            try:
                response = await self.stub.JoinMatch(request)
                break
            except grpc.aio.AioRpcError as error:
                if error.code().value[0] not in RETRY_CODES or attempt >= self.backoff.attempts:
                    raise
                await asyncio.sleep(self.backoff.delay(attempt))
        return Seat(self, match, response.seat, response.seat_token, response.player)

    async def matches(
        self,
        game: str = "",
        statuses: tuple[int, ...] = (),
        *,
        page_size: int = 0,
        page_token: str = "",
    ) -> gw.ListMatchesResponse:
        """One page of the lobby: listed matches (those allowing spectators), oldest first."""
        request = gw.ListMatchesRequest(
            game=game, statuses=statuses, page_size=page_size, page_token=page_token
        )
        return await self.stub.ListMatches(request)

    async def lobby(self, game: str = "", statuses: tuple[int, ...] = ()):
        """Every listed match of the lobby, page after page."""
        token = ""
        while True:
            page = await self.matches(game, statuses, page_token=token)
            for match in page.matches:
                yield match
            if not (token := page.next_page_token):
                return

    async def join_or_create(
        self, game: str, name: str, *, seats: int = 0, request_id: str | None = None
    ) -> tuple[Seat, bool]:
        """A seat in the oldest open listed match of the game, or in a new one; returns the
        Seat and whether the match was created for it."""
        request = gw.JoinOrCreateRequest(
            game=game, seats=seats, display_name=name, request_id=request_id or new_request_id()
        )
        response = await self.stub.JoinOrCreate(request)
        joined = response.joined
        seat = Seat(self, joined.match.name, joined.seat, joined.seat_token, joined.player)
        return seat, response.created

    async def my_matches(self, page_size: int = 0) -> list[gw.MyMatch]:
        """The caller's matches and its seat in each, newest join first (needs identity on
        the gateway and this client's identity_token); parlour.client.mymatches splits them
        into "Your turn" and "Waiting for others"."""
        request = gw.ListMyMatchesRequest(page_size=page_size)
        return list((await self.stub.ListMyMatches(request)).matches)

    async def match(self, match: str) -> gw.Match:
        """A match's public facts."""
        return (await self.stub.GetMatch(gw.GetMatchRequest(match=match))).match

    # -- players' records -----------------------------------------------------------
    async def player_record(
        self, player: str, game: str = "", variant: str = ""
    ) -> gw.GetPlayerRecordResponse:
        """A player's record ("players/{key}" as a join or a leaderboard names it, or
        "players/me" with identity): per game and variant its rating, matches, wins, rank
        and newest rated matches; only `game` (and its `variant`) when given."""
        request = gw.GetPlayerRecordRequest(player=player, game=game, variant=variant)
        return await self.stub.GetPlayerRecord(request)

    async def leaderboard(
        self, game: str, variant: str = "", top: int = 10, around: str = "", neighbours: int = 5
    ) -> gw.ListLeaderboardResponse:
        """A game and variant's leaderboard (variant "": the game's first): the `top` best,
        and the `neighbours` on either side of the player `around` when given."""
        request = gw.ListLeaderboardRequest(
            game=game, variant=variant, top=top, around=around, neighbours=neighbours
        )
        return await self.stub.ListLeaderboard(request)

    def spectate(self, match: str, after: int = 0) -> AsyncIterator[gw.StreamEventsResponse]:
        """The public event stream, resumed after disconnects, ending when the match ends."""
        return self.stream_events(match, after, ())

    def watch(self, match: str, after: int = 0) -> AsyncIterator[Update | Finished]:
        """The public feed, unpacked."""
        return self.unpacked(self.spectate(match, after))

    # -- typed messages -----------------------------------------------------------
    async def message_class(self, type_url: str) -> type[Message]:
        """The class of a type URL's message: generated if imported, else from reflection."""
        name = type_url.rsplit("/", 1)[-1]
        try:
            descriptor = descriptor_pool.Default().FindMessageTypeByName(name)
        except KeyError:
            descriptor = await asyncio.to_thread(self._reflect, name)
        return message_factory.GetMessageClass(descriptor)

    def _reflect(self, name: str):
        if self._reflected is None:
            channel = (
                grpc.secure_channel(self.address, self.credentials)
                if self.credentials is not None
                else grpc.insecure_channel(self.address)
            )
            self._reflected = descriptor_pool.DescriptorPool(
                ProtoReflectionDescriptorDatabase(channel)
            )
        return self._reflected.FindMessageTypeByName(name)

    async def unpack(self, packed: any_pb2.Any) -> Message:
        """The game message inside an Any."""
        message = (await self.message_class(packed.type_url))()
        message.ParseFromString(packed.value)
        return message

    async def unpacked(
        self, items: AsyncIterator[gw.StreamEventsResponse]
    ) -> AsyncIterator[Update | Finished]:
        """Events as Updates (their game Event unpacked), then Finished."""
        async for item in items:
            if item.HasField("event"):
                e = item.event
                yield Update(e.sequence, e.version, e.actor, e.text, await self.unpack(e.event))
            elif item.HasField("finished"):
                yield Finished(item.finished.progress)

    # -- resumable streams ----------------------------------------------------------
    async def stream_events(
        self, match: str, after: int, metadata: tuple
    ) -> AsyncIterator[gw.StreamEventsResponse]:
        """StreamEvents, one event per item, each change's progress after its events,
        reopened after the last sequence seen when the connection drops (no gap, no
        duplicate), ending with the finished message. A change comes as one message
        (progress_with_events), so a client needs no GetView to learn the match moved."""
        cursor, failures = after, 0
        while True:
            request = gw.StreamEventsRequest(
                match=match, after_sequence=cursor, progress_with_events=True
            )
            try:
                async for item in self.stub.StreamEvents(request, metadata=metadata):
                    failures = 0
                    for one in _split(item):
                        if one.HasField("event"):
                            if one.event.sequence <= cursor:
                                continue
                            cursor = one.event.sequence
                        elif one.HasField("heartbeat"):
                            cursor = max(cursor, one.heartbeat.last_sequence)
                        yield one
                        if one.HasField("finished"):
                            return
                return
            except grpc.aio.AioRpcError as error:
                failures += 1
                if (last := rewound_to(error, cursor)) is not None:
                    # re-sync: what follows is the stored history, from where it ends now
                    log.warning("the match's history was rewound", extra={"match": match})
                    cursor = last
                    continue
                if not resumable(error) or failures > self.backoff.attempts:
                    raise
                await asyncio.sleep(self.backoff.delay(failures))


def _split(item: gw.StreamEventsResponse) -> list[gw.StreamEventsResponse]:
    """A batch as its events one by one, then the progress it carries; else the item."""
    if not item.HasField("batch"):
        return [item]
    split = [gw.StreamEventsResponse(event=e) for e in item.batch.events]
    if item.batch.HasField("progress"):
        split.append(gw.StreamEventsResponse(progress=item.batch.progress))
    return split


class Seat:
    """A seated player: the token travels with every call. `player` is the record its
    results count toward ("players/{key}"; "": nobody's)."""

    def __init__(
        self, client: GatewayClient, match: str, seat: int, token: str, player: str = ""
    ) -> None:
        self.client = client
        self.match = match
        self.seat = seat
        self.token = token
        self.player = player
        self.metadata = (("authorization", f"Bearer {token}"),)

    async def get_view(self) -> gw.GetViewResponse:
        """The raw GetView answer: the packed View and the match progress."""
        return await self.client.stub.GetView(
            gw.GetViewRequest(match=self.match), metadata=self.metadata
        )

    async def view(self) -> Message:
        """The game's View message for this seat."""
        return await self.client.unpack((await self.get_view()).view)

    async def progress(self) -> gw.MatchProgress:
        """Version, pending decisions and outcome of the match."""
        return (await self.get_view()).progress

    async def actions(self) -> gw.ListActionsResponse:
        """The seat's legal actions (packed), their labels and the progress."""
        return await self.client.stub.ListActions(
            gw.ListActionsRequest(match=self.match), metadata=self.metadata
        )

    async def legal_actions(self) -> list[tuple[Message, str]]:
        """The seat's legal actions as the game's Action messages, each with its label."""
        listed = await self.actions()
        return [
            (await self.client.unpack(a), label)
            for a, label in zip(listed.actions, listed.labels, strict=True)
        ]

    async def submit(
        self,
        action: any_pb2.Any | Message,
        *,
        request_id: str | None = None,
        expected_version: int | None = None,
        timeout: float | None = None,
    ) -> gw.SubmitActionResponse:
        """Submit one action by unary call (retrying with the same request id is safe)."""
        packed = action if isinstance(action, any_pb2.Any) else pack(action)
        request = gw.SubmitActionRequest(
            match=self.match, action=packed, request_id=request_id or new_request_id()
        )
        if expected_version is not None:
            request.expected_version = expected_version
        return await self.client.stub.SubmitAction(request, metadata=self.metadata, timeout=timeout)

    def events(self, after: int = 0) -> AsyncIterator[gw.StreamEventsResponse]:
        """This seat's event stream from a sequence, resumed after disconnects."""
        return self.client.stream_events(self.match, after, self.metadata)

    def feed(self, after: int = 0) -> AsyncIterator[Update | Finished]:
        """This seat's events unpacked, then Finished."""
        return self.client.unpacked(self.events(after))

    async def sample_hidden(self, seed: int, count: int) -> gw.SampleHiddenResponse:
        """States this seat cannot tell from the match, hidden parts dealt afresh."""
        return await self.client.stub.SampleHidden(
            gw.SampleHiddenRequest(match=self.match, seed=seed, count=count),
            metadata=self.metadata,
        )

    async def leave(self) -> gw.Match:
        return (
            await self.client.stub.LeaveMatch(
                gw.LeaveMatchRequest(match=self.match), metadata=self.metadata
            )
        ).match

    async def undo(self, *, request_id: str | None = None) -> gw.UndoActionResponse:
        """Take back this seat's last action, or ask the other seats to agree (when the
        match's options need it); retrying with the same request id is safe."""
        request = gw.UndoActionRequest(match=self.match, request_id=request_id or new_request_id())
        return await self.client.stub.UndoAction(request, metadata=self.metadata)

    async def answer_undo(
        self, accept: bool, *, request_id: str | None = None
    ) -> gw.AnswerUndoResponse:
        """Accept or refuse another seat's open undo request."""
        request = gw.AnswerUndoRequest(
            match=self.match,
            request_id=request_id or new_request_id(),
            answer=gw.UNDO_ANSWER_ACCEPT if accept else gw.UNDO_ANSWER_REFUSE,
        )
        return await self.client.stub.AnswerUndo(request, metadata=self.metadata)

    async def set_away(
        self, until_unix_ms: int, *, request_id: str | None = None
    ) -> gw.SetAwayResponse:
        """In a correspondence match, pause this seat's clock until a date (Unix ms; within
        the match's limits; an earlier date cuts the pause short), or 0: back now. Every seat
        sees it; retrying with the same request id is safe."""
        request = gw.SetAwayRequest(
            match=self.match, until_unix_ms=until_unix_ms, request_id=request_id or new_request_id()
        )
        return await self.client.stub.SetAway(request, metadata=self.metadata)

    def session(self, after: int = 0) -> Session:
        """A Play stream: send actions, receive acks and events."""
        return Session(self, after)


class Session:
    """A bidirectional Play session for a seat, reopened after a dropped connection.

    On reopening it resumes events after the last sequence seen and sends again the
    actions not yet acknowledged, with their request ids, so each action is applied
    once and each ack and event is received once. Actions go out only once the server
    has accepted the session (its `opened` message arrived). The server can still end
    the stream while a message is being written (a refused credential, a revoked token,
    a draining gateway); grpc.aio then reports its own INTERNAL (LOST_STATUS) in place
    of the server's status, and `receive` raises the server's status instead, which the
    call's done callbacks saw (parlour.client.status). A refusal that may be retried
    (UNAVAILABLE, DEADLINE_EXCEEDED) is not final: the ack to the same request id sent
    again is received too.
    """

    def __init__(self, seat: Seat, after: int) -> None:
        self.seat = seat
        self.cursor = after
        self.unacked: dict[str, gw.PlayRequest] = {}
        self._acked: set[str] = set()
        self._opened = False
        self._closed = False
        self._failures = 0
        self._received: collections.deque[gw.PlayResponse] = collections.deque()
        self._open()

    def _open(self) -> None:
        opening = gw.PlayRequest(
            open=gw.OpenSession(match=self.seat.match, after_sequence=self.cursor)
        )
        outbox: asyncio.Queue = asyncio.Queue()
        for request in self.unacked.values():
            outbox.put_nowait(request)
        if self._closed:
            outbox.put_nowait(None)
        self._outbox = outbox
        self._accepted = asyncio.Event()
        requests = _Requests(opening, self._accepted, outbox)
        self.call = self.seat.client.stub.Play(requests, metadata=self.seat.metadata)
        self._status = ServerStatus(self.call)
        self.call.add_done_callback(requests.stop)

    def send(self, action: any_pb2.Any | Message, request_id: str | None = None) -> str:
        """Queue an action; returns its request id (its ack carries the same id)."""
        packed = action if isinstance(action, any_pb2.Any) else pack(action)
        request_id = request_id or new_request_id()
        request = gw.PlayRequest(
            action=gw.SubmitActionRequest(action=packed, request_id=request_id)
        )
        self.unacked[request_id] = request
        self._outbox.put_nowait(request)
        return request_id

    async def receive(self) -> gw.PlayResponse:
        """The next ack, event, heartbeat or finished message (batches are split);
        EOFError once the stream has ended."""
        while True:
            if not self._received:
                message = await self._read()
                if message.HasField("batch"):
                    self._received.extend(message.batch.items)
                    continue
            else:
                message = self._received.popleft()
            if self._fresh(message):
                return message

    async def _read(self) -> gw.PlayResponse:
        backoff = self.seat.client.backoff
        while True:
            try:
                message = await self.call.read()
            except grpc.aio.AioRpcError as raised:
                error = await self._status.of(raised)
                if error.code() == grpc.StatusCode.OK:
                    raise EOFError("the Play stream ended") from None
                self._failures += 1
                if (last := rewound_to(error, self.cursor)) is not None:
                    log.warning("the match's history was rewound", extra={"match": self.seat.match})
                    self.cursor = last  # re-sync from the stored history
                    self._open()
                    continue
                # still LOST_STATUS: the server's status never came (the connection broke)
                lost = is_lost(error.code(), error.details())
                if not (lost or resumable(error)) or self._failures > backoff.attempts:
                    raise error from None
                await asyncio.sleep(backoff.delay(self._failures))
                self._open()
                continue
            if message is grpc.aio.EOF:
                raise EOFError("the Play stream ended")
            self._failures = 0
            items = message.batch.items if message.HasField("batch") else [message]
            if any(item.HasField("opened") for item in items):
                self._accepted.set()
            return message

    def _fresh(self, message: gw.PlayResponse) -> bool:
        """Track the cursor and acks; False for what a reopened stream repeats."""
        kind = message.WhichOneof("kind")
        if kind == "event":
            if message.event.sequence <= self.cursor:
                return False
            self.cursor = message.event.sequence
        elif kind == "heartbeat":
            self.cursor = max(self.cursor, message.heartbeat.last_sequence)
        elif kind == "ack":
            request_id = message.ack.request_id
            if request_id in self._acked:
                return False
            if message.ack.code not in RETRY_CODES:
                # final: a repeat of it is dropped. A retryable refusal is not final, so
                # the answer to the same request id sent again still reaches the caller.
                self._acked.add(request_id)
            self.unacked.pop(request_id, None)
        elif kind == "opened":
            if self._opened:
                return False
            self._opened = True
        return True

    def close(self) -> None:
        """Finish sending; the server ends the stream once pending acks are sent."""
        self._closed = True
        self._outbox.put_nowait(None)

    def cancel(self) -> None:
        self.call.cancel()


class _Requests:
    """The open message, then (once the server accepted it) the queued actions until None
    or the end of the call (`stop`, a done callback: nothing waits on an ended call).

    An iterator, not an async generator: grpc may drop it while it waits, and a dropped
    generator is closed by the event loop, which fails ("already running") mid-wait."""

    def __init__(self, opening: gw.PlayRequest, accepted: asyncio.Event, outbox: asyncio.Queue):
        self.opening: gw.PlayRequest | None = opening
        self.accepted = accepted
        self.outbox = outbox
        self.ended = False

    def stop(self, _call: object = None) -> None:
        """The call has ended: stop at once (the actions stay unacked, for a reopening)."""
        self.ended = True
        self.accepted.set()
        self.outbox.put_nowait(None)

    def __aiter__(self) -> _Requests:
        return self

    async def __anext__(self) -> gw.PlayRequest:
        if self.opening is not None:
            opening, self.opening = self.opening, None
            return opening
        await self.accepted.wait()
        item = await self.outbox.get()
        if item is None or self.ended:
            raise StopAsyncIteration
        return item
