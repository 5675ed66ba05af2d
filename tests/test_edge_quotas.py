"""Issue 9, item 13: quotas per peer (matches created per minute, streams per connection)."""

from __future__ import annotations

import grpc
import pytest
from edge_helpers import error_info

from parlour.client import GatewayClient
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc
from parlour.store.matchstore import MatchStore
from stack import running_stack

#: A channel of its own (its own TCP connection), not shared with other channels.
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]


async def test_item13_creates_per_minute_are_limited_per_address(redis_url):
    """Item 13: past the configured creations per minute one address gets
    RESOURCE_EXHAUSTED (nothing stored); another address still may create."""
    async with running_stack(redis_url, address="[::]:0", creates_per_minute=3) as (_, gate):
        async with (
            GatewayClient(f"127.0.0.1:{gate.port}") as one,
            GatewayClient(f"[::1]:{gate.port}") as two,
        ):
            for _ in range(3):
                await one.create_match("tinycards", 2)
            store = MatchStore.from_url(redis_url)
            try:
                before = len(await store.redis.keys("parlour:*"))
                with pytest.raises(grpc.aio.AioRpcError) as refused:
                    await one.create_match("tinycards", 2)
                assert len(await store.redis.keys("parlour:*")) == before
            finally:
                await store.close()
            assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            info = error_info(refused.value)
            assert info.reason == "CREATE_QUOTA_EXCEEDED" and info.metadata["retry_after_seconds"]
            await two.create_match("tinycards", 2)


async def test_item13_open_streams_are_limited_per_connection(redis_url):
    """Item 13: a connection past its open-stream quota gets RESOURCE_EXHAUSTED for the next
    stream; another connection is not affected; a closed stream frees its slot."""
    async with running_stack(redis_url, heartbeat_seconds=0.2, streams_per_connection=2) as (
        address,
        _,
    ):
        async with GatewayClient(address) as client:
            match = await client.create_match("tinycards", 2, spectators=True)
        request = gw.StreamEventsRequest(match=match.name)
        async with (
            grpc.aio.insecure_channel(address, options=OWN_CONNECTION) as first,
            grpc.aio.insecure_channel(address, options=OWN_CONNECTION) as second,
        ):
            streams = [gw_grpc.GatewayServiceStub(first).StreamEvents(request) for _ in range(2)]
            for stream in streams:
                await stream.read()
            extra = gw_grpc.GatewayServiceStub(first).StreamEvents(request)
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await extra.read()
            assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert error_info(refused.value).reason == "STREAM_QUOTA_EXCEEDED"
            elsewhere = gw_grpc.GatewayServiceStub(second).StreamEvents(request)
            assert (await elsewhere.read()).HasField("heartbeat")
            streams[0].cancel()
            while True:
                again = gw_grpc.GatewayServiceStub(first).StreamEvents(request)
                try:
                    await again.read()
                    break
                except grpc.aio.AioRpcError as error:
                    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            for stream in (streams[1], elsewhere, again):
                stream.cancel()
