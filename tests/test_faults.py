"""Failures over real processes: a replica killed mid-run, Redis going away (DESIGN: Quality)."""

from __future__ import annotations

import asyncio
import signal
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from parlour.client import GatewayClient
from parlour.engine.rng import Rng
from parlour.launcher import LocalStack, Process
from parlour.rules.v1 import rules_pb2 as rules
from parlour.store.matchstore import MatchStore
from parlour.store.server import EmbeddedRedis


async def submit_with_retry(player, action, request_id, tries=40):
    """What a careful client does: retry UNAVAILABLE with the same request id."""
    for _ in range(tries):
        try:
            return await player.submit(action, request_id=request_id)
        except grpc.aio.AioRpcError as error:
            if error.code() != grpc.StatusCode.UNAVAILABLE:
                raise
            await asyncio.sleep(0.05)
    raise AssertionError("still unavailable after retries")


async def play_match(client, seed, acked, halfway: asyncio.Event):
    match = await client.create_match("tinycards", 2, seed=seed)
    players = [await client.join(match.name, f"p{i}") for i in range(2)]
    rng = Rng.from_seed(seed)
    progress = await players[0].progress()
    step = 0
    while not progress.HasField("outcome"):
        seat = progress.pending[0].seat
        actions = (await players[seat].actions()).actions
        request_id = f"{seed}-{step}"
        response = await submit_with_retry(
            players[seat], actions[rng.below(len(actions))], request_id
        )
        acked.setdefault(match.name, []).append(request_id)
        progress = response.result.progress
        step += 1
        if step == 4:
            halfway.set()
        await asyncio.sleep(0.01)
    return match.name


async def test_killing_a_rules_replica_loses_and_repeats_nothing():
    """With a replica SIGKILLed mid-run, every acknowledged action is stored exactly once."""
    with LocalStack(["tinycards"], replicas=2) as stack:
        acked: dict[str, list[str]] = {}
        halfway = asyncio.Event()
        async with GatewayClient(stack.address) as client:
            games = [
                asyncio.create_task(play_match(client, seed, acked, halfway)) for seed in range(12)
            ]
            await halfway.wait()
            stack.rules["tinycards"][0].stop(signal.SIGKILL)
            names = await asyncio.gather(*games)
            store = MatchStore.from_url(stack.redis_url)
            try:
                for name in names:
                    match_id = name.removeprefix("matches/")
                    stored = await store.load(match_id)
                    logged = (await store.match_log(match_id)).actions
                    applied = [rules.LoggedAction.FromString(a).request_id for a in logged]
                    assert applied == acked[name], "stored actions differ from acknowledged ones"
                    assert stored.version == 1 + len(acked[name])
            finally:
                await store.close()


def health_status(proc: Process) -> int:
    with proc.channel() as channel:
        try:
            return (
                health_pb2_grpc.HealthStub(channel)
                .Check(health_pb2.HealthCheckRequest(), timeout=2)
                .status
            )
        except grpc.RpcError:
            return -1


def wait_for_status(proc: Process, status: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if health_status(proc) == status:
            return
        time.sleep(0.1)
    raise AssertionError(f"{proc.name} never reported {status}")


async def test_redis_down_is_unavailable_then_recovers():
    """Redis down: calls fail UNAVAILABLE and health is NOT_SERVING; back up: service resumes."""
    redis = EmbeddedRedis(persistent=True).start()
    try:
        with LocalStack(["tinycards"], redis_url=redis.url) as stack:
            rules = stack.rules["tinycards"][0]
            async with GatewayClient(stack.address) as client:
                match = await client.create_match("tinycards", 2, seed=1)
                players = [await client.join(match.name, f"p{i}") for i in range(2)]
                first = (await players[0].actions()).actions[0]
                await players[0].submit(first, request_id="before")
                redis.stop(remove=False)
                wait_for_status(rules, health_pb2.HealthCheckResponse.NOT_SERVING)
                wait_for_status(stack.gateway, health_pb2.HealthCheckResponse.NOT_SERVING)
                with pytest.raises(grpc.aio.AioRpcError) as err:
                    await players[1].actions()
                assert err.value.code() == grpc.StatusCode.UNAVAILABLE
                redis.start()
                wait_for_status(rules, health_pb2.HealthCheckResponse.SERVING)
                wait_for_status(stack.gateway, health_pb2.HealthCheckResponse.SERVING)
                nxt = (await players[1].actions()).actions[0]
                response = await submit_with_retry(players[1], nxt, "after")
                assert response.result.progress.version == 3
    finally:
        redis.stop()
