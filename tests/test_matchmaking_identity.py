"""Issue 45 with verified identity: matched seats belong to the subjects who asked (their
tokens work only with their own identity, ListMyMatches lists the match); a party is
refused PARTY_NOT_WITH_IDENTITY (real gRPC and Redis, a test identity provider)."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from edge_helpers import error_info
from identity_helpers import identity_stack

from parlour.client import GatewayClient
from parlour.client.matchmaking import play_now
from parlour.gateway.config import Matchmaking
from parlour.gateway.v1 import gateway_pb2 as gw

FAST = Matchmaking(pass_seconds=0.05, poll_seconds=0.2)


async def test_matched_seats_belong_to_their_subjects(redis_url, provider):
    async with identity_stack(redis_url, provider, matchmaking=FAST) as (address, _):
        async with (
            GatewayClient(address, identity_token=provider.token("alice")) as alice,
            GatewayClient(address, identity_token=provider.token("bob")) as bob,
        ):
            (a,), (b,) = await asyncio.wait_for(asyncio.gather(
                play_now(alice, "tinycards", name="Alice"),
                play_now(bob, "tinycards", name="Bob")), 60)
            assert a.match == b.match
            assert (await a.progress()) is not None
            mine = await alice.stub.ListMyMatches(gw.ListMyMatchesRequest())
            assert [m.match.name for m in mine.matches] == [a.match]
            with pytest.raises(grpc.aio.AioRpcError) as party:
                await play_now(alice, "tinycards", name="Alice", party=["Carol"])
            assert error_info(party.value).reason == "PARTY_NOT_WITH_IDENTITY"
