"""Issue 11 item 3, "streams that end": StreamEvents and Play end with OK and a final
MatchFinished once the match is over and the viewer has everything (real gRPC and Redis)."""

from __future__ import annotations

import grpc
import pytest

from parlour.client import GatewayClient
from parlour.gateway.v1 import gateway_pb2 as gw
from stack import running_stack


@pytest.fixture
async def client(redis_url):
    async with running_stack(redis_url, heartbeat_seconds=0.2) as (address, _):
        async with GatewayClient(address) as client:
            yield client


async def finished_match(client, seats=2, seed=8):
    """A tinycards match played to the end by unary calls; returns (match, players, progress)."""
    match = await client.create_match("tinycards", seats, seed=seed, spectators=True)
    players = [await client.join(match.name, f"p{i}", seat=i) for i in range(seats)]
    progress = await players[0].progress()
    while not progress.HasField("outcome"):
        seat = progress.pending[0].seat
        legal = (await players[seat].actions()).actions
        progress = (await players[seat].submit(legal[0])).result.progress
    return match, players, progress


async def read_to_the_end(stream):
    """Every message of a stream that must end by itself; (events, finished)."""
    events, finished = [], None
    async for item in stream:
        assert finished is None, "nothing may follow MatchFinished"
        if item.HasField("event"):
            events.append(item.event)
        elif item.HasField("finished"):
            finished = item.finished
    return events, finished


async def test_stream_events_ends_with_the_outcome(client):
    """Issue 11 item 3: a seat's and a spectator's StreamEvents end with OK after the last
    event, with a MatchFinished carrying the outcome."""
    match, players, progress = await finished_match(client)
    for stream in (players[0].events(), players[1].events(), client.spectate(match.name)):
        events, finished = await read_to_the_end(stream)
        assert finished is not None and finished.progress.outcome == gw.Outcome.FromString(
            progress.outcome.SerializeToString()
        )
        assert finished.progress.last_sequence == progress.last_sequence
        assert events and events[-1].sequence <= progress.last_sequence
        assert [e.sequence for e in events] == sorted({e.sequence for e in events})


async def test_a_live_stream_ends_when_the_match_ends(client):
    """Issue 11 item 3: a stream opened before the end keeps going, then ends at the end."""
    match = await client.create_match("tinycards", 2, seed=3, spectators=True)
    players = [await client.join(match.name, f"p{i}", seat=i) for i in range(2)]
    stream = client.spectate(match.name)
    first = await anext(stream)
    assert first.HasField("heartbeat") or first.HasField("event")
    progress = await players[0].progress()
    while not progress.HasField("outcome"):
        seat = progress.pending[0].seat
        legal = (await players[seat].actions()).actions
        progress = (await players[seat].submit(legal[-1])).result.progress
    _, finished = await read_to_the_end(stream)
    assert finished.progress.last_sequence == progress.last_sequence


async def test_resumed_stream_on_a_finished_match_replays_and_ends(client):
    """Issue 11 item 3: resuming a finished match replays what is after the resume point and
    ends; resuming at the last event ends at once."""
    match, players, progress = await finished_match(client)
    everything, _ = await read_to_the_end(players[1].events())
    middle = everything[len(everything) // 2].sequence
    rest, finished = await read_to_the_end(players[1].events(after=middle))
    assert [e.sequence for e in rest] == [e.sequence for e in everything if e.sequence > middle]
    assert finished is not None
    nothing, finished = await read_to_the_end(players[1].events(after=progress.last_sequence))
    assert nothing == [] and finished.progress.HasField("outcome")


async def test_play_ends_after_the_last_ack_with_the_outcome(client):
    """Issue 11 item 3: Play ends with OK once the match is over: every ack, then every
    event, then MatchFinished."""
    match = await client.create_match("tinycards", 2, seed=5)
    players = [await client.join(match.name, f"p{i}", seat=i) for i in range(2)]
    sessions = [p.session() for p in players]
    acks, finished = [], [None, None]
    progress = await players[0].progress()
    while not progress.HasField("outcome"):
        seat = progress.pending[0].seat
        legal = (await players[seat].actions()).actions
        request_id = sessions[seat].send(legal[0])
        while True:
            message = await sessions[seat].receive()
            if message.HasField("ack") and message.ack.request_id == request_id:
                acks.append(message.ack)
                progress = message.ack.response.result.progress
                break
    for seat, session in enumerate(sessions):
        while True:
            try:
                message = await session.receive()
            except EOFError:
                break
            assert finished[seat] is None, "nothing may follow MatchFinished"
            if message.HasField("finished"):
                finished[seat] = message.finished
        assert await session.call.code() == grpc.StatusCode.OK
    assert all(f is not None and f.progress.HasField("outcome") for f in finished)
    assert all(not a.reason for a in acks)


async def test_raw_create_match_and_the_sdk_agree_on_spectators(client):
    """Issue 11 item 3: neither a raw CreateMatch nor the SDK lets spectators in by default."""
    raw = await client.stub.CreateMatch(gw.CreateMatchRequest(game="tinycards", seats=2))
    sdk = await client.create_match("tinycards", 2)
    for match in (raw.match, sdk):
        assert not match.allow_spectators
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await anext(client.spectate(match.name))
        assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
