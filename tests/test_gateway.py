"""The gateway's public API over real gRPC and Redis (DESIGN: The contracts, Hidden information)."""

from __future__ import annotations

import asyncio

import grpc
import pytest

from parlour.client import GatewayClient
from parlour.engine.registry import get_game
from parlour.games.tinycards.v1 import tinycards_pb2 as tc
from stack import running_stack

GAME = get_game("tinycards")


@pytest.fixture
async def gateway(redis_url):
    async with running_stack(redis_url, heartbeat_seconds=0.2) as (address, gw):
        async with GatewayClient(address) as client:
            yield client


async def seated_match(client, seats=2, seed=5, spectators=True):
    match = await client.create_match("tinycards", seats, seed=seed, spectators=spectators)
    players = [await client.join(match.name, f"p{i}") for i in range(seats)]
    return match, players


def unpack_events(items):
    out = []
    for item in items:
        if item.HasField("event"):
            event = tc.Event()
            item.event.event.Unpack(event)
            out.append((item.event.sequence, event))
    return out


async def play_out(players):
    """Each pending seat plays its first legal action until the game ends."""
    while True:
        view = await players[0].get_view()
        if view.progress.HasField("outcome"):
            return view.progress
        seat = view.progress.pending[0].seat
        actions = (await players[seat].actions()).actions
        await players[seat].submit(actions[0])


async def collect(stream, until_sequence):
    items = []
    async for item in stream:
        items.append(item)
        if item.HasField("event") and item.event.sequence >= until_sequence:
            break
        if item.HasField("heartbeat") and item.heartbeat.last_sequence >= until_sequence:
            break
    return items


async def test_list_games(gateway):
    """ListGames shows every routed game with its facts."""
    games = await gateway.games()
    assert [g.name for g in games] == ["games/tinycards"]


async def test_full_match_and_filtered_streams(gateway):
    """A match plays to the end; each seat's stream holds exactly the events it may see."""
    match, players = await seated_match(gateway)
    assert match.status == 1  # waiting before anyone joins
    progress = await play_out(players)
    last = progress.last_sequence
    seen = [unpack_events(await collect(p.events(), last)) for p in players]
    public = unpack_events(await collect(gateway.spectate(match.name), last))
    for seat, events in enumerate(seen):
        for _, event in events:
            if event.HasField("drawn") and event.drawn.card:
                assert event.drawn.seat == seat, "a seat saw another seat's drawn card"
    assert all(not e.drawn.card for _, e in public if e.HasField("drawn"))
    final = await gateway.match(match.name)
    assert final.status == 3 and final.progress.outcome.winners


async def test_resume_has_no_gap_and_no_duplicate(gateway):
    """Resuming after sequence N yields exactly the visible events after N."""
    match, players = await seated_match(gateway, seed=9)
    progress = await play_out(players)
    last = progress.last_sequence
    everything = unpack_events(await collect(players[0].events(), last))
    resumed = unpack_events(await collect(players[0].events(after=3), last))
    assert resumed == [e for e in everything if e[0] > 3]


async def test_play_session_acks_and_events(gateway):
    """On a Play session an action is acknowledged and its events arrive on the same stream."""
    match, players = await seated_match(gateway, seed=11)
    session = players[0].session()
    opened = await session.receive()
    assert opened.HasField("opened") and opened.opened.seat == 0
    action = (await players[0].actions()).actions[0]
    request_id = session.send(action)
    ack, events = None, []
    while ack is None or not events:
        item = await session.receive()
        if item.HasField("ack"):
            ack = item.ack
        elif item.HasField("event"):
            events.append(item.event)
    assert ack.request_id == request_id and ack.response.result.progress.version == 2
    bad = session.send(action)  # not seat 0's turn any more
    while True:
        item = await session.receive()
        if item.HasField("ack") and item.ack.request_id == bad:
            assert item.ack.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
            assert item.ack.reason == "NOT_YOUR_TURN"
            break
    session.cancel()


@pytest.mark.parametrize(
    ("token", "code"),
    [(None, grpc.StatusCode.UNAUTHENTICATED), ("wrong", grpc.StatusCode.UNAUTHENTICATED)],
)
async def test_submit_needs_a_valid_token(gateway, token, code):
    """Submitting without a valid seat token is UNAUTHENTICATED and changes nothing."""
    match, players = await seated_match(gateway)
    action = (await players[0].actions()).actions[0]
    metadata = () if token is None else (("authorization", f"Bearer {token}"),)
    from parlour.gateway.v1 import gateway_pb2 as gw

    with pytest.raises(grpc.aio.AioRpcError) as err:
        await gateway.stub.SubmitAction(
            gw.SubmitActionRequest(match=match.name, action=action, request_id="x"),
            metadata=metadata,
        )
    assert err.value.code() == code
    assert (await gateway.match(match.name)).progress.version == 1


async def test_spectators_only_where_allowed(gateway):
    """A match without spectators refuses token-less viewers with PERMISSION_DENIED."""
    match, _ = await seated_match(gateway, spectators=False)
    from parlour.gateway.v1 import gateway_pb2 as gw

    with pytest.raises(grpc.aio.AioRpcError) as err:
        await gateway.stub.GetView(gw.GetViewRequest(match=match.name))
    assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED


async def test_unknown_match_and_game(gateway):
    """Unknown matches and games are NOT_FOUND."""
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await gateway.match("matches/nope")
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await gateway.create_match("chess", 2)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND


async def test_seats_join_and_leave(gateway):
    """Join takes the lowest free seat, refuses a taken one; leaving frees it, revokes the token."""
    match = await gateway.create_match("tinycards", 2)
    first = await gateway.join(match.name, "a")
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await gateway.join(match.name, "b", seat=0)
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    await first.leave()
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await first.view()
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED
    again = await gateway.join(match.name, "c")
    assert again.seat == 0


async def test_racing_clients_apply_exactly_one(gateway):
    """Two submissions expecting the same version: exactly one applies, the other is ABORTED."""
    match, players = await seated_match(gateway)
    actions = (await players[0].actions()).actions
    results = await asyncio.gather(
        players[0].submit(actions[0], expected_version=1),
        players[0].submit(actions[-1], expected_version=1),
        return_exceptions=True,
    )
    ok = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(ok) == 1 and len(refused) == 1
    assert refused[0].code() in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION)
    assert (await gateway.match(match.name)).progress.version == 2


async def test_heartbeats_on_idle_stream(gateway):
    """An idle stream carries heartbeats with the last sequence seen."""
    match, players = await seated_match(gateway)
    async for item in players[1].events():
        if item.HasField("heartbeat"):
            assert item.heartbeat.last_sequence == 0
            break


async def test_wrong_type_action_is_invalid_argument_with_bad_request(gateway):
    """A wrong-type Any is INVALID_ARGUMENT carrying ErrorInfo and a BadRequest field violation."""
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status

    match, players = await seated_match(gateway)
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await players[0].submit(tc.View())
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    details = rpc_status.from_call(err.value).details
    kinds = {d.type_url.rsplit(".", 1)[-1] for d in details}
    assert kinds == {"ErrorInfo", "BadRequest"}
    bad = error_details_pb2.BadRequest()
    next(d for d in details if d.Is(bad.DESCRIPTOR)).Unpack(bad)
    assert bad.field_violations[0].field == "action"
    assert (await gateway.match(match.name)).progress.version == 1


async def test_play_sessions_deliver_every_visible_event_in_order(gateway):
    """Two seats playing a whole match over Play get every ack, and exactly their visible
    events in sequence order (the same as their StreamEvents), however acks and events merge."""
    match, players = await seated_match(gateway, seed=21)
    sessions = [p.session() for p in players]
    for session in sessions:
        assert (await session.receive()).HasField("opened")
    received: list[list] = [[], []]
    acks: dict[str, object] = {}
    progress = await players[0].progress()
    step = 0
    while not progress.HasField("outcome"):
        seat = progress.pending[0].seat
        action = (await players[seat].actions()).actions[-1]
        request_id = sessions[seat].send(action, request_id=f"a{step}")
        step += 1
        while request_id not in acks:
            item = await sessions[seat].receive()
            if item.HasField("ack"):
                acks[item.ack.request_id] = item.ack
            elif item.HasField("event"):
                received[seat].append(item.event.sequence)
        progress = acks[request_id].response.result.progress
    last = progress.last_sequence
    for seat, session in enumerate(sessions):
        while not received[seat] or received[seat][-1] < last:
            item = await session.receive()
            if item.HasField("event"):
                received[seat].append(item.event.sequence)
            elif item.HasField("heartbeat") and item.heartbeat.last_sequence >= last:
                break
        session.cancel()
        expected = [s for s, _ in unpack_events(await collect(players[seat].events(), last))]
        assert received[seat] == expected
    assert len(acks) == step
