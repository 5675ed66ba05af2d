"""Issue 17 item 2, match log and replay: GetMatchLog gives every viewer exactly what its live
stream gave it, a "reveal all" log after the end, and a log that no longer replays is refused."""

from __future__ import annotations

import random

import grpc
import pytest
import redis.asyncio as aioredis
from lifecycle_support import (
    Watcher,
    cli,
    client_fixture,
    new_match,
    reason,
    stack_fixture,
)

from parlour.engine.replay import may_see
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rules.v1 import rules_pb2 as rules
from parlour.store import keys

SEATS = 3


stack = stack_fixture()
client = client_fixture()


async def play_live(client, seed: int):
    """A 3-seat match played to the end while every seat and a spectator follow it live."""
    match, players = await new_match(client, seats=SEATS)
    followers = [Watcher(p.events()) for p in players] + [Watcher(client.spectate(match.name))]
    choose, submitted = random.Random(seed), {s: [] for s in range(SEATS)}
    while True:
        view = await players[0].get_view()
        if view.progress.HasField("outcome"):
            break
        seat = view.progress.pending[0].seat
        action = choose.choice(list((await players[seat].actions()).actions))
        request_id = f"r{seed}-{len(submitted[seat])}-{seat}"
        await players[seat].submit(action, request_id=request_id)
        submitted[seat].append((request_id, action))
    last = view.progress.last_sequence
    live = []
    for follower in followers:
        await follower.until(lambda f=follower: f.reached >= last)
        follower.stop()
        live.append(follower.events)
    return match, players, live, submitted, last


async def get_log(client, match, metadata=None, reveal_all=False) -> gw.MatchLog:
    request = gw.GetMatchLogRequest(match=match.name, reveal_all=reveal_all)
    return (await client.stub.GetMatchLog(request, metadata=metadata)).log


async def test_every_viewer_gets_exactly_its_live_stream(client):
    """Item 2: each seat's log holds its own actions and exactly the events its live stream
    delivered; the spectator's log exactly the public stream and no actions."""
    match, players, live, submitted, _ = await play_live(client, seed=7)
    for seat, player in enumerate(players):
        log = await get_log(client, match, player.metadata)
        assert log.seat == seat and not log.reveal_all
        assert [e.event for e in log.events] == live[seat]
        assert all(not e.audience for e in log.events)
        assert [(a.request_id, a.action) for a in log.actions] == submitted[seat]
        assert all(a.seat == seat for a in log.actions)
    public = await get_log(client, match)
    assert not public.HasField("seat") and not public.actions
    assert [e.event for e in public.events] == live[SEATS]
    # private draws make every viewer's stream (and so its log) different from the others'
    assert len({tuple(e.SerializeToString() for e in stream) for stream in live}) == SEATS + 1


async def test_reveal_all_holds_every_stream(client):
    """Item 2: after the end the "reveal all" log has every action and event; filtering it by
    each event's audience gives back every seat's and the spectator's live stream."""
    match, players, live, submitted, last = await play_live(client, seed=8)
    log = await get_log(client, match, reveal_all=True)
    assert log.reveal_all and [e.event.sequence for e in log.events] == list(range(1, last + 1))
    assert sorted(a.request_id for a in log.actions) == sorted(
        rid for seat in submitted.values() for rid, _ in seat
    )
    for viewer, stream in zip([*range(SEATS), None], live, strict=True):
        assert [e.event for e in log.events if may_see(e.audience, viewer)] == stream
    assert log.audit.HasField("seed")


async def test_replay_command_prints_only_what_the_seat_saw(client, stack):
    """Item 2: `parlour replay` with a seat token prints that seat's events, not others'."""
    match, players, live, _, _ = await play_live(client, seed=9)
    done = cli("replay", match.name, "--gateway", stack.address, "--token", players[1].token)
    assert done.returncode == 0, done.stderr
    printed = [line.strip() for line in done.stdout.splitlines() if line.startswith("  #")]
    assert printed == [f"#{e.sequence} {e.text}" for e in live[1]]
    assert "as seen by seat 1" in done.stdout


async def test_a_log_that_no_longer_replays_is_refused(client, stack):
    """Item 2: the rules service recomputes the log from (seed, actions) before sending it;
    a stored action changed behind its back makes GetMatchLog DATA_LOSS, for every viewer."""
    match, players, _, _, _ = await play_live(client, seed=10)
    match_id = match.name.removeprefix("matches/")
    store = aioredis.from_url(stack.redis_url)
    try:
        first = rules.LoggedAction.FromString(await store.lindex(keys.actions(match_id), 0))
        first.seat = (first.seat + 1) % SEATS
        await store.lset(keys.actions(match_id), 0, first.SerializeToString())
    finally:
        await store.aclose()
    for metadata in (players[0].metadata, None):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await get_log(client, match, metadata)
        assert refused.value.code() == grpc.StatusCode.DATA_LOSS
        assert reason(refused.value) == "LOG_MISMATCH"


async def test_spectators_refused_where_the_match_refuses_them(client):
    """Item 2: a tokenless caller gets no log of a match that does not allow spectators."""
    request = gw.CreateMatchRequest(game="tinycards", seats=2, allow_spectators=False)
    match = (await client.stub.CreateMatch(request)).match
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await get_log(client, match, reveal_all=True)
    assert reason(refused.value) == "SPECTATORS_NOT_ALLOWED"
