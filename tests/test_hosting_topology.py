"""Issue 10 item 7: two gateways and two rules replicas per game, as real processes; matches
played to the end with every actor on one gateway and that match's subscribers (each seat
and a spectator) on the other; every event visible to a subscriber arrives once, in order.

The default run plays 40 matches; `-m slow` runs the full 200."""

from __future__ import annotations

import asyncio

import pytest

from parlour.client import GatewayClient
from parlour.engine.rng import Rng
from parlour.launcher import LocalStack, wait_serving
from parlour.store.matchstore import MatchStore

pytestmark = pytest.mark.xdist_group("topology")
GAMES = ("tinycards",)
SEATS = 2
CONCURRENT = 20


@pytest.fixture(scope="module")
def two_gateways():
    """Redis, 2 replicas of each game's rules service and 2 gateways, each its own process."""
    with LocalStack(list(GAMES), replicas=2) as stack:
        routes = ";".join(
            f"{game}={','.join(p.address for p in procs)}" for game, procs in stack.rules.items()
        )
        second = stack.start_gateway(routes)  # the same settings and certificates
        try:
            wait_serving(second)
            yield stack, [stack.address, second.address]
        finally:
            second.stop()


async def collect(stream, last_known: asyncio.Future) -> list[int]:
    """Event sequences from a stream until the match's final sequence has been passed."""
    seen: list[int] = []
    async for item in stream:
        if item.HasField("event"):
            seen.append(item.event.sequence)
            position = item.event.sequence
        else:
            position = item.heartbeat.last_sequence
        if last_known.done() and position >= last_known.result():
            return seen
    return seen


async def play_one(actors: GatewayClient, watchers: GatewayClient, game: str, seed: int):
    """Play one match on `actors` while every seat and a spectator follow on `watchers`."""
    match = await actors.create_match(game, SEATS, seed=seed, spectators=True)
    seats = [await actors.join(match.name, f"p{i}", seat=i) for i in range(SEATS)]
    watched = [watchers.spectate(match.name)]
    for seat in seats:
        watched.append(type(seat)(watchers, match.name, seat.seat, seat.token).events())
    final: asyncio.Future = asyncio.get_running_loop().create_future()
    followers = [asyncio.create_task(collect(stream, final)) for stream in watched]
    rng = Rng.from_seed(seed)
    progress = (await seats[0].get_view()).progress
    while not progress.HasField("outcome"):
        pending = sorted({d.seat for d in progress.pending})
        seat = seats[pending[rng.below(len(pending))]]
        legal = (await seat.actions()).actions
        progress = (await seat.submit(legal[rng.below(len(legal))])).result.progress
    final.set_result(progress.last_sequence)
    received = await asyncio.wait_for(asyncio.gather(*followers), 60)
    return match.name.removeprefix("matches/"), received


async def run_topology(addresses: list[str], redis_url: str, matches: int) -> int:
    """Play `matches` matches; returns how many events were checked."""
    gateways = [GatewayClient(address) for address in addresses]
    store = MatchStore.from_url(redis_url)
    checked = 0
    try:
        for start in range(0, matches, CONCURRENT):
            batch = range(start, min(start + CONCURRENT, matches))
            results = await asyncio.gather(
                *(
                    play_one(gateways[i % 2], gateways[(i + 1) % 2], GAMES[i % len(GAMES)], i)
                    for i in batch
                )
            )
            for match, received in results:
                truth = await store.events_after(match, 0, count=100_000)
                viewers = [None, *range(SEATS)]
                for viewer, sequences in zip(viewers, received, strict=True):
                    expected = [e.sequence for e in truth if e.visible_to(viewer)]
                    assert sequences == expected, (match, viewer)
                    checked += len(sequences)
    finally:
        for gateway in gateways:
            await gateway.close()
        await store.close()
    return checked


async def test_two_gateways_two_replicas_events_once_in_order(two_gateways):
    """Item 7 (default size): 40 matches, subscribers on the other gateway."""
    stack, addresses = two_gateways
    assert await run_topology(addresses, stack.redis_url, matches=40) > 40


@pytest.mark.slow
async def test_two_gateways_two_replicas_200_matches(two_gateways):
    """Item 7: 200 matches to the end, subscribers on the other gateway."""
    stack, addresses = two_gateways
    assert await run_topology(addresses, stack.redis_url, matches=200) > 200
