"""Issue 34 item 1: a stream ends when the identity token it was opened with expires
(UNAUTHENTICATED IDENTITY_EXPIRED): no event committed after that moment reaches it, and
a Play session commits no action sent after it. Re-opening with a fresh token and
resuming misses nothing. Real gRPC, real Redis, a real JWKS over loopback HTTP."""

from __future__ import annotations

import asyncio
import time

import grpc
from edge_helpers import error_info
from identity_helpers import Provider, identity_stack, metadata

from parlour.client import GatewayClient
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc
from parlour.rules.v1 import rules_pb2
from parlour.store.matchstore import MatchStore

#: Seconds the short token lives.
LIFETIME = 4


def sequences(message) -> list[int]:
    """The event sequences a StreamEvents or Play message carries."""
    kind = message.WhichOneof("kind")
    if kind == "event":
        return [message.event.sequence]
    if kind == "batch" and hasattr(message.batch, "events"):
        return [e.sequence for e in message.batch.events]
    if kind == "batch":
        return [s for item in message.batch.items for s in sequences(item)]
    return []


async def drain(stream, seen: list[int]) -> grpc.aio.AioRpcError | None:
    """Read a stream to its end (at most 20 s), noting event sequences; its error."""
    try:
        async with asyncio.timeout(20):
            async for message in stream:
                seen += sequences(message)
    except grpc.aio.AioRpcError as error:
        return error
    except TimeoutError:
        stream.cancel()
    return None


async def test_streams_end_at_the_token_expiry_and_resume_with_a_fresh_one(redis_url):
    """StreamEvents and Play opened with a token valid for 4 s: both end UNAUTHENTICATED
    IDENTITY_EXPIRED; no event committed after the expiry arrives on them; the action
    sent on Play after the expiry is not committed; StreamEvents re-opened with a fresh
    token from the last sequence seen gets the events committed since."""
    provider = Provider()
    store = MatchStore.from_url(redis_url)
    try:
        async with (
            identity_stack(
                redis_url, provider, auth_leeway_seconds=0, heartbeat_seconds=0.5
            ) as (address, _),
            GatewayClient(address, identity_token=lambda: provider.token("alice")) as alice,
            GatewayClient(address, identity_token=lambda: provider.token("bob")) as bob,
            grpc.aio.insecure_channel(address) as channel,
        ):
            match = await alice.create_match("tinycards", 2, seed=5)
            players = [await alice.join(match.name, "Alice"), await bob.join(match.name, "Bob")]
            expires = int(time.time()) + LIFETIME
            short = metadata(provider.token("alice", exp=expires), players[0].token)
            stub = gw_grpc.GatewayServiceStub(channel)
            events = stub.StreamEvents(gw.StreamEventsRequest(match=match.name), metadata=short)
            outbox: asyncio.Queue = asyncio.Queue()
            outbox.put_nowait(gw.PlayRequest(open=gw.OpenSession(match=match.name)))

            async def requests():
                while (item := await outbox.get()) is not None:
                    yield item

            play = stub.Play(requests(), metadata=short)
            seen_events: list[int] = []
            seen_play: list[int] = []
            readers = [
                asyncio.create_task(drain(events, seen_events)),
                asyncio.create_task(drain(play, seen_play)),
            ]
            progress = (await players[0].get_view()).progress
            await players[progress.pending[0].seat].submit(
                (await players[progress.pending[0].seat].actions()).actions[0]
            )
            await asyncio.sleep(max(0.0, expires - time.time()) + 0.3)
            at_expiry = (await players[0].get_view()).progress.last_sequence
            # after the expiry: Alice's next action goes on the Play stream, Bob's by call
            sent_late = False
            for _ in range(7):
                progress = (await players[0].get_view()).progress
                if progress.HasField("outcome"):
                    break
                seat = progress.pending[0].seat
                action = (await players[seat].actions()).actions[0]
                if seat == 0 and not sent_late:
                    late = gw.SubmitActionRequest(action=action, request_id="after-expiry")
                    outbox.put_nowait(gw.PlayRequest(action=late))
                    sent_late = True
                    await asyncio.sleep(0.5)  # then Alice acts by call, with a valid token
                else:
                    await players[seat].submit(action)
            assert sent_late
            after = (await players[0].get_view()).progress.last_sequence
            assert after > at_expiry, "nothing was committed after the expiry"
            ended = await asyncio.gather(*readers)
            outbox.put_nowait(None)

            for error in ended:
                assert error is not None, "a stream outlived its identity token"
                assert error.code() == grpc.StatusCode.UNAUTHENTICATED, error
                assert error_info(error).reason == "IDENTITY_EXPIRED"
            assert max(seen_events + seen_play, default=0) <= at_expiry
            log = await store.match_log(match.name.removeprefix("matches/"))
            logged = [rules_pb2.LoggedAction.FromString(a).request_id for a in log.actions]
            assert "after-expiry" not in logged

            fresh = metadata(provider.token("alice"), players[0].token)
            resumed: list[int] = []
            request = gw.StreamEventsRequest(match=match.name, after_sequence=max(seen_events))
            again = stub.StreamEvents(request, metadata=fresh)
            async with asyncio.timeout(20):
                async for message in again:
                    resumed += sequences(message)
                    if resumed and max(resumed) >= after:
                        break
            again.cancel()
            assert resumed and min(resumed) > max(seen_events)
    finally:
        await store.close()
        provider.close()


async def test_the_sdk_reopens_its_streams_with_a_fresh_token(redis_url):
    """The Python SDK, given `identity_token` as a function, reopens its StreamEvents and
    Play streams with the current token when the one they were opened with expires, and
    resumes: every event and every ack arrives across several 3 s tokens."""
    provider = Provider()
    try:
        async with (
            identity_stack(
                redis_url, provider, auth_leeway_seconds=0, heartbeat_seconds=0.5
            ) as (address, _),
            GatewayClient(
                address, identity_token=lambda: provider.token("ann", exp=int(time.time()) + 3)
            ) as ann,
            GatewayClient(address, identity_token=lambda: provider.token("ben")) as ben,
        ):
            match = await ann.create_match("tinycards", 2, seed=11)
            players = [await ann.join(match.name, "Ann"), await ben.join(match.name, "Ben")]
            session = players[0].session()
            acks: asyncio.Queue = asyncio.Queue()
            seen: list[int] = []

            async def read_session() -> None:
                while True:
                    message = await session.receive()
                    items = message.batch.items if message.HasField("batch") else [message]
                    for item in items:
                        if item.HasField("ack"):
                            acks.put_nowait(item.ack)

            async def read_feed() -> None:
                async for item in players[0].events():
                    seen.extend(sequences(item))

            readers = [asyncio.create_task(read_session()), asyncio.create_task(read_feed())]
            started = time.monotonic()
            acked = 0
            try:
                while time.monotonic() - started < 8:
                    progress = (await players[1].get_view()).progress
                    if progress.HasField("outcome"):
                        break
                    seat = progress.pending[0].seat
                    action = (await players[seat].actions()).actions[0]
                    if seat == 1:
                        await players[1].submit(action)
                    else:
                        request_id = session.send(action)
                        async with asyncio.timeout(20):
                            while (ack := await acks.get()).request_id != request_id:
                                pass
                        assert not ack.code, ack
                        acked += 1
                    await asyncio.sleep(1)
                last = (await players[0].get_view()).progress.last_sequence
                async with asyncio.timeout(20):
                    while not seen or max(seen) < last:
                        done = [t for t in readers if t.done()]
                        assert not done, done[0].exception()
                        await asyncio.sleep(0.1)
                assert all(not t.done() for t in readers), "a stream ended"
            finally:
                for task in readers:
                    task.cancel()
                session.cancel()
            assert time.monotonic() - started > 6, "the match ended before two tokens expired"
            assert acked >= 2
            assert len(seen) == len(set(seen)) and max(seen) == last
    finally:
        provider.close()
