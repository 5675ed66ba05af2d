"""Issue 10 item 6: the store and the gateway's event reader on a real 3-master Redis Cluster
and a real Sentinel setup (both from the project's valkey-server): create, play to the end,
stream, resume; on the Cluster one reader per node, on Sentinel across a fail-over."""

from __future__ import annotations

import asyncio

import pytest
from topologies import LocalCluster, LocalSentinel

from parlour.client import GatewayClient
from parlour.client.bots import play_random_match
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.store import connection, keys
from parlour.store.matchstore import MatchStore
from stack import running_stack

pytestmark = pytest.mark.xdist_group("redis-topologies")
GAME = "tinycards"


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster(masters=3) as running:
        yield running


@pytest.fixture(scope="module")
def sentinel():
    with LocalSentinel() as running:
        yield running


def test_urls_name_the_topology():
    """Item 6: one PARLOUR_REDIS_URL names standalone, Cluster or Sentinel."""
    assert connection.parse("redis://h:1/0").topology == "standalone"
    cluster = connection.parse("redis+cluster://:pw@a:1,b:2")
    assert (cluster.topology, cluster.nodes, cluster.password) == (
        "cluster",
        (("a", 1), ("b", 2)),
        "pw",
    )
    sentinel = connection.parse("rediss+sentinel://s1:26379,s2:26379/parlour/2")
    assert (sentinel.topology, sentinel.service, sentinel.db, sentinel.tls) == (
        "sentinel", "parlour", 2, True
    )  # fmt: skip
    with pytest.raises(ValueError, match="service name"):
        connection.parse("redis+sentinel://s1:26379")
    with pytest.raises(ValueError, match="host:port"):
        connection.parse("redis+cluster://nohost")


async def stream_sequences(client, match: str, after: int, last: int) -> list[int]:
    """The spectator stream's event sequences after `after`, read until `last`."""
    seen: list[int] = []
    async for item in client.spectate(match, after=after):
        if item.HasField("event"):
            seen.append(item.event.sequence)
        elif item.heartbeat.last_sequence >= last:
            break
        if seen and seen[-1] >= last:
            break
    return seen


async def public_sequences(store: MatchStore, match: str) -> list[int]:
    """What a spectator may see, from Redis itself."""
    events = await store.events_after(match, 0, count=100_000)
    return [e.sequence for e in events if e.visible_to(None)]


async def play_and_check(client: GatewayClient, store: MatchStore, matches: int) -> list[str]:
    """Play `matches` matches to the end at once; check every spectator stream and a resume
    from the middle against Redis; returns the match ids."""
    reports = await asyncio.gather(
        *(play_random_match(client, GAME, 2, seed=seed) for seed in range(matches))
    )
    played = []
    for report in reports:
        match = report.match.name.removeprefix("matches/")
        assert report.progress.HasField("outcome")
        expected = await public_sequences(store, match)
        last = report.progress.last_sequence
        assert await stream_sequences(client, report.match.name, 0, last) == expected
        middle = expected[len(expected) // 2]
        resumed = await stream_sequences(client, report.match.name, middle, last)
        assert resumed == [s for s in expected if s > middle]
        played.append(match)
    return played


async def test_cluster_create_play_stream_resume(cluster):
    """Item 6: on a 3-master Cluster matches land on every node (each commit telling the
    gateways of its match through the node's pub/sub), and every stream and resume is
    complete and in order."""
    store = MatchStore.from_url(cluster.url)
    nodes: set[str] = set()
    played: list[str] = []
    try:
        async with running_stack(cluster.url, games=(GAME,), heartbeat_seconds=0.2) as (
            address,
            gateway,
        ):
            async with GatewayClient(address) as client:
                await store.redis.initialize()
                while len(nodes) < 3 and len(played) < 60:  # match ids are random
                    played += await play_and_check(client, store, matches=6)
                    nodes = {store.redis.get_node_from_key(keys.events(m)).name for m in played}
                # issue 36: the ratings of a game and variant are one slot; boards per player
                # and due notes live elsewhere, and every finished match was rated
                board = await client.stub.ListLeaderboard(gw.ListLeaderboardRequest(game=GAME))
                assert board.top and board.players >= 1
                record = await client.stub.GetPlayerRecord(
                    gw.GetPlayerRecordRequest(player=board.top[0].player))
                assert record.records[0].matches >= 1
                assert not await store.redis.zcard(keys.ratings_due(GAME))
    finally:
        await store.close()
    assert len(nodes) == 3


async def test_sentinel_create_play_stream_resume_across_failover(sentinel):
    """Item 6: through Sentinel the servers find the primary, keep playing after a fail-over
    to the replica (same processes, same connections pools), and streams and resumes stay
    complete and in order."""
    store = MatchStore.from_url(sentinel.url)
    try:
        async with running_stack(sentinel.url, games=(GAME,), heartbeat_seconds=0.2) as (
            address,
            gateway,
        ):
            async with GatewayClient(address) as client:
                before = await play_and_check(client, store, matches=2)
                old_primary = sentinel.primary()
                new_primary = await asyncio.to_thread(sentinel.fail_over)
                assert new_primary != old_primary
                # the storage check every server runs each second, run now (and by the
                # test's own store, which reads what the servers wrote)
                for server_store in [gateway.store, *gateway.rules_stores, store]:
                    assert await server_store.ping()
                    pool = server_store.redis.connection_pool
                    assert pool.master_address[1] == new_primary
                after = await play_and_check(client, store, matches=2)
                for match in before:  # kept across the fail-over
                    assert await public_sequences(store, match)
    finally:
        await store.close()
    assert len(set(before + after)) == 4
