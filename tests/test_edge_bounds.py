"""Issue 9, bounded inputs (items 7-12) over real gRPC, Redis and rules services."""

from __future__ import annotations

import asyncio
import logging

import grpc
import pytest
from edge_helpers import error_info, field_violations, seated, take_turn
from google.protobuf import any_pb2
from prometheus_client import REGISTRY

from parlour.client import GatewayClient
from parlour.engine.registry import get_game
from parlour.gateway import tokens
from parlour.gateway.config import GatewayConfig
from parlour.gateway.links import ActLink
from parlour.gateway.server import Gateway
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.gateway.v1 import gateway_service_pb2_grpc as gw_grpc
from parlour.rules import server as rules_server
from parlour.rules.v1 import rules_pb2 as rules
from parlour.rules.v1 import rules_service_pb2_grpc as rules_grpc
from parlour.store.matchstore import MatchStore
from parlour.store.server import EmbeddedRedis
from stack import running_stack

ACTION_URL = "type.googleapis.com/parlour.games.tinycards.v1.Action"


@pytest.fixture
async def stack(redis_url):
    async with running_stack(redis_url, heartbeat_seconds=0.2) as (address, gate):
        async with GatewayClient(address) as client:
            yield client, gate, address


async def refused(call) -> grpc.aio.AioRpcError:
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await call
    return error.value


async def key_count(redis_url: str) -> int:
    store = MatchStore.from_url(redis_url)
    try:
        return len(await store.redis.keys("parlour:*"))
    finally:
        await store.close()


def big_any(size: int, url: str = ACTION_URL) -> any_pb2.Any:
    return any_pb2.Any(type_url=url, value=b"\x00" * size)


async def test_item7_every_client_field_is_bounded_at_the_gateway(stack, redis_url):
    """Item 7: over-long request ids, names, match names, type URLs and actions are
    INVALID_ARGUMENT with a BadRequest field violation, and nothing is stored."""
    client, _, _ = stack
    match, players = await seated(client)
    before = await key_count(redis_url)
    long_id = "r" * 129
    cases = [
        (
            client.stub.CreateMatch(
                gw.CreateMatchRequest(game="tinycards", seats=2, request_id=long_id)
            ),
            "request_id",
        ),
        (client.stub.CreateMatch(gw.CreateMatchRequest(game="g" * 65, seats=2)), "game"),
        (
            client.stub.JoinMatch(gw.JoinMatchRequest(match=match.name, display_name="n" * 65)),
            "display_name",
        ),
        (
            client.stub.JoinMatch(gw.JoinMatchRequest(match=match.name, request_id=long_id)),
            "request_id",
        ),
        (client.stub.GetMatch(gw.GetMatchRequest(match="m" * 129)), "match"),
        (
            client.stub.SubmitAction(
                gw.SubmitActionRequest(match=match.name, action=big_any(1, "t/" + "u" * 300)),
                metadata=players[0].metadata,
            ),
            "action.type_url",
        ),
        (
            client.stub.SubmitAction(
                gw.SubmitActionRequest(match=match.name, action=big_any(2048)),
                metadata=players[0].metadata,
            ),
            "action",
        ),
        (
            client.stub.SubmitAction(
                gw.SubmitActionRequest(match=match.name, request_id=long_id),
                metadata=players[0].metadata,
            ),
            "request_id",
        ),
    ]
    for call, field in cases:
        error = await refused(call)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, field
        assert field in field_violations(error), (field, field_violations(error))
    assert await key_count(redis_url) == before
    current = await client.match(match.name)
    assert current.progress.version == 1 and all(s.display_name != "n" * 65 for s in current.seats)


async def test_item8_large_actions_fail_alone_on_the_internal_link(stack, redis_url):
    """Item 8: an action over the game's declared size is refused at the gateway; on the
    internal link, oversized Acts sent together are never batched past the message
    limit, so each gets its own answer and another match's action still succeeds."""
    client, gate, _ = stack
    match, players = await seated(client)
    error = await refused(
        client.stub.SubmitAction(
            gw.SubmitActionRequest(match=match.name, action=big_any(1 << 20)),
            metadata=players[0].metadata,
        )
    )
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(error).reason == "ACTION_TOO_LARGE"

    address = gate.config.rules["tinycards"][0]
    async with grpc.aio.insecure_channel(address) as channel:
        link = ActLink(rules_grpc.RulesServiceStub(channel), address)
        other, others = await seated(client, seed=9)
        view = await others[0].get_view()
        seat = view.progress.pending[0].seat
        good = (await others[seat].actions()).actions[0]
        big = [
            link.act(
                rules.ActRequest(
                    match_id=match.name.removeprefix("matches/"),
                    seat=0,
                    action=big_any(1 << 20),
                    request_id=f"big-{i}",
                    token_hash=tokens.token_hash(players[0].token),
                )
            )
            for i in range(8)
        ]
        fine = link.act(
            rules.ActRequest(
                match_id=other.name.removeprefix("matches/"),
                seat=seat,
                action=good,
                request_id="ok",
                token_hash=tokens.token_hash(others[seat].token),
            )
        )
        answers = await asyncio.gather(fine, *big, return_exceptions=True)
        await link.close()
    assert not isinstance(answers[0], BaseException), answers[0]
    for answer in answers[1:]:
        assert isinstance(answer, Exception) and answer.code != grpc.StatusCode.UNAVAILABLE


def queued_play_messages() -> float:
    return REGISTRY.get_sample_value("parlour_play_queued_messages") or 0.0


async def test_item9_play_queue_is_bounded_for_a_client_that_stops_reading(redis_url):
    """Item 9: a Play client that stops reading holds at most the configured number of
    queued messages at the gateway; once it reads again it gets every event in order."""
    async with (
        running_stack(redis_url, games=("isayholmes",), play_queue=8) as (address, gate),
        GatewayClient(address) as client,
    ):
        match = await client.create_match("isayholmes", 3, seed=1)
        players = [await client.join(match.name, f"p{i}") for i in range(3)]
        await play_unread(gate, address, match, players)


async def play_unread(gate, address, match, players) -> None:
    """Play the match out while players[1]'s Play session reads nothing, then read it."""
    options = [("grpc.http2.lookahead_bytes", 1024), ("grpc.http2.bdp_probe", 0)]
    async with grpc.aio.insecure_channel(address, options=options) as channel:
        stub = gw_grpc.GatewayServiceStub(channel)
        opened = gw.PlayRequest(open=gw.OpenSession(match=match.name))
        outbox: asyncio.Queue = asyncio.Queue()
        outbox.put_nowait(opened)

        async def requests():
            while (item := await outbox.get()) is not None:
                yield item

        session = stub.Play(requests(), metadata=players[1].metadata)
        assert (await session.read()).HasField("opened")
        progress = await players[0].progress()
        while not progress.HasField("outcome"):
            progress = (await take_turn(players)).result.progress
        last = progress.last_sequence
        feed = gate.hub.feeds[match.name.removeprefix("matches/")]
        (sub,) = feed.subscribers
        while not (sub.cursor == last or (sub.queue.qsize() and queued_play_messages() >= 8)):
            await asyncio.sleep(0.01)
        print(f"pumped up to {sub.cursor} of {last}; queued {queued_play_messages()}")
        assert sub.cursor < last, "the session took every event for a client that reads none"
        assert queued_play_messages() <= 8, "the gateway kept more than the bound"

        seen = []
        while not seen or seen[-1] < last:
            message = await session.read()
            items = message.batch.items if message.HasField("batch") else [message]
            seen += [m.event.sequence for m in items if m.HasField("event")]
        outbox.put_nowait(None)
        session.cancel()
    expected = []
    async for item in players[1].events():
        if item.HasField("event"):
            expected.append(item.event.sequence)
            if item.event.sequence == last:
                break
        if item.HasField("heartbeat") and item.heartbeat.last_sequence >= last:
            break
    assert seen == expected


async def test_item10_resume_points_are_checked(stack):
    """Item 10: a resume point past the last sequence is OUT_OF_RANGE SEQUENCE_AHEAD and a
    negative one INVALID_ARGUMENT, both with the last sequence; the last one itself works."""
    client, _, _ = stack
    empty = await client.create_match("tinycards", 2, spectators=True)
    match, players = await seated(client)
    progress = (await take_turn(players)).result.progress
    last = progress.last_sequence
    for name, after, code in [
        (match.name, last + 5, grpc.StatusCode.OUT_OF_RANGE),
        (match.name, -1, grpc.StatusCode.INVALID_ARGUMENT),
        (empty.name, -3, grpc.StatusCode.INVALID_ARGUMENT),
        (empty.name, 1, grpc.StatusCode.OUT_OF_RANGE),
    ]:
        stream = client.stub.StreamEvents(gw.StreamEventsRequest(match=name, after_sequence=after))
        error = await refused(stream.read())
        assert error.code() == code, (name, after)
        if code == grpc.StatusCode.OUT_OF_RANGE:
            info = error_info(error)
            assert info.reason == "SEQUENCE_AHEAD"
            assert info.metadata["last_sequence"] == str(last if name == match.name else 0)
    # Play refuses it too (a raw stream: the SDK takes SEQUENCE_AHEAD on a resume as a
    # history a fail-over rewound, issue 40, and goes on from the stored last sequence)
    play = client.stub.Play(metadata=players[0].metadata)
    await play.write(gw.PlayRequest(open=gw.OpenSession(match=match.name, after_sequence=last + 1)))
    error = await refused(play.read())
    assert error.code() == grpc.StatusCode.OUT_OF_RANGE
    assert error_info(error).reason == "SEQUENCE_AHEAD"
    stream = client.stub.StreamEvents(gw.StreamEventsRequest(match=match.name, after_sequence=last))
    first = await stream.read()
    assert first.HasField("heartbeat") and first.heartbeat.last_sequence == last
    stream.cancel()


MALFORMED = {
    "junk": b"\xff\xff\xff\xff",
    "truncated": gw.GetMatchRequest(match="matches/abc").SerializeToString()[:-2],
    "deeply nested": b"\x7b" * 300,
}


@pytest.mark.parametrize("kind", MALFORMED)
async def test_item11_malformed_request_bytes_are_invalid_argument(stack, kind):
    """Item 11: junk, truncated and deeply nested request bytes are INVALID_ARGUMENT
    (no Python exception name), on unary calls and on the Play stream."""
    _, _, address = stack
    async with grpc.aio.insecure_channel(address) as channel:
        unary = channel.unary_unary("/parlour.gateway.v1.GatewayService/GetMatch")
        error = await refused(unary(MALFORMED[kind]))
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "Exception" not in error.details() and "Error" not in error.details()
        play = channel.stream_stream("/parlour.gateway.v1.GatewayService/Play")
        call = play(iter([MALFORMED[kind]]))
        error = await refused(call.read())
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT


async def test_item12_public_errors_are_short_and_carry_a_correlation_id(stack, redis_url, caplog):
    """Item 12: errors do not echo huge input or internals (replica addresses, Redis
    errors); each carries a correlation id under which the log holds the detail."""
    client, _, _ = stack
    caplog.set_level(logging.DEBUG, logger="parlour.errors")
    match, players = await seated(client)
    huge_url = big_any(1, "type.googleapis.com/" + "x" * (1 << 20))
    for call in (
        client.stub.GetMatch(gw.GetMatchRequest(match="m" * 10_000)),
        client.stub.GetMatch(gw.GetMatchRequest(match="matches/" + "x" * 100)),
        client.stub.SubmitAction(
            gw.SubmitActionRequest(match=match.name, action=huge_url),
            metadata=players[0].metadata,
        ),
    ):
        error = await refused(call)
        assert len(error.details()) < 200 and "x" * 50 not in error.details()
        assert error_info(error).metadata["correlation_id"]

    store = MatchStore.from_url(redis_url)
    server, port, _, watcher = await rules_server.start(get_game("tinycards"), store)
    config = GatewayConfig(redis_url=redis_url, rules={"tinycards": [f"127.0.0.1:{port}"]})
    lonely = await Gateway(config).start()
    try:
        async with GatewayClient(f"127.0.0.1:{lonely.port}") as other:
            await other.games()
            watcher.cancel()
            await server.stop(None)
            error = await refused(
                other.stub.CreateMatch(gw.CreateMatchRequest(game="tinycards", seats=2))
            )
            assert error.code() == grpc.StatusCode.UNAVAILABLE
            assert str(port) not in error.details() and "127.0.0.1" not in error.details()
            correlation = error_info(error).metadata["correlation_id"]
            logged = [r for r in caplog.records if getattr(r, "correlation_id", "") == correlation]
            assert logged and str(port) in logged[0].detail
    finally:
        await lonely.stop(None)
        await store.close()

    with EmbeddedRedis() as guarded_redis:
        wrong = guarded_redis.url.replace("redis://", "redis://nobody:wrong@")
        async with running_stack(redis_url) as (_, gate):
            locked = await Gateway(GatewayConfig(redis_url=wrong, rules=gate.config.rules)).start()
            try:
                async with GatewayClient(f"127.0.0.1:{locked.port}") as other:
                    error = await refused(
                        other.stub.GetMatch(gw.GetMatchRequest(match="matches/a"))
                    )
                assert error.code() == grpc.StatusCode.UNAVAILABLE
                assert "password" not in error.details().lower()
                assert error_info(error).metadata["correlation_id"]
            finally:
                await locked.stop(None)
