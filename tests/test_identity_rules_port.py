"""Issue 34: the rules port refuses an Act without a seat token's hash, so a leaked
internal (gateway) certificate alone cannot act for a seat; the platform's own actions
(timers: tests/test_lifecycle_timers.py) do not pass through the port and still play."""

from __future__ import annotations

import grpc
import pytest
from edge_helpers import error_info

from parlour.engine.registry import get_game
from parlour.rules import server as rules_server
from parlour.rules.v1 import rules_pb2 as pb
from parlour.rules.v1 import rules_service_pb2_grpc as pb_grpc


@pytest.fixture
async def rules(store):
    server, port, _health, watcher = await rules_server.start(get_game("tinycards"), store)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        yield pb_grpc.RulesServiceStub(channel)
    watcher.cancel()
    await server.stop(None)


async def test_an_act_without_a_seat_token_hash_is_refused_on_both_act_calls(
    rules, store, match_id
):
    """Act and ActStream refuse UNAUTHENTICATED MISSING_SEAT_TOKEN for an action of a
    taken seat sent without token_hash; nothing is committed; with it, the action
    commits."""
    meta = {"game": "tinycards", "seats": "2"}
    await rules.CreateMatch(pb.CreateMatchRequest(match_id=match_id, seats=2, seed=3, meta=meta))
    assert (await store.take_seat(match_id, 0, "held", "p0", "", "f")).seat == 0
    listed = await rules.ListActions(pb.ListActionsRequest(match_id=match_id, seat=0))
    bare = pb.ActRequest(match_id=match_id, seat=0, action=listed.actions[0], request_id="r")
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await rules.Act(bare)
    assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert error_info(refused.value).reason == "MISSING_SEAT_TOKEN"
    stream = rules.ActStream(iter([pb.ActStreamRequest(call_id=1, act=bare)]))
    answer = await stream.read()
    stream.cancel()
    assert answer.WhichOneof("result") == "error", answer
    assert answer.error.code == grpc.StatusCode.UNAUTHENTICATED.value[0]
    assert (await store.load(match_id)).version == 1
    bare.token_hash = "held"
    assert (await rules.Act(bare)).result.progress.version == 2
