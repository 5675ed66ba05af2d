"""Issue 45 with verified identity: matched seats belong to the subjects who asked (their
tokens work only with their own identity, ListMyMatches lists the match); friends queue
as a party whose ticket names their subjects, each confirming with their own identity
(real gRPC and Redis, a test identity provider)."""

from __future__ import annotations

import asyncio
import dataclasses

import grpc
import pytest
from edge_helpers import error_info
from identity_helpers import identity_stack

from parlour.client import GatewayClient
from parlour.client.matchmaking import Ask, find_match, play_now, seats_of
from parlour.gateway.config import Matchmaking
from parlour.gateway.v1 import gateway_pb2 as gw

FAST = Matchmaking(pass_seconds=0.05, poll_seconds=0.2)


async def test_matched_seats_belong_to_their_subjects(redis_url, provider):
    async with identity_stack(redis_url, provider, matchmaking=FAST) as (address, _):
        async with (
            GatewayClient(address, identity_token=provider.token("alice")) as alice,
            GatewayClient(address, identity_token=provider.token("bob")) as bob,
        ):
            alice_ticket = []
            (a,), (b,) = await asyncio.wait_for(asyncio.gather(
                play_now(alice, "tinycards", name="Alice",
                         on_state=lambda s: alice_ticket.append(s.ticket)),
                play_now(bob, "tinycards", name="Bob")), 60)
            assert a.match == b.match
            assert (await a.progress()) is not None
            mine = await alice.stub.ListMyMatches(gw.ListMyMatchesRequest())
            assert [m.match.name for m in mine.matches] == [a.match]
            with pytest.raises(grpc.aio.AioRpcError) as theirs:  # it would re-seat Alice
                await anext(find_match(bob, ticket=alice_ticket[0]))
            assert error_info(theirs.value).reason == "NOT_YOUR_TICKET"


async def matched(stream) -> gw.FindMatchResponse:
    async for state in stream:
        if state.state == gw.TICKET_STATE_MATCHED:
            return state
    raise AssertionError("the ticket ended unmatched")


async def test_a_party_queues_together_each_friend_confirming_with_their_identity(
        redis_url, provider):
    """Alice's ticket names Bob's subject; it waits outside the pool (Carol, alone, is not
    matched with it) until Bob follows it with his own identity; then the three meet, and
    Alice's and Bob's seats are each their own. Dave, not named, cannot follow it."""
    async with identity_stack(redis_url, provider, matchmaking=FAST) as (address, _):
        people = {n: GatewayClient(address, identity_token=provider.token(n))
                  for n in ("alice", "bob", "carol", "dave")}
        for client in people.values():
            await client.__aenter__()
        try:
            alice, bob, carol, dave = people.values()
            with pytest.raises(grpc.aio.AioRpcError) as twice:
                await play_now(alice, "tinycards", name="Alice",
                               party=[provider.subject("alice")])
            assert error_info(twice.value).reason == "BAD_PARTY"

            three = {"min_seats": 3, "max_seats": 3}
            leader = find_match(alice, Ask("tinycards", name="Alice",
                                           party=[provider.subject("bob")], **three))
            ticket = (await anext(leader)).ticket
            alone = find_match(carol, Ask("tinycards", name="Carol", **three))
            assert (await anext(alone)).state == gw.TICKET_STATE_SEARCHING
            await asyncio.sleep(2)  # dozens of passes: a party still gathering is not matched
            with pytest.raises(grpc.aio.AioRpcError) as stranger:
                await anext(find_match(dave, ticket=ticket, name="Dave"))
            assert error_info(stranger.value).reason == "NOT_YOUR_TICKET"
            assert stranger.value.code() == grpc.StatusCode.PERMISSION_DENIED

            friend = find_match(bob, ticket=ticket, name="Bob")
            a, b, c = await asyncio.wait_for(
                asyncio.gather(matched(leader), matched(friend), matched(alone)), 60)
            assert a.match == b.match == c.match and a.ticket == b.ticket
            assert len(a.seats) == len(b.seats) == 1 and a.seats[0].seat != b.seats[0].seat
            (mine,), (his,) = seats_of(alice, a), seats_of(bob, b)
            assert (await mine.progress()) is not None and (await his.progress()) is not None
            table = await alice.match(a.match)
            names = {s.seat: s.display_name for s in table.seats if s.occupied}
            assert names[a.seats[0].seat] == "Alice" and names[b.seats[0].seat] == "Bob"
            with pytest.raises(grpc.aio.AioRpcError) as borrowed:
                await seats_of(bob, a)[0].progress()  # Alice's seat token, Bob's identity
            assert error_info(borrowed.value).reason == "SEAT_NOT_YOURS"
            listed = await bob.stub.ListMyMatches(gw.ListMyMatchesRequest())
            assert a.match in [m.match.name for m in listed.matches]
        finally:
            for client in people.values():
                await client.__aexit__(None, None, None)


async def test_a_party_whose_friend_never_comes_expires_after_the_longest_wait(
        redis_url, provider):
    """A party still gathering when the host's longest wait is over expires, as a lone
    ticket nobody matched would."""
    settings = dataclasses.replace(FAST, longest_wait_seconds=1.5)
    async with identity_stack(redis_url, provider, matchmaking=settings) as (address, _):
        async with GatewayClient(address, identity_token=provider.token("alice")) as alice:
            ask = Ask("tinycards", name="Alice", party=[provider.subject("bob")])
            states = await asyncio.wait_for(collect(find_match(alice, ask)), 60)
            assert states[-1] == gw.TICKET_STATE_EXPIRED


async def collect(stream) -> list[int]:
    return [state.state async for state in stream]
