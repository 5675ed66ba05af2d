"""Issue 36 item 1, exactly once under a rules replica kill: the replica that finished
three matches is stopped between its finishing commits and the ratings (the failpoint
PARLOUR_FAILPOINT=pause-before-rating) and SIGKILLed; two fresh replicas' sweepers rate
every match once, and the clients' retries get their final acknowledgements. Real
processes, real Redis."""

from __future__ import annotations

import asyncio
import signal
import uuid

import grpc

from parlour.client import GatewayClient
from parlour.engine.rng import Rng
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.launcher import LocalStack, wait_serving
from parlour.rules.ratings import FAILPOINT
from parlour.store import keys
from parlour.store.matchstore import MatchStore


async def to_the_last_action(client, names: list[str], seed: int):
    """A match played until one action is left; returns its seats, the last action and
    the seat that owes it."""
    match = await client.create_match("tinycards", 2, seed=seed)
    seats = [await client.join(match.name, name) for name in names]
    rng = Rng.from_seed(seed)
    progress = await seats[0].progress()
    while True:
        seat = seats[progress.pending[0].seat]
        actions = (await seat.actions()).actions
        action = actions[rng.below(len(actions))]
        request_id = uuid.uuid4().hex
        try:
            response = await seat.submit(action, request_id=request_id, timeout=3)
        except grpc.aio.AioRpcError as error:
            assert error.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            return match.name, seat, action, request_id
        progress = response.result.progress
        assert not progress.HasField("outcome"), "the finishing action was acknowledged"


async def test_a_replica_killed_before_rating_loses_and_repeats_no_rating():
    ada = f"Ada {uuid.uuid4().hex[:8]}"
    with LocalStack(["tinycards"], env={FAILPOINT: "pause-before-rating"}) as stack:
        async with GatewayClient(stack.address) as client:
            hung = await asyncio.gather(*(
                to_the_last_action(client, [ada, f"Ben {i} {ada}"], seed)
                for i, seed in enumerate((21, 22, 23))))
            player = (await client.stub.JoinMatch(gw.JoinMatchRequest(
                match=(await client.create_match("tinycards", 2)).name,
                display_name=ada))).player
            store = MatchStore.from_url(stack.redis_url)
            try:
                due = await store.redis.zrange(keys.ratings_due("tinycards"), 0, -1)
                assert {m.decode() for m in due} >= {h[0].removeprefix("matches/") for h in hung}
                old = stack.rules["tinycards"][0]
                old.stop(signal.SIGKILL)
                del stack.env[FAILPOINT]
                fresh = [stack.start_rules("tinycards", port=old.port),
                         stack.start_rules("tinycards")]
                stack.rules["tinycards"] = fresh
                for proc in fresh:
                    wait_serving(proc)
                for _, seat, action, request_id in hung:
                    replayed = await seat.submit(action, request_id=request_id, timeout=20)
                    assert replayed.result.progress.HasField("outcome")
                record = None
                for _ in range(150):
                    try:
                        record = await client.stub.GetPlayerRecord(
                            gw.GetPlayerRecordRequest(player=player))
                    except grpc.aio.AioRpcError:
                        record = None
                    if record is not None and record.records[0].matches == 3:
                        break
                    await asyncio.sleep(0.2)
                assert record is not None and record.records[0].matches == 3
                await asyncio.sleep(2.5)  # more sweeps: nothing is rated again
                again = await client.stub.GetPlayerRecord(gw.GetPlayerRecordRequest(player=player))
                (standing,) = again.records
                assert standing.matches == 3 and len(standing.recent) == 3
                assert {m.match for m in standing.recent} == {h[0] for h in hung}
                assert standing.rating == record.records[0].rating
                assert not await store.redis.zcard(keys.ratings_due("tinycards"))
            finally:
                await store.close()
