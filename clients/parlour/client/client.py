"""An async client of the gateway: matches, seats, views, actions, event streams, sessions."""

from __future__ import annotations

import asyncio
import collections
import uuid
from collections.abc import AsyncIterator

import grpc
from google.protobuf import any_pb2
from google.protobuf.message import Message

from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc


async def unbatched(stream) -> AsyncIterator[gw.StreamEventsResponse]:
    """StreamEvents messages with batches split into one event each."""
    async for item in stream:
        if item.HasField("batch"):
            for event in item.batch.events:
                yield gw.StreamEventsResponse(event=event)
        else:
            yield item


def pack(message: Message) -> any_pb2.Any:
    """Wrap a game message in an Any."""
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


class GatewayClient:
    """One channel to a gateway."""

    def __init__(self, address: str) -> None:
        self.channel = grpc.aio.insecure_channel(address)
        self.stub = gw_grpc.GatewayServiceStub(self.channel)

    async def close(self) -> None:
        await self.channel.close()

    async def __aenter__(self) -> GatewayClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

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
    ) -> gw.Match:
        """Create a match (idempotent under retry); spectators are refused unless allowed,
        as in a raw CreateMatch."""
        request = gw.CreateMatchRequest(
            game=game, seats=seats, allow_spectators=spectators, request_id=uuid.uuid4().hex
        )
        if options is not None:
            request.options.CopyFrom(pack(options))
        if seed is not None:
            request.seed = seed
        return (await self.stub.CreateMatch(request)).match

    async def join(self, match: str, name: str, seat: int | None = None) -> Seat:
        """Take a seat; returns a Seat holding its token."""
        request = gw.JoinMatchRequest(match=match, display_name=name, request_id=uuid.uuid4().hex)
        if seat is not None:
            request.seat = seat
        response = await self.stub.JoinMatch(request)
        return Seat(self, match, response.seat, response.seat_token)

    async def match(self, match: str) -> gw.Match:
        """A match's public facts."""
        return (await self.stub.GetMatch(gw.GetMatchRequest(match=match))).match

    async def spectate(self, match: str, after: int = 0) -> AsyncIterator[gw.StreamEventsResponse]:
        """The public event stream."""
        request = gw.StreamEventsRequest(match=match, after_sequence=after)
        async for item in unbatched(self.stub.StreamEvents(request)):
            yield item


class Seat:
    """A seated player: the token travels with every call."""

    def __init__(self, client: GatewayClient, match: str, seat: int, token: str) -> None:
        self.client = client
        self.match = match
        self.seat = seat
        self.token = token
        self.metadata = (("authorization", f"Bearer {token}"),)

    async def view(self) -> gw.GetViewResponse:
        return await self.client.stub.GetView(
            gw.GetViewRequest(match=self.match), metadata=self.metadata
        )

    async def actions(self) -> gw.ListActionsResponse:
        return await self.client.stub.ListActions(
            gw.ListActionsRequest(match=self.match), metadata=self.metadata
        )

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
            match=self.match, action=packed, request_id=request_id or uuid.uuid4().hex
        )
        if expected_version is not None:
            request.expected_version = expected_version
        return await self.client.stub.SubmitAction(
            request, metadata=self.metadata, timeout=timeout
        )

    async def events(self, after: int = 0) -> AsyncIterator[gw.StreamEventsResponse]:
        """This seat's event stream, resumable from a sequence."""
        request = gw.StreamEventsRequest(match=self.match, after_sequence=after)
        async for item in unbatched(self.client.stub.StreamEvents(request, metadata=self.metadata)):
            yield item

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

    def session(self, after: int = 0) -> Session:
        """A Play stream: send actions, receive acks and events."""
        return Session(self, after)


class Session:
    """A bidirectional Play session for a seat.

    Actions queued with `send` go out only once the server has accepted the session
    (its `opened` message has been received): writing them while the server refuses
    the open would make gRPC report its own INTERNAL error instead of the server's
    status, which `receive` raises as it is.
    """

    def __init__(self, seat: Seat, after: int) -> None:
        self.seat = seat
        self._outbox: asyncio.Queue = asyncio.Queue()
        self._open = gw.PlayRequest(open=gw.OpenSession(match=seat.match, after_sequence=after))
        self._accepted = asyncio.Event()
        self.call = seat.client.stub.Play(self._requests(), metadata=seat.metadata)
        self._received: collections.deque[gw.PlayResponse] = collections.deque()

    async def _requests(self):
        yield self._open
        await self._accepted.wait()
        while (item := await self._outbox.get()) is not None:
            yield item

    def send(self, action: any_pb2.Any | Message, request_id: str | None = None) -> str:
        """Queue an action; returns its request id (its ack carries the same id)."""
        packed = action if isinstance(action, any_pb2.Any) else pack(action)
        request_id = request_id or uuid.uuid4().hex
        self._outbox.put_nowait(
            gw.PlayRequest(action=gw.SubmitActionRequest(action=packed, request_id=request_id))
        )
        return request_id

    async def receive(self) -> gw.PlayResponse:
        """The next ack, event or heartbeat (batches are split)."""
        while not self._received:
            message = await self.call.read()
            if message is grpc.aio.EOF:
                raise EOFError("the Play stream ended")
            items = message.batch.items if message.HasField("batch") else [message]
            if any(item.HasField("opened") for item in items):
                self._accepted.set()
            self._received.extend(items)
        return self._received.popleft()

    def close(self) -> None:
        """Finish sending; the server ends the stream once pending acks are sent."""
        self._outbox.put_nowait(None)

    def cancel(self) -> None:
        self.call.cancel()
