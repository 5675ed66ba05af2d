"""Issue 45 on a real 3-master Redis Cluster: each pool's keys share one hash tag, so its
scripts run on one node; tickets of two pools (two hash tags) each meet their own kind."""

from __future__ import annotations

import asyncio

import pytest
from topologies import LocalCluster

from parlour.client import GatewayClient
from parlour.client.matchmaking import play_now
from parlour.gateway.config import Matchmaking
from parlour.store import keys
from parlour.store.ticketstore import pool_keys
from stack import running_stack

pytestmark = pytest.mark.xdist_group("redis-topologies")


def slot_tags(pool: str) -> set[str]:
    return {key[key.index("{"):key.index("}") + 1] for key in pool_keys(pool)}


async def test_tickets_meet_on_a_cluster():
    pools = ("tinycards:standard:-:r", "tinycards:standard:-:f")
    assert all(len(slot_tags(p)) == 1 for p in pools)
    assert slot_tags(pools[0]) != slot_tags(pools[1])
    assert keys.pool_tag(pools[0]).endswith("}")
    with LocalCluster(masters=3) as cluster:
        async with running_stack(cluster.url, games=("tinycards",),
                                 matchmaking=Matchmaking(pass_seconds=0.05, poll_seconds=0.2)
                                 ) as (address, _):
            async with GatewayClient(address) as client:
                seats = await asyncio.wait_for(asyncio.gather(
                    *(play_now(client, "tinycards", name=f"c{i}", rated=i % 2 == 0)
                      for i in range(4))), 90)
                rated = {s[0].match for s in seats[0::2]}
                friendly = {s[0].match for s in seats[1::2]}
                assert len(rated) == len(friendly) == 1 and rated != friendly
                assert (await client.match(rated.pop())).rated
                assert not (await client.match(friendly.pop())).rated
