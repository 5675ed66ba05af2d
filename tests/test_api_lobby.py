"""Issue 11 item 6, the lobby: ListMatches filters by game and status, pages with tokens and
lists only unfinished matches that allow spectators; JoinOrCreate seats a player in an open match of
a game or creates one (real gRPC and Redis)."""

from __future__ import annotations

import asyncio

import grpc
import pytest

from parlour.client import GatewayClient
from parlour.gateway.v1 import gateway_pb2 as gw
from stack import running_stack


@pytest.fixture
async def client(redis_url):
    async with running_stack(
        redis_url, games=("tinycards", "isayholmes"), heartbeat_seconds=0.2
    ) as (address, _):
        async with GatewayClient(address) as client:
            yield client


async def every_page(client, game="", statuses=(), size=2):
    names, token, pages = [], "", 0
    while True:
        page = await client.matches(game, statuses, page_size=size, page_token=token)
        names += [m.name for m in page.matches]
        pages += 1
        if not (token := page.next_page_token):
            return names, pages


async def test_list_matches_filters_pages_and_hides_private_matches(client):
    """Issue 11 item 6: filters by game and status, pages of page_size in creation order,
    a match refusing spectators is never listed, and a finished match leaves the lobby."""
    before = set((await every_page(client, size=100))[0])
    tiny = [await client.create_match("tinycards", 2, seed=i, spectators=True) for i in range(5)]
    private = await client.create_match("tinycards", 2)  # refuses spectators by default
    other = await client.create_match("isayholmes", 3, spectators=True)
    full = tiny[0]
    for i in range(2):
        await client.join(full.name, f"p{i}")
    listed, pages = await every_page(client, "tinycards", size=2)
    new = [n for n in listed if n not in before]
    assert new == [m.name for m in tiny] and pages >= 3
    assert private.name not in listed and other.name not in listed
    waiting, _ = await every_page(client, "games/tinycards", (gw.MATCH_STATUS_WAITING,))
    assert full.name not in waiting and all(m.name in waiting for m in tiny[1:])
    active, _ = await every_page(client, "tinycards", (gw.MATCH_STATUS_ACTIVE,))
    assert full.name in active
    everything, _ = await every_page(client, size=100)
    assert other.name in everything and private.name not in everything
    players = [await client.join(tiny[1].name, f"q{i}") for i in range(2)]
    progress = await players[0].progress()
    while not progress.HasField("outcome"):
        seat = players[progress.pending[0].seat]
        progress = (await seat.submit((await seat.actions()).actions[0])).result.progress
    assert tiny[1].name not in (await every_page(client, "tinycards", size=100))[0]


async def test_bad_page_tokens_and_games_are_refused(client):
    """Issue 11 item 6: a page token ListMatches did not give is INVALID_ARGUMENT."""
    with pytest.raises(grpc.aio.AioRpcError) as bad:
        await client.matches("tinycards", page_token="bm90LWEtdG9rZW4")
    assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.aio.AioRpcError) as unknown:
        await client.matches("chess")
    assert unknown.value.code() == grpc.StatusCode.NOT_FOUND


async def test_join_or_create_fills_open_matches_then_creates(client):
    """Issue 11 item 6: players join the oldest open listed match until it is full, then a
    new match is created; concurrent callers never share a seat."""
    open_before, _ = await every_page(client, "isayholmes", (gw.MATCH_STATUS_WAITING,))
    seats = await asyncio.gather(
        *(client.join_or_create("isayholmes", f"p{i}", seats=3) for i in range(7))
    )
    by_match: dict[str, list[int]] = {}
    created = set()
    for seat, made in seats:
        by_match.setdefault(seat.match, []).append(seat.seat)
        if made:
            created.add(seat.match)
    assert all(len(set(s)) == len(s) for s in by_match.values()), "a seat was shared"
    assert created == set(by_match) - set(open_before)
    still_open, _ = await every_page(client, "isayholmes", (gw.MATCH_STATUS_WAITING,))
    assert len(set(still_open) & set(by_match)) <= 1, "a match was opened before one filled"
    for match in by_match:
        assert (await client.match(match)).allow_spectators
