"""Issue 44 item 2, per-person preferences: the signed-in person mutes kinds of notice by an
RPC; they are stored where the notifier reads them (beside their record); without identity
the call is refused; a bad kind is refused at the edge."""

from __future__ import annotations

import grpc
import pytest
import redis.asyncio as aioredis
from edge_helpers import refusal
from identity_helpers import identity_stack, metadata

from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc
from parlour.store.notices import prefs_key
from stack import running_stack


async def test_a_person_mutes_and_unmutes_kinds(redis_url, provider):
    """Set answers the stored preferences; Get reads them back; the notifier's set holds the
    webhook words; another person's preferences are their own."""
    async with identity_stack(redis_url, provider) as (address, _):
        async with grpc.aio.insecure_channel(address) as channel:
            stub = gw_grpc.GatewayServiceStub(channel)
            alice, bob = metadata(provider.token("alice")), metadata(provider.token("bob"))
            muted = [gw.NOTIFICATION_KIND_MATCH_FINISHED, gw.NOTIFICATION_KIND_CLOCK_LOW]
            stored = await stub.SetNotificationPreferences(
                gw.SetNotificationPreferencesRequest(
                    preferences=gw.NotificationPreferences(muted=muted)), metadata=alice)
            assert list(stored.muted) == muted
            got = await stub.GetNotificationPreferences(
                gw.GetNotificationPreferencesRequest(), metadata=alice)
            assert list(got.muted) == muted
            assert not (await stub.GetNotificationPreferences(
                gw.GetNotificationPreferencesRequest(), metadata=bob)).muted
            match = (await stub.CreateMatch(
                gw.CreateMatchRequest(game="tinycards", seats=2), metadata=alice)).match
            await stub.JoinMatch(gw.JoinMatchRequest(match=match.name), metadata=alice)
            redis = aioredis.from_url(redis_url)
            try:
                record = await redis.hget(f"parlour:{{{match.name[8:]}}}:meta", "rk:0")
                words = await redis.smembers(prefs_key(f"players/{record.decode()}"))
            finally:
                await redis.aclose()
            assert words == {b"match_finished", b"clock_low"}
            cleared = await stub.SetNotificationPreferences(
                gw.SetNotificationPreferencesRequest(), metadata=alice)
            assert not cleared.muted


@pytest.mark.parametrize("muted", [[0], [99]])
async def test_a_bad_kind_is_refused(redis_url, provider, muted):
    """UNSPECIFIED or an unknown number is INVALID_FIELD."""
    async with identity_stack(redis_url, provider) as (address, _):
        async with grpc.aio.insecure_channel(address) as channel:
            stub = gw_grpc.GatewayServiceStub(channel)
            call = stub.SetNotificationPreferences(
                gw.SetNotificationPreferencesRequest(
                    preferences=gw.NotificationPreferences(muted=muted)),
                metadata=metadata(provider.token("alice")))
            assert (await refusal(call))[:2] == (grpc.StatusCode.INVALID_ARGUMENT,
                                                 "INVALID_FIELD")


async def test_without_identity_it_is_refused(redis_url):
    """Preferences belong to a signed-in person: IDENTITY_NOT_ENABLED otherwise."""
    async with running_stack(redis_url) as (address, _):
        async with grpc.aio.insecure_channel(address) as channel:
            stub = gw_grpc.GatewayServiceStub(channel)
            call = stub.GetNotificationPreferences(gw.GetNotificationPreferencesRequest())
            assert (await refusal(call))[1] == "IDENTITY_NOT_ENABLED"
