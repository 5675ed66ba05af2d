"""Issue 34: tests that bite where mutations survived: x-forwarded-for through several
hops, the create quota's refill rate, and the order of events and progress when a slow
stream catches up from history."""

from __future__ import annotations

import asyncio

import grpc
import pytest
from edge_helpers import error_info, take_turn
from prometheus_client import REGISTRY

from parlour.client import GatewayClient
from parlour.gateway import quotas
from parlour.gateway.config import parse_proxies
from parlour.gateway.quotas import Quotas
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc
from stack import running_stack


async def create(stub, forwarded: str) -> grpc.StatusCode:
    """CreateMatch with this x-forwarded-for; OK or the refusal's code (quota only)."""
    request = gw.CreateMatchRequest(game="tinycards", seats=2)
    try:
        await stub.CreateMatch(request, metadata=(("x-forwarded-for", forwarded),))
    except grpc.aio.AioRpcError as error:
        assert error_info(error).reason == "CREATE_QUOTA_EXCEEDED"
        return error.code()
    return grpc.StatusCode.OK


async def test_a_spoofed_hop_before_an_untrusted_one_buys_no_quota(redis_url):
    """Issue 34 (x-forwarded-for, several hops): through two trusted proxies (127.0.0.1,
    then 10.1.2.3) the caller is the nearest untrusted hop (198.51.100.7); whatever the
    caller wrote before it is its own invention, so rotating it buys no new quota."""
    trusted = parse_proxies("127.0.0.0/8,10.0.0.0/8")
    async with (
        running_stack(redis_url, creates_per_minute=2, trusted_proxies=trusted) as (address, _),
        grpc.aio.insecure_channel(address) as channel,
    ):
        stub = gw_grpc.GatewayServiceStub(channel)
        codes = [await create(stub, f"203.0.113.{n}, 198.51.100.7, 10.1.2.3") for n in range(3)]
        assert codes == [grpc.StatusCode.OK] * 2 + [grpc.StatusCode.RESOURCE_EXHAUSTED]
        # another real caller behind the same proxies has its own quota
        assert await create(stub, "203.0.113.1, 198.51.100.8, 10.1.2.3") == grpc.StatusCode.OK


def test_the_create_quota_refills_at_its_rate_per_minute(monkeypatch):
    """Issue 34 (quota refill rate): 60 creations per minute refill one a second: after
    the bucket is spent, 1.5 s later one more is allowed and the next is not; 10 s later
    ten are (a refill ten times faster or slower fails this)."""
    now = [1000.0]
    monkeypatch.setattr(quotas.time, "monotonic", lambda: now[0])
    limits = Quotas(creates_per_minute=60, streams_per_connection=0)
    for _ in range(60):
        limits.spend_create("a")
    with pytest.raises(quotas.ServiceError):
        limits.spend_create("a")
    now[0] += 1.5
    limits.spend_create("a")
    with pytest.raises(quotas.ServiceError):
        limits.spend_create("a")
    now[0] += 10
    for _ in range(10):
        limits.spend_create("a")
    with pytest.raises(quotas.ServiceError):
        limits.spend_create("a")


def lagging() -> float:
    return REGISTRY.get_sample_value("parlour_subscribers_lagging_total") or 0.0


async def test_a_slow_stream_catching_up_gets_progress_after_its_events(redis_url):
    """Issue 34 (fanout order): a spectator's StreamEvents that reads nothing while a
    match is played (its queue overflows, so it catches up from history) gets, once it
    reads, no event at or below a progress message already sent: each change's progress
    comes after its events."""
    options = [("grpc.http2.lookahead_bytes", 1024), ("grpc.http2.bdp_probe", 0)]
    async with (
        running_stack(redis_url, subscriber_queue=2, heartbeat_seconds=60) as (address, _),
        GatewayClient(address) as client,
        grpc.aio.insecure_channel(address, options=options) as channel,
    ):
        before = lagging()
        progressed = 0
        for seed in range(4):
            order: list[tuple[str, int]] = []
            match = await client.create_match("tinycards", 2, seed=seed, spectators=True)
            players = [await client.join(match.name, f"p{i}", seat=i) for i in range(2)]
            stream = gw_grpc.GatewayServiceStub(channel).StreamEvents(
                gw.StreamEventsRequest(match=match.name)
            )
            await asyncio.sleep(0.2)  # subscribed
            progress = await players[0].progress()
            while not progress.HasField("outcome"):
                progress = (await take_turn(players)).result.progress
            async for message in stream:
                kind = message.WhichOneof("kind")
                if kind == "finished":
                    break
                if kind == "progress":
                    order.append(("progress", message.progress.last_sequence))
                events = [message.event] if kind == "event" else []
                events += list(message.batch.events) if kind == "batch" else []
                order += [("event", e.sequence) for e in events]
            progressed += check_order(order)
        assert lagging() > before, "no stream overflowed: the test did not test the catch-up"
    assert progressed


def check_order(order: list[tuple[str, int]]) -> int:
    """No event at or below an earlier progress's last sequence; how many progresses."""
    covered = 0
    for kind, sequence in order:
        if kind == "event":
            assert sequence > covered, f"event {sequence} came after a progress up to {covered}"
        else:
            covered = max(covered, sequence)
    return sum(kind == "progress" for kind, _ in order)
