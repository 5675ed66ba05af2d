"""Issue 28, item 2: a JoinMatch whose answer was lost no longer strands the seat. The
answer is dropped at a real TCP proxy (the join is committed, the caller never hears);
a retry presenting the same join secret re-opens the seat with a fresh token, the old
one revoked; a retry without it stays ALREADY_EXISTS ALREADY_JOINED; then play goes on."""

from __future__ import annotations

import asyncio
import contextlib
import secrets

import grpc
import pytest
from edge_helpers import error_info
from identity_helpers import Provider, identity_stack

from parlour.client import GatewayClient
from parlour.client.client import Seat
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.store import keys
from parlour.store.matchstore import MatchStore
from stack import running_stack

#: HTTP/2 frame type of a HEADERS frame (RFC 9113, 6.2): a response starts with one.
HEADERS = 0x1


class AnswerDroppingProxy:
    """Forwards TCP to `upstream`; while `dropping`, a connection whose server starts an
    answer (a HEADERS frame on a stream) is cut before that frame reaches the client."""

    def __init__(self, upstream: tuple[str, int], *, once: bool = False) -> None:
        self.upstream = upstream
        self.dropping = True
        #: Drop only the first answer.
        self.once = once
        self.dropped = 0
        self.server: asyncio.Server | None = None
        self.tasks: set[asyncio.Task] = set()

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return f"127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def close(self) -> None:
        self.server.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def _serve(self, reader, writer) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        pumps = [
            asyncio.create_task(self._pump(reader, up_writer)),
            asyncio.create_task(self._answers(up_reader, writer)),
        ]
        self.tasks.update(pumps)
        await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        for task in pumps:
            task.cancel()
        for w in (writer, up_writer):
            with contextlib.suppress(Exception):
                w.close()

    async def _pump(self, reader, writer) -> None:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()

    async def _answers(self, reader, writer) -> None:
        """Server -> client, frame by frame (the server sends no preface, only frames)."""
        while True:
            header = await reader.readexactly(9)
            length = int.from_bytes(header[:3], "big")
            stream = int.from_bytes(header[5:9], "big") & 0x7FFFFFFF
            body = await reader.readexactly(length)
            if self.dropping and header[3] == HEADERS and stream != 0:
                self.dropped += 1
                self.dropping = not self.once
                return
            writer.write(header + body)
            await writer.drain()


async def retried_join(client: GatewayClient, request: gw.JoinMatchRequest):
    """The retry a client makes after a lost answer: the cut connection may still be closing
    (UNAVAILABLE "Stream removed"), which is retryable, so it retries as any client would."""
    for attempt in range(5):
        try:
            return await client.stub.JoinMatch(request, timeout=10)
        except grpc.aio.AioRpcError as error:
            if error.code() != grpc.StatusCode.UNAVAILABLE or attempt == 4:
                raise
            await asyncio.sleep(0.2)
    raise AssertionError("unreachable")


async def test_item2_a_lost_join_answer_is_recovered_with_the_join_secret(redis_url):
    """Item 2: drop the JoinMatch answer at a TCP proxy (the seat is taken, the caller gets
    UNAVAILABLE); retry without the secret: ALREADY_JOINED, no token; with another secret:
    the same; with the secret: the same seat, a fresh token, reopened, the seat version up
    (the unseen token revoked); then both seats play on."""
    async with running_stack(redis_url) as (address, _):
        proxy = AnswerDroppingProxy(("127.0.0.1", int(address.rpartition(":")[2])))
        through = await proxy.start()
        store = MatchStore.from_url(redis_url)
        try:
            async with GatewayClient(address) as direct, GatewayClient(through) as lossy:
                match = await direct.create_match("tinycards", 2, seed=7)
                bob = await direct.join(match.name, "Bob")
                secret = secrets.token_urlsafe(24)
                request = gw.JoinMatchRequest(
                    match=match.name, display_name="Alice", request_id="j-1", join_secret=secret
                )
                with pytest.raises(grpc.aio.AioRpcError) as lost:
                    await lossy.stub.JoinMatch(request, timeout=10)
                assert lost.value.code() == grpc.StatusCode.UNAVAILABLE
                assert proxy.dropped == 1
                seats = (await direct.match(match.name)).seats
                assert [s.display_name for s in seats if s.occupied] == ["Bob", "Alice"]
                version = int(
                    await store.redis.hget(keys.meta(match.name.removeprefix("matches/")), "sv")
                    or 0
                )

                for other in ("", secrets.token_urlsafe(24)):
                    retry = gw.JoinMatchRequest()
                    retry.CopyFrom(request)
                    retry.join_secret = other
                    with pytest.raises(grpc.aio.AioRpcError) as again:
                        await direct.stub.JoinMatch(retry)
                    assert again.value.code() == grpc.StatusCode.ALREADY_EXISTS
                    assert error_info(again.value).reason == "ALREADY_JOINED"

                proxy.dropping = False
                answer = await retried_join(lossy, request)
                assert answer.reopened and answer.seat == 1 and answer.seat_token
                meta = await store.redis.hgetall(keys.meta(match.name.removeprefix("matches/")))
                assert int(meta[b"sv"]) == version + 1
                holders = [k for k, v in meta.items() if k.startswith(b"t:") and v == b"1"]
                assert len(holders) == 1

                alice = Seat(lossy, match.name, answer.seat, answer.seat_token)
                players = {0: bob, 1: alice}
                start = (await alice.get_view()).progress.version
                for _ in range(4):
                    progress = (await alice.get_view()).progress
                    if progress.HasField("outcome"):
                        break
                    seat = progress.pending[0].seat
                    actions = (await players[seat].actions()).actions
                    await players[seat].submit(actions[0])
                assert (await bob.get_view()).progress.version > start
        finally:
            await proxy.close()
            await store.close()


async def test_the_sdk_recovers_a_lost_join_answer_by_default(redis_url):
    """Issue 34: the Python SDK's join() sends a join secret unasked and repeats the same
    request after a lost answer, so the seat is re-opened for it (not ALREADY_JOINED) and
    plays."""
    async with running_stack(redis_url) as (address, _):
        proxy = AnswerDroppingProxy(("127.0.0.1", int(address.rpartition(":")[2])), once=True)
        through = await proxy.start()
        try:
            async with GatewayClient(address) as direct, GatewayClient(through) as lossy:
                match = await direct.create_match("tinycards", 2, seed=7)
                bob = await direct.join(match.name, "Bob")
                alice = await lossy.join(match.name, "Alice")
                assert proxy.dropped == 1
                assert alice.seat == 1
                seats = (await direct.match(match.name)).seats
                assert [s.display_name for s in seats if s.occupied] == ["Bob", "Alice"]
                seat = (await alice.get_view()).progress.pending[0].seat
                player = {0: bob, 1: alice}[seat]
                await player.submit((await player.actions()).actions[0])
        finally:
            await proxy.close()


async def test_item2_with_identity_the_subject_recovers_a_lost_join(redis_url):
    """Item 2 with identity on: the subject is the proof. The answer is dropped at the
    proxy; the same person's retry (same request id, no secret) re-opens the seat with a
    fresh token, and the seat plays."""
    provider = Provider()
    try:
        async with identity_stack(redis_url, provider) as (address, _):
            proxy = AnswerDroppingProxy(("127.0.0.1", int(address.rpartition(":")[2])))
            through = await proxy.start()
            alice = provider.token("alice")
            try:
                async with (
                    GatewayClient(address, identity_token=provider.token("bob")) as bob_client,
                    GatewayClient(through, identity_token=alice) as lossy,
                ):
                    match = await bob_client.create_match("tinycards", 2, seed=9)
                    bob = await bob_client.join(match.name, "Bob")
                    request = gw.JoinMatchRequest(
                        match=match.name, display_name="Alice", request_id="j-2"
                    )
                    with pytest.raises(grpc.aio.AioRpcError) as lost:
                        await lossy.stub.JoinMatch(request, timeout=10)
                    assert lost.value.code() == grpc.StatusCode.UNAVAILABLE
                    proxy.dropping = False
                    answer = await retried_join(lossy, request)
                    assert answer.reopened and answer.seat == 1

                    players = {0: bob, 1: Seat(lossy, match.name, 1, answer.seat_token)}
                    progress = (await bob.get_view()).progress
                    seat = progress.pending[0].seat
                    await players[seat].submit((await players[seat].actions()).actions[0])
                    assert (await bob.get_view()).progress.version == progress.version + 1
            finally:
                await proxy.close()
    finally:
        provider.close()
