"""Issue 10 item 4: a game whose rules service is down makes only that game unavailable;
ListGames lists the games that answer and names those that do not; the gateway's health
says what it can serve (overall, and per game as "games/<name>")."""

from __future__ import annotations

import asyncio
import signal

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from parlour.client import GatewayClient
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.launcher import LocalStack

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def health(stack: LocalStack, service: str) -> int:
    with stack.gateway.channel() as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        return stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=5).status


async def until(condition, timeout: float = 30.0) -> None:
    async with asyncio.timeout(timeout):
        while not await asyncio.to_thread(condition):
            await asyncio.sleep(0.05)


async def test_item4_one_game_down_leaves_the_others_playable_and_health_honest():
    with LocalStack(["tinycards", "isayholmes"]) as stack:
        assert health(stack, "games/isayholmes") == SERVING
        # Down before the gateway ever described it: nothing about it is cached.
        await asyncio.to_thread(stack.rules["isayholmes"][0].stop, signal.SIGKILL)
        await until(lambda: health(stack, "games/isayholmes") == NOT_SERVING)
        assert health(stack, "games/tinycards") == SERVING
        assert health(stack, "") == SERVING
        async with GatewayClient(stack.address) as client:
            listed = await client.stub.ListGames(gw.ListGamesRequest())
            assert [g.name for g in listed.games] == ["games/tinycards"]
            assert list(listed.unavailable_games) == ["games/isayholmes"]
            match = await client.create_match("tinycards", 2, seed=1)
            player = await client.join(match.name, "p0", seat=0)
            response = await player.submit((await player.actions()).actions[0])
            assert response.result.progress.version == 2
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await client.create_match("isayholmes", 3, seed=1)
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
        # Every game down: the gateway serves nothing and says so.
        await asyncio.to_thread(stack.rules["tinycards"][0].stop, signal.SIGKILL)
        await until(lambda: health(stack, "") == NOT_SERVING)
