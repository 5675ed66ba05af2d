"""Event fan-out: slow subscribers, trimmed history (DESIGN: Life of an action, step 4)."""

from __future__ import annotations

import asyncio

import grpc
import pytest

from bench.loadgen import OPTIONS, plan_for
from parlour.client import GatewayClient
from parlour.client.client import Seat
from parlour.gateway.config import GatewayConfig
from parlour.gateway.fanout import EventHub, Heartbeat
from parlour.gateway.server import Gateway
from parlour.rpc.errors import ServiceError
from parlour.store.matchstore import MatchStore, encode_visibility
from stack import running_stack


async def append_events(store: MatchStore, match: str, count: int, start_version: int = 1) -> None:
    """Commit `count` single-event actions straight through the store."""
    version = start_version
    for i in range(count):
        vis = encode_visibility(frozenset({1})) if i % 3 == 0 else encode_visibility(None)
        await store.commit(
            match, version, b"s", [(f"e{i}".encode(), vis, 0)], f"r{version}", b"x" * 32, b""
        )
        version += 1


async def drain(sub, count, heartbeat=0.3):
    seen = []
    async for item in sub.events(heartbeat=heartbeat):
        if isinstance(item, Heartbeat):
            break
        seen += item
        if len(seen) >= count:
            break
    return seen


async def test_slow_subscriber_loses_nothing_and_holds_up_nobody(store, match_id):
    """A subscriber whose queue overflows catches up from history, in order, without gaps."""
    await store.create_state(match_id, b"s", b"")
    hub = EventHub(store, queue_size=2)
    async with hub.subscribe(match_id, 0, 0) as slow, hub.subscribe(match_id, 1, 0) as fast:
        fast_task = asyncio.create_task(drain(fast, 30))
        await append_events(store, match_id, 30)
        fast_seen = await asyncio.wait_for(fast_task, 10)
        assert slow.overflowed, "the test did not overflow the slow queue"
        slow_seen = await asyncio.wait_for(drain(slow, 20), 10)
    assert [e.sequence for e in fast_seen] == list(range(1, 31))
    assert [e.sequence for e in slow_seen] == [s for s in range(1, 31) if (s - 1) % 3 != 0]
    await hub.close()


async def test_late_subscriber_gets_history_then_live(store, match_id):
    """Subscribing after events exist yields the old ones, then new ones, exactly once."""
    await store.create_state(match_id, b"s", b"")
    await append_events(store, match_id, 5)
    hub = EventHub(store)
    async with hub.subscribe(match_id, 1, 2) as sub:
        reader = asyncio.create_task(drain(sub, 6))
        await append_events(store, match_id, 3, start_version=6)
        seen = await asyncio.wait_for(reader, 10)
    assert [e.sequence for e in seen] == [3, 4, 5, 6, 7, 8]
    await hub.close()


async def test_trimmed_history_is_a_clear_error(store, match_id):
    """Resuming from a point older than the kept history is OUT_OF_RANGE HISTORY_TRIMMED."""
    store.max_events = 4
    await store.create_state(match_id, b"s", b"")
    await append_events(store, match_id, 10)
    hub = EventHub(store)
    with pytest.raises(ServiceError) as err:
        async with hub.subscribe(match_id, 0, 2):
            pass
    assert err.value.code == grpc.StatusCode.OUT_OF_RANGE and err.value.reason == "HISTORY_TRIMMED"
    async with hub.subscribe(match_id, 1, 6) as sub:
        assert [e.sequence for e in await drain(sub, 4)] == [7, 8, 9, 10]
    await hub.close()


async def test_trimmed_history_through_the_gateway(redis_url):
    """Over gRPC the trimmed resume point is refused with OUT_OF_RANGE."""
    async with running_stack(redis_url, max_events=3) as (address, _):
        async with GatewayClient(address) as client:
            match = await client.create_match("tinycards", 2, seed=4)
            players = [await client.join(match.name, f"p{i}") for i in range(2)]
            for _ in range(4):
                progress = await players[0].progress()
                seat = progress.pending[0].seat
                await players[seat].submit((await players[seat].actions()).actions[0])
            with pytest.raises(grpc.aio.AioRpcError) as err:
                async for _ in players[0].events(after=0):
                    pass
            assert err.value.code() == grpc.StatusCode.OUT_OF_RANGE


async def test_create_and_join_are_idempotent(redis_url):
    """Repeating CreateMatch or JoinMatch with the same request id does not create twice
    (a JoinMatch repeat answers ALREADY_EXISTS and leaves the first token working)."""
    from parlour.gateway.v1 import gateway_pb2 as gw

    async with running_stack(redis_url) as (address, _):
        async with GatewayClient(address) as client:
            request = gw.CreateMatchRequest(game="tinycards", seats=2, request_id="create-1")
            first = (await client.stub.CreateMatch(request)).match
            again = (await client.stub.CreateMatch(request)).match
            assert first.name == again.name
            join = gw.JoinMatchRequest(match=first.name, display_name="a", request_id="join-1")
            a = await client.stub.JoinMatch(join)
            with pytest.raises(grpc.aio.AioRpcError) as again_join:
                await client.stub.JoinMatch(join)
            assert again_join.value.code() == grpc.StatusCode.ALREADY_EXISTS
            match = (await client.stub.GetMatch(gw.GetMatchRequest(match=first.name))).match
            assert sum(s.occupied for s in match.seats) == 1
            held = (("authorization", f"Bearer {a.seat_token}"),)
            await client.stub.GetView(gw.GetViewRequest(match=first.name), metadata=held)


async def read_play(session, events: list[int], acks: dict, final: int) -> None:
    """A Play session's event sequences until `final`; each ack resolves its future."""
    while not events or events[-1] < final:
        item = await session.receive()
        if item.HasField("event"):
            events.append(item.event.sequence)
        elif item.HasField("ack"):
            acks.pop(item.ack.request_id).set_result(item.ack)


async def test_issue22_two_gateways_see_each_others_commits_once_in_order(redis_url):
    """Issue 22 item 2: a gateway's own subscribers get its actions' events from the rules
    answer, and commits made through another gateway reach them through Redis: seat 0
    plays on one gateway, seat 1 on another, a spectator watches on the second; every
    stream holds exactly what Redis holds for its viewer, in order, without repeats."""
    plan = plan_for(3)
    async with running_stack(redis_url, heartbeat_seconds=0.2) as (address, first):
        second = await Gateway(
            GatewayConfig(redis_url=redis_url, rules=first.config.rules, heartbeat_seconds=0.2)
        ).start()
        try:
            async with (
                GatewayClient(address) as one,
                GatewayClient(f"127.0.0.1:{second.port}") as two,
            ):
                match = await one.create_match(
                    "tinycards", 2, seed=3, options=OPTIONS, spectators=True
                )
                joined = [await one.join(match.name, f"p{s}", seat=s) for s in range(2)]
                sessions = [
                    joined[0].session(),
                    Seat(two, match.name, 1, joined[1].token).session(),
                ]
                for session in sessions:
                    assert (await session.receive()).HasField("opened")
                seen: list[list[int]] = [[], [], []]
                acks: dict[str, asyncio.Future] = {}
                readers = [
                    asyncio.create_task(read_play(s, seen[i], acks, plan.final_sequence))
                    for i, s in enumerate(sessions)
                ]

                async def spectate() -> None:
                    async for item in two.spectate(match.name):
                        if item.HasField("event"):
                            seen[2].append(item.event.sequence)

                spectator = asyncio.create_task(spectate())
                loop = asyncio.get_running_loop()
                for i, (seat, action) in enumerate(plan.actions):
                    acks[f"a{i}"] = ack = loop.create_future()
                    sessions[seat].send(action, f"a{i}")
                    assert not (await asyncio.wait_for(ack, 10)).code
                await asyncio.wait_for(asyncio.gather(*readers, spectator), 10)
                for session in sessions:
                    session.cancel()
        finally:
            await second.stop(None)
    store = MatchStore.from_url(redis_url)
    try:
        stored = await store.events_after(match.name.removeprefix("matches/"), 0, 1000)
    finally:
        await store.close()
    for viewer, sequences in zip((0, 1, None), seen, strict=True):
        assert sequences == [e.sequence for e in stored if e.visible_to(viewer)], viewer


class Taker:
    """A Subscription sink that records what it takes, until told it is full."""

    def __init__(self) -> None:
        self.events: list[int] = []
        self.full = False

    def has_room(self) -> bool:
        return not self.full

    def take_events(self, events) -> None:
        self.events += [e.sequence for e in events]

    def take_progress(self, note) -> None:
        pass


async def until(condition, seconds: float = 10.0) -> None:
    """Wait (polling the loop) until `condition()` holds."""
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.01)


async def test_issue41_a_waiting_subscription_hands_events_to_its_sink_in_order(store, match_id):
    """While its consumer waits, a subscription's sink takes each next event straight from
    the feed; once the sink is full the events queue for the consumer instead, none lost or
    repeated."""
    await store.create_state(match_id, b"s", b"")
    hub = EventHub(store)
    async with hub.subscribe(match_id, 1, 0) as sub:
        sub.sink = taker = Taker()
        consumer = asyncio.create_task(drain(sub, 2, heartbeat=30))
        await until(lambda: sub.parked)
        await append_events(store, match_id, 6)
        await until(lambda: len(taker.events) == 6)
        assert taker.events == [1, 2, 3, 4, 5, 6] and not consumer.done()
        assert sub.cursor == sub.delivered == 6
        taker.full = True
        await append_events(store, match_id, 2, start_version=7)
        queued = await asyncio.wait_for(consumer, 10)
    assert [e.sequence for e in queued] == [7, 8] and taker.events == [1, 2, 3, 4, 5, 6]
    await hub.close()
