"""Issue 9, seats and identity (items 1, 2, 3, 5, 6) over real gRPC, Redis and rules services."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from edge_helpers import error_info, field_violations, seated, take_turn

from parlour.client import GatewayClient
from parlour.gateway.config import GatewayConfig
from parlour.gateway.server import Gateway
from parlour.gateway.v1 import gateway_pb2 as gw
from stack import running_stack


@pytest.fixture
async def stack(redis_url):
    async with running_stack(redis_url, heartbeat_seconds=0.2) as (address, gateway):
        async with GatewayClient(address) as client:
            yield client, gateway, address


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


async def view_works(client, match: str, token: str) -> bool:
    try:
        await client.stub.GetView(gw.GetViewRequest(match=match), metadata=bearer(token))
    except grpc.aio.AioRpcError as error:
        assert error.code() == grpc.StatusCode.UNAUTHENTICATED
        return False
    return True


async def test_item1_joinmatch_replay_cannot_take_a_seat(stack):
    """Item 1: replaying another player's JoinMatch request id mints no token and revokes
    none, before and after that player leaves and someone else takes the seat."""
    client, _, address = stack
    match = await client.create_match("tinycards", 2)
    join = gw.JoinMatchRequest(match=match.name, display_name="alice", request_id="1")
    alice = await client.stub.JoinMatch(join)
    async with GatewayClient(address) as attacker:
        with pytest.raises(grpc.aio.AioRpcError) as replay:
            await attacker.stub.JoinMatch(join)
        assert replay.value.code() == grpc.StatusCode.ALREADY_EXISTS
        info = error_info(replay.value)
        assert info.reason == "ALREADY_JOINED" and info.metadata["seat"] == str(alice.seat)
        assert alice.seat_token not in replay.value.details()
        assert await view_works(client, match.name, alice.seat_token)

        await client.stub.LeaveMatch(
            gw.LeaveMatchRequest(match=match.name), metadata=bearer(alice.seat_token)
        )
        bob = await client.stub.JoinMatch(
            gw.JoinMatchRequest(match=match.name, seat=alice.seat, display_name="bob")
        )
        assert bob.seat == alice.seat
        for wanted in (alice.seat, None):
            replayed = gw.JoinMatchRequest(match=match.name, display_name="alice", request_id="1")
            if wanted is not None:
                replayed.seat = wanted
            try:
                taken = await attacker.stub.JoinMatch(replayed)
            except grpc.aio.AioRpcError as error:
                assert error.code() in (
                    grpc.StatusCode.FAILED_PRECONDITION,
                    grpc.StatusCode.INVALID_ARGUMENT,
                )
            else:
                assert taken.seat != bob.seat, "a replay was given the new holder's seat"
            assert await view_works(client, match.name, bob.seat_token), "the holder was evicted"
    current = await client.match(match.name)
    assert current.seats[bob.seat].display_name == "bob"


async def held_open(first):
    """A request stream that sends `first` and then stays open."""
    yield first
    await asyncio.Event().wait()


async def stream_error(stream) -> grpc.aio.AioRpcError:
    """Read a stream until it fails; the error."""
    try:
        while await stream.read() is not grpc.aio.EOF:
            pass
    except grpc.aio.AioRpcError as error:
        return error
    raise AssertionError("the stream ended without an error")


async def test_item2_leaving_ends_open_streams_on_every_gateway(stack, redis_url):
    """Item 2: LeaveMatch ends the seat's StreamEvents and Play sessions on this and another
    gateway within 1 s (through Redis), and the next holder's private events reach none."""
    client, first, _ = stack
    second = await Gateway(
        GatewayConfig(redis_url=redis_url, rules=first.config.rules, heartbeat_seconds=0.2)
    ).start()
    try:
        async with GatewayClient(f"127.0.0.1:{second.port}") as other:
            match, players = await seated(client)
            leaver = players[0]
            token = bearer(leaver.token)
            request = gw.StreamEventsRequest(match=match.name)
            opened = gw.PlayRequest(open=gw.OpenSession(match=match.name))
            streams = [
                client.stub.StreamEvents(request, metadata=token),
                other.stub.StreamEvents(request, metadata=token),
                client.stub.Play(held_open(opened), metadata=token),
                other.stub.Play(held_open(opened), metadata=token),
            ]
            for stream in streams:  # each has answered (first event, opened), so it is watched
                await stream.read()
            endings = [asyncio.create_task(stream_error(s)) for s in streams]
            await leaver.leave()
            done = await asyncio.wait_for(asyncio.gather(*endings), timeout=1.0)
            for error in done:
                assert error.code() == grpc.StatusCode.UNAUTHENTICATED
                assert error_info(error).reason == "SEAT_TOKEN_REVOKED"

            newcomer = await client.join(match.name, "newcomer", seat=0)
            for _ in range(4):
                await take_turn([newcomer, players[1]])
            with pytest.raises(grpc.aio.AioRpcError) as reopened:
                async for _ in other.stub.StreamEvents(request, metadata=token):
                    pass
            assert reopened.value.code() == grpc.StatusCode.UNAUTHENTICATED
    finally:
        await second.stop(None)


async def test_item3_reused_request_id_with_another_payload_is_refused(stack):
    """Item 3: CreateMatch and JoinMatch with a used request id and a different payload are
    INVALID_ARGUMENT REQUEST_ID_REUSED, and the seat keeps its name."""
    client, _, _ = stack
    create = gw.CreateMatchRequest(game="tinycards", seats=2, request_id="same", seed=1)
    first = (await client.stub.CreateMatch(create)).match
    assert (await client.stub.CreateMatch(create)).match.name == first.name
    other = gw.CreateMatchRequest(game="tinycards", seats=3, request_id="same", seed=1)
    with pytest.raises(grpc.aio.AioRpcError) as created:
        await client.stub.CreateMatch(other)
    assert created.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(created.value).reason == "REQUEST_ID_REUSED"

    join = gw.JoinMatchRequest(match=first.name, display_name="alice", request_id="j")
    await client.stub.JoinMatch(join)
    renamed = gw.JoinMatchRequest(match=first.name, display_name="mallory", request_id="j")
    with pytest.raises(grpc.aio.AioRpcError) as joined:
        await client.stub.JoinMatch(renamed)
    assert joined.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(joined.value).reason == "REQUEST_ID_REUSED"
    assert (await client.match(first.name)).seats[0].display_name == "alice"


async def test_item3_match_ids_do_not_collide_across_clients(redis_url):
    """Item 3: two clients (different addresses) picking the same request id get two matches."""
    async with running_stack(redis_url, address="[::]:0") as (_, gateway):
        port = gateway.port
        async with (
            GatewayClient(f"127.0.0.1:{port}") as one,
            GatewayClient(f"[::1]:{port}") as two,
        ):
            request = gw.CreateMatchRequest(game="tinycards", seats=2, request_id="1")
            a = (await one.stub.CreateMatch(request)).match
            request.seats = 3
            b = (await two.stub.CreateMatch(request)).match
            assert a.name != b.name and len(b.seats) == 3


async def test_item5_play_refuses_an_action_for_another_match(stack):
    """Item 5: a Play action naming another match is refused with INVALID_ARGUMENT and
    changes neither match."""
    client, _, _ = stack
    match, players = await seated(client)
    elsewhere, _ = await seated(client, seed=6)
    view = await players[0].get_view()
    seat = view.progress.pending[0].seat
    action = (await players[seat].actions()).actions[0]
    session = players[seat].session()
    assert (await session.receive()).HasField("opened")
    session._outbox.put_nowait(
        gw.PlayRequest(
            action=gw.SubmitActionRequest(match=elsewhere.name, action=action, request_id="x")
        )
    )
    while not (message := await session.receive()).HasField("ack"):
        pass
    assert message.ack.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert message.ack.reason == "WRONG_MATCH"
    session.cancel()
    for name in (match.name, elsewhere.name):
        assert (await client.match(name)).progress.version == 1


@pytest.mark.parametrize("seat", [-1, -5])
async def test_item6_negative_seat_is_invalid_argument(stack, seat):
    """Item 6: JoinMatch with a negative seat is INVALID_ARGUMENT on the seat field and takes
    no seat ("any seat" is the absent field)."""
    client, _, _ = stack
    match = await client.create_match("tinycards", 2)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await client.stub.JoinMatch(gw.JoinMatchRequest(match=match.name, seat=seat))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "seat" in field_violations(refused.value)
    assert not any(s.occupied for s in (await client.match(match.name)).seats)
    anyone = await client.stub.JoinMatch(gw.JoinMatchRequest(match=match.name))
    assert anyone.seat == 0
