"""Issue 12 item 1: bots are ordinary clients of the gateway (real gRPC, real Redis)."""

from __future__ import annotations

import asyncio
import sys

import grpc
import pytest

from parlour.client import GatewayClient
from parlour.client.seatbot import run_bots
from parlour.engine import runtime
from parlour.engine.registry import get_game
from parlour.engine.text import bot_name
from parlour.games.isayholmes.v1 import isayholmes_pb2 as isay
from parlour.gateway.v1 import gateway_pb2 as gw
from stack import running_stack


@pytest.fixture
async def gateway(redis_url):
    async with running_stack(
        redis_url, games=("tinycards", "isayholmes"), heartbeat_seconds=0.2
    ) as (address, _):
        yield address


@pytest.mark.parametrize("strategy", ["random", "greedy", "purposeful", "ismcts"])
async def test_bots_fill_every_seat_and_finish_the_match(gateway, strategy):
    """Issue 12 item 1: a bot per seat, each with only its seat token, plays the match out."""
    async with GatewayClient(gateway) as client:
        match = await client.create_match("tinycards", 3, seed=11)
        outcomes = await run_bots(gateway, match.name, 3, strategy, seed=3, iterations=8)
        final = await client.match(match.name)
    assert final.progress.HasField("outcome")
    assert all(o == final.progress.outcome for o in outcomes)
    assert [s.display_name for s in final.seats] == [bot_name(strategy, i) for i in (1, 2, 3)]


async def test_ismcts_bots_play_a_hidden_information_game(gateway):
    """Issue 12 item 1: IS-MCTS bots finish I Say, Holmes! through SampleHidden."""
    async with GatewayClient(gateway) as client:
        match = await client.create_match("isayholmes", 3, seed=4, options=isay.Options(rounds=1))
        await run_bots(gateway, match.name, 3, "ismcts", seed=1, iterations=4)
        assert (await client.match(match.name)).progress.HasField("outcome")


async def test_sample_hidden_answers_only_a_seat_and_keeps_its_view(gateway):
    """Issue 12 item 1: samples need a seat token, are bounded, and look like the seat's view."""
    game = get_game("tinycards")
    async with GatewayClient(gateway) as client:
        match = await client.create_match("tinycards", 2, seed=2)
        seat = await client.join(match.name, "a")
        response = await seat.sample_hidden(seed=5, count=3)
        view = (await seat.get_view()).view
        for packed in response.states:
            state = game.state_type()
            assert packed.Unpack(state)
            assert runtime.view(game, state, seat.seat).SerializeToString(
                deterministic=True
            ) == view.value
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await seat.sample_hidden(seed=5, count=65)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert refused.value.details().startswith("count:")
        with pytest.raises(grpc.aio.AioRpcError) as spectator:
            await client.stub.SampleHidden(gw.SampleHiddenRequest(match=match.name, count=1))
        assert spectator.value.code() == grpc.StatusCode.UNAUTHENTICATED


async def test_parlour_bots_plays_a_match_from_its_own_process(gateway):
    """Issue 12 item 1: `parlour bots MATCH` takes every free seat and plays the match out."""
    async with GatewayClient(gateway) as client:
        match = await client.create_match("tinycards", 2, seed=8)
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "parlour.cli", "bots", match.name, "--gateway", gateway,
            "--strategy", "greedy", stdout=asyncio.subprocess.PIPE,
        )
        out, _ = await proc.communicate()
        final = await client.match(match.name)
    assert proc.returncode == 0
    assert final.status == gw.MATCH_STATUS_FINISHED
    assert f"scores {list(final.progress.outcome.scores)}" in out.decode()
