"""Issue 25, item 2: quotas and request-id scope count per person when identity is on and
per address otherwise, x-forwarded-for believed only from PARLOUR_TRUSTED_PROXIES."""

from __future__ import annotations

import grpc
import pytest
from edge_helpers import error_info
from identity_helpers import identity_stack, metadata

from parlour.gateway.config import parse_proxies
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc
from stack import running_stack

#: A channel of its own (its own TCP connection), as each caller behind a proxy has.
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]


async def create(stub, md, request_id: str = "") -> gw.CreateMatchResponse:
    request = gw.CreateMatchRequest(game="tinycards", seats=2, request_id=request_id)
    return await stub.CreateMatch(request, metadata=md)


async def exhausted(stub, md) -> str:
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await create(stub, md)
    assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    return error_info(refused.value).reason


async def test_the_create_quota_holds_per_person_behind_one_proxy_address(redis_url, provider):
    """Item 2: many people behind one address (the proxy's): Alice's creations run out at
    the quota, Bob's and Carol's do not; a request id is Alice's own (Bob's same id makes
    another match), and Bob's retry from another connection finds his match."""
    async with identity_stack(redis_url, provider, creates_per_minute=2) as (address, _):
        async with grpc.aio.insecure_channel(address) as channel:
            stub = gw_grpc.GatewayServiceStub(channel)
            alice, bob = metadata(provider.token("alice")), metadata(provider.token("bob"))
            first = await create(stub, alice, "same-id")
            await create(stub, alice)
            assert await exhausted(stub, alice) == "CREATE_QUOTA_EXCEEDED"
            other = await create(stub, bob, "same-id")
            assert other.match.name != first.match.name
            await create(stub, metadata(provider.token("carol")))
        async with grpc.aio.insecure_channel(address, options=OWN_CONNECTION) as laptop:
            stub = gw_grpc.GatewayServiceStub(laptop)
            bob_again = await create(stub, metadata(provider.token("bob")), "same-id")
            assert bob_again.match.name == other.match.name


async def test_forwarded_addresses_count_only_from_trusted_proxies(redis_url):
    """Item 2, identity off: behind a trusted proxy (127.0.0.1) each x-forwarded-for
    address has its own quota; from an untrusted peer (::1) the header is ignored, so
    rotating it buys nothing."""
    async with running_stack(
        redis_url,
        address="[::]:0",
        creates_per_minute=2,
        trusted_proxies=parse_proxies("127.0.0.0/8"),
    ) as (_, gate):
        async with (
            grpc.aio.insecure_channel(f"127.0.0.1:{gate.port}") as proxy,
            grpc.aio.insecure_channel(f"[::1]:{gate.port}") as untrusted,
        ):
            via = gw_grpc.GatewayServiceStub(proxy)
            one = (("x-forwarded-for", "198.51.100.7, 127.0.0.1"),)
            for _ in range(2):
                await create(via, one)
            assert await exhausted(via, one) == "CREATE_QUOTA_EXCEEDED"
            await create(via, (("x-forwarded-for", "198.51.100.8"),))
            direct = gw_grpc.GatewayServiceStub(untrusted)
            for n in range(2):
                await create(direct, (("x-forwarded-for", f"203.0.113.{n}"),))
            spoofed = (("x-forwarded-for", "203.0.113.9"),)
            assert await exhausted(direct, spoofed) == "CREATE_QUOTA_EXCEEDED"
