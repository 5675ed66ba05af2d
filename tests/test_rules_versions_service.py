"""Issue 42 items 2-5 in one process: a rules service records the version a match is
created under, refuses a version it does not play (whatever the gateway thought), migrates
once when the host lets it, and replays each stretch of a log under its own version; the
gateway's routing picks replicas by version. Real gRPC over loopback and a real Redis."""

from __future__ import annotations

import asyncio
import uuid

import grpc
import pytest
from edge_helpers import error_info
from tinycards_v2 import TinyCardsV2

from parlour.engine import runtime
from parlour.engine.game import UnservedVersion
from parlour.engine.registry import get_game
from parlour.engine.replay import replay
from parlour.engine.rng import Rng
from parlour.gateway.routing import GameRoute, Replica, RulesVersions
from parlour.rules import server as rules_server
from parlour.rules.core import RulesCore, pack
from parlour.rules.records import read_actions
from parlour.rules.timers import TurnTimers
from parlour.rules.v1 import rules_pb2 as pb
from parlour.rules.v1 import rules_service_pb2_grpc as pb_grpc
from parlour.store import keys

V1 = get_game("tinycards")


async def serving(store, game, migrate=False):
    """A rules service of `game` (a build); returns (stub, stop)."""
    server, port, _health, watcher = await rules_server.start(game, store, migrate_rules=migrate)
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")

    async def stop():
        watcher.cancel()
        await channel.close()
        await server.stop(None)

    return pb_grpc.RulesServiceStub(channel), stop


async def create(rules, store, match_id, meta=None):
    meta = {"game": "tinycards", "seats": "2", **(meta or {})}
    await rules.CreateMatch(pb.CreateMatchRequest(match_id=match_id, seats=2, seed=3, meta=meta))
    for seat in range(2):
        await store.take_seat(match_id, seat, f"h{seat}", f"p{seat}", "", "f")


async def act(rules, match_id) -> pb.ActResponse:
    """The pending seat plays its first legal action."""
    seat = (await rules.GetView(pb.GetViewRequest(match_id=match_id))).progress.pending[0].seat
    listed = await rules.ListActions(pb.ListActionsRequest(match_id=match_id, seat=seat))
    request = pb.ActRequest(
        match_id=match_id, seat=seat, action=listed.actions[0], token_hash=f"h{seat}"
    )
    return await rules.Act(request)


async def test_a_replica_plays_only_its_versions_and_migrates_once(store, match_id):
    """A v1 match: created at version 1 (meta and state); a v2-only replica refuses it
    UNAVAILABLE RULES_VERSION_UNAVAILABLE and changes nothing; one with migration on moves
    it to v2 once, with a RulesUpdated event for everyone and a log entry."""
    v1, stop_v1 = await serving(store, V1)
    v2, stop_v2 = await serving(store, TinyCardsV2())
    moving, stop_moving = await serving(store, TinyCardsV2(), migrate=True)
    try:
        await create(v1, store, match_id)
        await act(v1, match_id)
        meta = await store.redis.hgetall(keys.meta(match_id))
        assert (meta[b"rules"], meta[b"rules_created"]) == (b"1", b"1")
        assert (await store.load(match_id)).rules == 1
        for call in (act(v2, match_id), v2.GetView(pb.GetViewRequest(match_id=match_id))):
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await call
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
            info = error_info(refused.value)
            assert (info.reason, info.metadata["rules_version"]) == (
                "RULES_VERSION_UNAVAILABLE",
                "1",
            )
        assert (await store.load(match_id)).version == 2
        described = (await moving.DescribeGame(pb.DescribeGameRequest())).game
        assert (described.rules_version, list(described.served_rules_versions)) == (2, [2])
        assert list(described.migrates_from_rules_versions) == [1]

        await act(moving, match_id)  # migrates (version 3), then plays (version 4)
        await act(moving, match_id)
        stored = await store.load(match_id)
        assert (stored.rules, stored.version) == (2, 5)
        assert (await store.redis.hget(keys.meta(match_id), "rules")) == b"2"
        logged = read_actions(V1, await store.redis.lrange(keys.actions(match_id), 0, -1))
        assert [(a.version, a.migrated_to, a.seat) for a in logged if a.migrated_to] == [
            (3, 2, -1)
        ]
        texts = [e for e in await store.events_after(match_id, 0) if e.version == 3]
        assert [e.visibility for e in texts] == [b"*"]
        with pytest.raises(grpc.aio.AioRpcError):
            await act(v1, match_id)  # a v1 replica no longer plays it
    finally:
        for stop in (stop_v1, stop_v2, stop_moving):
            await stop()


async def test_a_match_is_created_under_the_version_the_gateway_chose(store, match_id):
    """A build playing 1 and 2 creates a match under the version its meta names, and
    refuses one it does not play."""
    both, stop = await serving(store, TinyCardsV2(keeps_version_1=True))
    try:
        await create(both, store, match_id, {"rules": "1"})
        assert (await store.load(match_id)).rules == 1
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await create(both, store, match_id + "x", {"rules": "3"})
        assert error_info(refused.value).reason == "RULES_VERSION_UNAVAILABLE"
    finally:
        await stop()


def test_a_log_replays_each_stretch_under_its_version():
    """Version 1 moves, a migration, version 2 moves: a build with both replays it (the
    doubled score shows the second stretch ran under v2); one without v1 says it needs v1."""
    options = V1.default_options(2)
    state, choose, entries, game = V1.new_state(options, 2, 7), Rng(3), [], V1
    while runtime.pending(game, state):
        if len(entries) == 3:
            game = TinyCardsV2()
            entries.append(pb.LoggedAction(seat=-1, version=len(entries) + 2, migrated_to=2))
            continue
        seat = runtime.pending(game, state)[0].seat
        action = choose.choice(runtime.legal_actions(game, state, seat))
        state, _ = runtime.apply(game, state, seat, action)
        entries.append(pb.LoggedAction(seat=seat, action=pack(action), version=len(entries) + 2))
    again = replay(TinyCardsV2(keeps_version_1=True), options, 2, 7, entries, created=1)
    assert again.outcome.scores == tuple(2 * s for s in V1.outcome(state).scores)
    assert [e.text for e in again.events if e.version == 5] == [
        "The rules were updated to version 2 (from 1)."
    ]
    with pytest.raises(UnservedVersion) as missing:
        replay(TinyCardsV2(), options, 2, 7, entries, created=1)
    assert missing.value.version == 1


async def test_routing_sends_a_match_only_to_replicas_of_its_version():
    """Replicas that play the version first, then those that migrate it; none: empty; an
    older build (no versions in its GameInfo) plays version 1."""
    route = GameRoute("tinycards", [])
    for address, versions in {
        "a:1": RulesVersions(1, frozenset({1}), frozenset()),
        "b:1": RulesVersions(2, frozenset({2}), frozenset()),
        "c:1": RulesVersions(2, frozenset({2}), frozenset({1})),
    }.items():
        replica = route.replicas[address] = Replica(address)
        replica.versions, replica.live = versions, True
    assert [r.address for r in route.ordered("m", 1)] == ["a:1", "c:1"]
    assert {r.address for r in route.ordered("m", 2)} == {"b:1", "c:1"}
    assert route.ordered("m", 3) == []
    assert route.versions() == RulesVersions(2, frozenset({1, 2}), frozenset({1}))
    assert RulesVersions.of(pb.GameInfo()) == RulesVersions(1, frozenset({1}), frozenset())
    for replica in route.replicas.values():
        await replica.close()


async def test_timers_of_another_version_hold_none_back(store):
    """A replica reads past the due turn timers of matches under a version it does not play
    (leaving them for their own replicas) and fires its own behind them."""
    v1, v2 = RulesCore(V1, store), RulesCore(TinyCardsV2(), store)
    timed = {"game": "tinycards", "seats": "2", "turn_timer_ms": "1"}
    old, older, new = uuid.uuid4().hex, uuid.uuid4().hex, uuid.uuid4().hex
    for core, match in ((v1, older), (v1, old), (v2, new)):
        rules = str(core.game.rules_version)
        meta = {**timed, "rules": rules}
        await core.create_match(pb.CreateMatchRequest(match_id=match, seats=2, seed=3, meta=meta))
    await asyncio.sleep(0.05)  # every deadline (1 ms) has passed
    assert await TurnTimers(v2, batch=1).fire_due() >= 1
    assert (await store.load(new)).version >= 2
    assert [(await store.load(m)).version for m in (older, old)] == [1, 1]
    assert await TurnTimers(v1, batch=8).fire_due() >= 2
    assert all([(await store.load(m)).version >= 2 for m in (older, old)])
