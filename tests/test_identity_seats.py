"""Issue 25, items 1 and 3: with identity on a seat belongs to its subject — it survives a
change of device (a fresh token, the old one revoked and its streams ended) and nobody
else can take it; private tables admit only the invited and are never listed;
ListMyMatches returns the caller's matches with its seat."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from edge_helpers import error_info, refusal
from identity_helpers import identity_stack, metadata

from parlour.client import GatewayClient
from parlour.client.client import Seat
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc
from stack import running_stack


async def test_a_seat_survives_a_device_change(redis_url, provider):
    """Item 1: Alice joins on her phone and streams; on her laptop (a new token for the
    same subject, no seat token) JoinMatch re-opens the same seat with a fresh token: the
    phone's stream ends SEAT_TOKEN_REVOKED, its token is refused, the laptop plays on;
    Carol can take neither that seat nor a place in the full match."""
    async with identity_stack(redis_url, provider, heartbeat_seconds=0.2) as (address, _):
        async with (
            GatewayClient(address, identity_token=provider.token("alice")) as phone,
            GatewayClient(address, identity_token=provider.token("bob")) as bob_client,
            GatewayClient(address, identity_token=provider.token("alice")) as laptop,
            grpc.aio.insecure_channel(address) as raw,
        ):
            match = await phone.create_match("tinycards", 2, seed=11)
            first = await phone.join(match.name, "Alice")
            bob = await bob_client.join(match.name, "Bob")
            stub = gw_grpc.GatewayServiceStub(raw)
            streamed = stub.StreamEvents(
                gw.StreamEventsRequest(match=match.name),
                metadata=metadata(provider.token("alice"), first.token),
            )
            await streamed.read()

            again = await laptop.stub.JoinMatch(gw.JoinMatchRequest(match=match.name))
            assert again.reopened and again.seat == first.seat
            assert again.seat_token != first.token
            with pytest.raises(grpc.aio.AioRpcError) as ended:
                async with asyncio.timeout(10):
                    while True:
                        await streamed.read()
            assert error_info(ended.value).reason == "SEAT_TOKEN_REVOKED"
            code, reason = await refusal(first.get_view())
            assert (code, reason) == (grpc.StatusCode.UNAUTHENTICATED, "INVALID_SEAT_TOKEN")

            moved = Seat(laptop, match.name, again.seat, again.seat_token)
            players = {moved.seat: moved, bob.seat: bob}
            for _ in range(2):
                view = await moved.get_view()
                seat = view.progress.pending[0].seat
                actions = (await players[seat].actions()).actions
                await players[seat].submit(actions[0])
            assert (await moved.get_view()).progress.version == view.progress.version + 1
            session = moved.session()
            try:
                opened = await session.receive()
                assert opened.WhichOneof("kind") == "opened" and opened.opened.seat == moved.seat
            finally:
                session.close()

            carol = metadata(provider.token("carol"))
            taken = stub.JoinMatch(gw.JoinMatchRequest(match=match.name, seat=0), metadata=carol)
            assert (await refusal(taken))[1] == "SEAT_TAKEN"
            full = stub.JoinMatch(gw.JoinMatchRequest(match=match.name), metadata=carol)
            assert (await refusal(full))[1] == "MATCH_FULL"

            mine = await laptop.stub.ListMyMatches(gw.ListMyMatchesRequest())
            assert [(m.match.name, m.seat) for m in mine.matches] == [(match.name, moved.seat)]
            await moved.leave()
            assert not (await laptop.stub.ListMyMatches(gw.ListMyMatchesRequest())).matches


async def test_private_tables_admit_only_the_invited(redis_url, provider):
    """Item 3: a table with a join code and an invited subject is never listed; Carol
    without the code is refused NOT_INVITED; Bob (invited) and the creator join; Dan with
    the code joins too; ListMyMatches shows each their seat."""
    async with identity_stack(redis_url, provider) as (address, _):
        async with grpc.aio.insecure_channel(address) as channel:
            stub = gw_grpc.GatewayServiceStub(channel)
            alice, bob = metadata(provider.token("alice")), metadata(provider.token("bob"))
            carol, dan = metadata(provider.token("carol")), metadata(provider.token("dan"))
            created = await stub.CreateMatch(
                gw.CreateMatchRequest(
                    game="tinycards",
                    seats=3,
                    allow_spectators=True,
                    invitation=gw.Invitation(join_code=True, subjects=[provider.subject("bob")]),
                ),
                metadata=alice,
            )
            name, code = created.match.name, created.join_code
            assert code
            listed = await stub.ListMatches(gw.ListMatchesRequest(), metadata=carol)
            assert name not in [m.name for m in listed.matches]
            refused = stub.JoinMatch(gw.JoinMatchRequest(match=name), metadata=carol)
            assert await refusal(refused) == (grpc.StatusCode.PERMISSION_DENIED, "NOT_INVITED")
            wrong = stub.JoinMatch(gw.JoinMatchRequest(match=name, join_code="x"), metadata=carol)
            assert (await refusal(wrong))[1] == "NOT_INVITED"
            seats = {}
            seats["bob"] = (
                await stub.JoinMatch(gw.JoinMatchRequest(match=name), metadata=bob)
            ).seat
            seats["alice"] = (
                await stub.JoinMatch(gw.JoinMatchRequest(match=name), metadata=alice)
            ).seat
            request = gw.JoinMatchRequest(match=name, join_code=code)
            seats["dan"] = (await stub.JoinMatch(request, metadata=dan)).seat
            assert sorted(seats.values()) == [0, 1, 2]
            for who, md in (("alice", alice), ("bob", bob), ("dan", dan)):
                mine = await stub.ListMyMatches(gw.ListMyMatchesRequest(), metadata=md)
                assert [(m.match.name, m.seat) for m in mine.matches] == [(name, seats[who])]
            mine = await stub.ListMyMatches(gw.ListMyMatchesRequest(), metadata=carol)
            assert not mine.matches


async def test_a_join_code_works_without_identity_and_subjects_need_it(redis_url):
    """Item 3 with identity off: the join code admits; inviting subjects is refused
    FAILED_PRECONDITION IDENTITY_NOT_ENABLED, and so is ListMyMatches."""
    async with running_stack(redis_url) as (address, _):
        async with GatewayClient(address) as client:
            stub = client.stub
            created = await stub.CreateMatch(
                gw.CreateMatchRequest(
                    game="tinycards", seats=2, invitation=gw.Invitation(join_code=True)
                )
            )
            name = created.match.name
            assert (await refusal(stub.JoinMatch(gw.JoinMatchRequest(match=name))))[
                1
            ] == "NOT_INVITED"
            joined = await stub.JoinMatch(
                gw.JoinMatchRequest(match=name, join_code=created.join_code)
            )
            assert joined.seat_token
            subjects = gw.CreateMatchRequest(
                game="tinycards", seats=2, invitation=gw.Invitation(subjects=["bob"])
            )
            assert await refusal(stub.CreateMatch(subjects)) == (
                grpc.StatusCode.FAILED_PRECONDITION,
                "IDENTITY_NOT_ENABLED",
            )
            assert (await refusal(stub.ListMyMatches(gw.ListMyMatchesRequest())))[
                1
            ] == "IDENTITY_NOT_ENABLED"
