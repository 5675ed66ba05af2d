"""The rules service over real gRPC and a real Redis (DESIGN: Life of an action, Quality bars)."""

from __future__ import annotations

import grpc
import pytest
from google.protobuf import any_pb2
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from parlour.engine.registry import get_game
from parlour.games.tinycards.v1 import tinycards_pb2 as tc
from parlour.rules import server as rules_server
from parlour.rules.core import pack
from parlour.rules.v1 import rules_pb2 as pb
from parlour.rules.v1 import rules_service_pb2_grpc as pb_grpc

GAME = get_game("tinycards")


@pytest.fixture
async def rules(store):
    server, port, _health, watcher = await rules_server.start(GAME, store)
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
    yield pb_grpc.RulesServiceStub(channel)
    watcher.cancel()
    await channel.close()
    await server.stop(None)


def reason(error: grpc.aio.AioRpcError) -> str:
    status = rpc_status.from_call(error)
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info.reason
    return ""


def token_hash(seat: int) -> str:
    """The seat token hash create() seats each player with (an Act must name one)."""
    return f"h{seat}"


async def create(rules, store, match_id, seats=2, seed=3):
    meta = {"game": "tinycards", "seats": str(seats)}
    response = await rules.CreateMatch(
        pb.CreateMatchRequest(match_id=match_id, seats=seats, seed=seed, meta=meta)
    )
    for seat in range(seats):
        taken = await store.take_seat(match_id, seat, token_hash(seat), f"p{seat}", "", "f")
        assert taken.seat == seat
    return response.progress


def seated_act(match_id, seat, action, **fields) -> pb.ActRequest:
    """An Act for a seat create() took, with its seat token hash."""
    return pb.ActRequest(
        match_id=match_id, seat=seat, action=action, token_hash=token_hash(seat), **fields
    )


async def first_legal(rules, match_id, seat):
    response = await rules.ListActions(pb.ListActionsRequest(match_id=match_id, seat=seat))
    return response.actions[0]


async def test_describe_game(rules):
    """DescribeGame returns the declared facts."""
    info = (await rules.DescribeGame(pb.DescribeGameRequest())).game
    assert info.game == "tinycards" and info.min_seats == 2 and info.max_seats == 4
    assert info.action_type == "parlour.games.tinycards.v1.Action"


async def test_act_commits_state_and_events(rules, store, match_id):
    """An action bumps the version and appends its events to the stream."""
    progress = await create(rules, store, match_id)
    assert progress.version == 1 and progress.pending[0].seat == 0
    action = await first_legal(rules, match_id, 0)
    response = await rules.Act(seated_act(match_id, 0, action, request_id="r1"))
    assert response.result.progress.version == 2 and not response.replayed
    events = await store.events_after(match_id, 0)
    assert [e.sequence for e in events] == list(range(1, response.result.event_count + 1))
    assert (await store.load(match_id)).version == 2


async def test_repeated_request_id_returns_first_answer(rules, store, match_id):
    """A repeated request id is not applied twice and returns the first result."""
    await create(rules, store, match_id)
    action = await first_legal(rules, match_id, 0)
    request = seated_act(match_id, 0, action, request_id="same")
    first = await rules.Act(request)
    again = await rules.Act(request)
    assert again.replayed and again.result == first.result
    assert (await store.load(match_id)).version == 2


async def test_request_id_reused_for_other_action(rules, store, match_id):
    """The same request id with a different action is INVALID_ARGUMENT."""
    await create(rules, store, match_id)
    response = await rules.ListActions(pb.ListActionsRequest(match_id=match_id, seat=0))
    a, b = response.actions[0], response.actions[1]
    await rules.Act(seated_act(match_id, 0, a, request_id="x"))
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await rules.Act(seated_act(match_id, 0, b, request_id="x"))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert reason(err.value) == "REQUEST_ID_REUSED"


@pytest.mark.parametrize(
    ("action", "code", "why"),
    [
        (any_pb2.Any(), grpc.StatusCode.INVALID_ARGUMENT, "MISSING_FIELD"),
        (pack(tc.View()), grpc.StatusCode.INVALID_ARGUMENT, "WRONG_MESSAGE_TYPE"),
        (
            any_pb2.Any(
                type_url="type.googleapis.com/parlour.games.tinycards.v1.Action", value=b"\xff\xff"
            ),
            grpc.StatusCode.INVALID_ARGUMENT,
            "MALFORMED_MESSAGE",
        ),
        (
            pack(tc.Action(play=tc.PlayCard(card=99))),
            grpc.StatusCode.FAILED_PRECONDITION,
            "CARD_NOT_IN_HAND",
        ),
    ],
)
async def test_bad_actions_leave_state_untouched(rules, store, match_id, action, code, why):
    """Malformed, wrong-type and illegal actions are refused precisely and change nothing."""
    await create(rules, store, match_id)
    before = await store.load(match_id)
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await rules.Act(seated_act(match_id, 0, action, request_id="bad"))
    assert err.value.code() == code and reason(err.value) == why
    assert await store.load(match_id) == before


async def test_not_your_turn(rules, store, match_id):
    """A seat that owes no decision is refused with FAILED_PRECONDITION NOT_YOUR_TURN."""
    await create(rules, store, match_id)
    action = await first_legal(rules, match_id, 0)
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await rules.Act(seated_act(match_id, 1, action))
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert reason(err.value) == "NOT_YOUR_TURN"


async def test_stale_expected_version_is_aborted(rules, store, match_id):
    """A stale expected version is ABORTED with the current version."""
    await create(rules, store, match_id)
    action = await first_legal(rules, match_id, 0)
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await rules.Act(seated_act(match_id, 0, action, expected_version=7))
    assert err.value.code() == grpc.StatusCode.ABORTED and reason(err.value) == "VERSION_MISMATCH"
    assert "version 1" in err.value.details()


async def test_unknown_match(rules):
    """An unknown match is NOT_FOUND."""
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await rules.GetView(pb.GetViewRequest(match_id="nope"))
    assert err.value.code() == grpc.StatusCode.NOT_FOUND


async def test_bad_seat_count_and_options(rules, match_id):
    """Creating with a bad seat count or options is INVALID_ARGUMENT naming the field."""
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await rules.CreateMatch(pb.CreateMatchRequest(match_id=match_id, seats=9))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    options = pack(tc.Options(hand_size=7))
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await rules.CreateMatch(pb.CreateMatchRequest(match_id=match_id, seats=2, options=options))
    assert reason(err.value) == "BAD_OPTIONS"


async def test_act_stream_multiplexes(rules, store, match_id):
    """Acts sent on one ActStream are answered with their call ids, errors as statuses."""
    await create(rules, store, match_id)
    action = await first_legal(rules, match_id, 0)
    calls = [
        pb.ActStreamRequest(call_id=1, act=seated_act(match_id, 0, action, request_id="a")),
        pb.ActStreamRequest(call_id=2, act=seated_act("missing", 0, action)),
    ]

    async def requests():
        for call in calls:
            yield call

    # answers ready together may come as one batch message
    answers = {a.call_id: a async for r in rules.ActStream(requests()) for a in (r.batch or [r])}
    assert answers[1].HasField("response") and answers[1].response.result.progress.version == 2
    assert answers[2].error.code == grpc.StatusCode.NOT_FOUND.value[0]


async def test_describe_game_serves_a_published_catalogue(store):
    """A game that publishes its catalogue has it in DescribeGame, packed as an Any."""
    game = get_game("houseofhorrors")
    server, port, _health, watcher = await rules_server.start(game, store)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = pb_grpc.RulesServiceStub(channel)
            info = (await stub.DescribeGame(pb.DescribeGameRequest())).game
        assert info.catalogue.TypeName() == "parlour.games.houseofhorrors.v1.Catalogue"
        assert info.catalogue.value == game.catalogue().SerializeToString(deterministic=True)
    finally:
        watcher.cancel()
        await server.stop(None)


async def test_finished_match_request_records_expire(rules, store, match_id):
    """Once a match is over its request records get a TTL (late retries still answered)."""
    from parlour.store import keys

    progress = await create(rules, store, match_id)
    step = 0
    while not progress.HasField("outcome"):
        seat = progress.pending[0].seat
        action = await first_legal(rules, match_id, seat)
        request = seated_act(match_id, seat, action, request_id=f"r{step}")
        progress = (await rules.Act(request)).result.progress
        step += 1
    assert 0 < await store.redis.ttl(keys.requests(match_id)) <= 3600
    # the match itself is kept for the finished retention (a day by default), longer
    assert 3600 < await store.redis.ttl(keys.state(match_id)) <= store.retention.finished_seconds
    replay = await rules.Act(request)
    assert replay.replayed and replay.result.progress == progress


async def test_seat_range_depends_on_the_options(store, match_id):
    """A game may declare seat ranges per options: Murder Castle's Automa takes exactly 1 seat,
    its other modes 2 to 7; CreateMatch refuses any other count with BAD_SEAT_COUNT (issue 14:
    seat ranges depend on the mode)."""
    from parlour.games.murdercastle.v1 import murdercastle_pb2 as mc

    castle = get_game("murdercastle")
    server, port, _health, watcher = await rules_server.start(castle, store)
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
    stub = pb_grpc.RulesServiceStub(channel)
    try:
        info = (await stub.DescribeGame(pb.DescribeGameRequest())).game
        assert (info.min_seats, info.max_seats) == (1, 7)
        solo = pack(mc.Options(automa=mc.AUTOMA_LEVEL_BEGINNER))
        created = await stub.CreateMatch(
            pb.CreateMatchRequest(match_id=match_id, seats=1, seed=1, options=solo)
        )
        assert [d.seat for d in created.progress.pending] == [0]
        standard = pack(mc.Options(second_story=True))
        for seats, options in ((1, standard), (2, solo)):
            request = pb.CreateMatchRequest(
                match_id=match_id + f"-{seats}", seats=seats, seed=1, options=options
            )
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await stub.CreateMatch(request)
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert reason(refused.value) == "BAD_SEAT_COUNT"
    finally:
        watcher.cancel()
        await channel.close()
        await server.stop(None)


async def test_issue22_commit_checks_the_seat_token_and_answers_the_events(rules, store, match_id):
    """Issue 22 item 2: an Act sent with a seat token's hash commits only while that token
    holds the seat (checked in the commit itself, so a gateway that has not yet heard of a
    revocation cannot act for the seat's next holder), and the answer carries the committed
    events as the stream holds them."""
    meta = {"game": "tinycards", "seats": "2"}
    await rules.CreateMatch(pb.CreateMatchRequest(match_id=match_id, seats=2, seed=3, meta=meta))
    assert (await store.take_seat(match_id, 0, "held", "p0", "", "f")).seat == 0
    action = await first_legal(rules, match_id, 0)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await rules.Act(
            pb.ActRequest(
                match_id=match_id, seat=0, action=action, request_id="x", token_hash="gone"
            )
        )
    assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert reason(refused.value) == "SEAT_TOKEN_REVOKED"
    assert (await store.load(match_id)).version == 1
    response = await rules.Act(
        pb.ActRequest(match_id=match_id, seat=0, action=action, request_id="r", token_hash="held")
    )
    stored = await store.events_after(match_id, 0)
    assert [(e.sequence, e.recorded, e.visibility, e.version) for e in response.events] == [
        (e.sequence, e.payload, e.visibility, e.version) for e in stored
    ]
    assert len(stored) == response.result.event_count > 0
