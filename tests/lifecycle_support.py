"""Shared by the issue 17 tests: a stack of real processes and matches played to the end."""

from __future__ import annotations

import asyncio
import contextlib
import random
import subprocess
import sys

import pytest
import redis.asyncio as aioredis
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from parlour.client import GatewayClient
from parlour.engine import runtime
from parlour.engine.undo import refusal
from parlour.engine.v1 import platform_pb2
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.launcher import LocalStack
from parlour.rules.v1 import rules_pb2 as rules
from parlour.store import keys
from parlour.store.server import EmbeddedRedis


@contextlib.contextmanager
def own_redis():
    """A Redis server of the test's own, for a test that leaves timed matches unfinished: their
    deadlines must not be fired by another test's rules replica on the worker's Redis."""
    with EmbeddedRedis() as server:
        yield server.url


async def stored_progress(redis_url: str, match) -> rules.MatchProgress:
    """The progress committed last, read from Redis itself (no service needed)."""
    store = aioredis.from_url(redis_url)
    try:
        raw = await store.hget(keys.state(match.name.removeprefix("matches/")), "p")
    finally:
        await store.aclose()
    return rules.MatchProgress.FromString(raw)


def wire(messages) -> list[bytes]:
    """Repeated messages as bytes, to compare public and internal copies of one layout."""
    return [m.SerializeToString() for m in messages]


def start_stack(redis_url: str, games=("tinycards",), replicas: int = 1) -> LocalStack:
    """Redis (the test server), rules replicas and a gateway, each a real process."""
    env = {"PARLOUR_HEARTBEAT_SECONDS": "0.2"}
    return LocalStack(list(games), replicas=replicas, env=env, redis_url=redis_url).start()


async def new_match(
    client: GatewayClient, seats: int = 2, seed: int | None = None, game="tinycards", **lifecycle
):
    """A match with every seat taken; returns (match, seats)."""
    request = gw.CreateMatchRequest(
        game=game,
        seats=seats,
        allow_spectators=True,
        lifecycle=gw.LifecycleOptions(**lifecycle),
    )
    if seed is not None:
        request.seed = seed
    match = (await client.stub.CreateMatch(request)).match
    players = [await client.join(match.name, f"p{i}") for i in range(seats)]
    return match, players


async def play_out(players, seed: int = 0):
    """Pending seats pick random legal actions until the end; returns the final progress."""
    choose = random.Random(seed)
    while True:
        view = await players[0].get_view()
        if view.progress.HasField("outcome"):
            return view.progress
        seat = view.progress.pending[0].seat
        actions = (await players[seat].actions()).actions
        await players[seat].submit(choose.choice(list(actions)))


async def live_events(stream, until_sequence: int) -> list[gw.MatchEvent]:
    """The events (single or batched) a live stream delivers up to `until_sequence`
    (heartbeats end it early)."""
    events = []
    async for item in stream:
        got = [item.event] if item.HasField("event") else list(item.batch.events)
        events.extend(got)
        if got and got[-1].sequence >= until_sequence:
            break
        if item.HasField("heartbeat") and item.heartbeat.last_sequence >= until_sequence:
            break
    return events


def cli(*args: str) -> subprocess.CompletedProcess:
    """Run the `parlour` command as a separate process."""
    return subprocess.run(
        [sys.executable, "-m", "parlour.cli", *args], capture_output=True, text=True, timeout=120
    )


def reason(error) -> str:
    """The ErrorInfo reason of a refused call."""
    for detail in rpc_status.from_call(error).details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info.reason
    return ""


class Watcher:
    """Follows one live stream in the background, remembering its events (single or batched)
    and the last sequence it is known to have reached; tests wait on what it has seen."""

    def __init__(self, stream) -> None:
        self.events: list[gw.MatchEvent] = []
        self.reached = 0
        self.changed = asyncio.Condition()
        self.task = asyncio.create_task(self.follow(stream))

    async def follow(self, stream) -> None:
        async for item in stream:
            async with self.changed:
                got = [item.event] if item.HasField("event") else list(item.batch.events)
                self.events.extend(got)
                if got:
                    self.reached = got[-1].sequence
                elif item.HasField("heartbeat"):
                    self.reached = max(self.reached, item.heartbeat.last_sequence)
                self.changed.notify_all()

    def timeouts(self) -> list[tuple[int, platform_pb2.TimedOut]]:
        found = []
        for event in self.events:
            if event.event.Is(platform_pb2.TimedOut.DESCRIPTOR):
                notice = platform_pb2.TimedOut()
                event.event.Unpack(notice)
                found.append((event.version, notice))
        return found

    async def until(self, condition) -> None:
        async with self.changed:
            await self.changed.wait_for(condition)

    def stop(self) -> None:
        self.task.cancel()


async def wait_finished(client, match, watcher) -> gw.Match:
    """Wait, event by event, until the match is over."""
    while True:
        seen = len(watcher.events)
        current = await client.match(match.name)
        if current.status == gw.MATCH_STATUS_FINISHED:
            return current
        await watcher.until(lambda seen=seen: len(watcher.events) > seen)


class Table:
    """A match whose true state the test reads from Redis to pick actions."""

    def __init__(self, game, client, stack, match, players) -> None:
        self.game, self.client, self.match, self.players = game, client, match, players
        self.redis = aioredis.from_url(stack.redis_url)
        self.id = match.name.removeprefix("matches/")

    async def state(self):
        return self.game.state_type.FromString(await self.redis.hget(keys.state(self.id), "s"))

    async def find(self, wanted):
        """Play first legal actions until the pending seat has an action whose undo check
        gives `wanted`; returns (seat, action)."""
        while pending := runtime.pending(self.game, state := await self.state()):
            seat = pending[0].seat
            for action in runtime.legal_actions(self.game, state, seat):
                if refusal(self.game, state, seat, action) == wanted:
                    return seat, action
            await self.players[seat].submit(runtime.legal_actions(self.game, state, seat)[0])
        raise AssertionError(f"the match ended without an action whose undo is {wanted}")

    async def undo(self, seat, request_id="undo-1"):
        return await self.players[seat].undo(request_id=request_id)

    async def answer(self, seat, accept: bool, request_id=None):
        """Seat `seat` answers the open undo request (request id: one per seat)."""
        return await self.players[seat].answer_undo(
            accept, request_id=request_id or f"answer-{seat}"
        )

    async def close(self):
        await self.redis.aclose()


def stack_fixture(games=("tinycards",)):
    """A module's `stack` fixture: one LocalStack of `games` for all its tests."""

    @pytest.fixture(scope="module")
    def stack(redis_url):
        stack = start_stack(redis_url, games=games)
        yield stack
        stack.stop()

    return stack


def client_fixture():
    """A module's `client` fixture: a GatewayClient on its `stack`, one per test."""

    @pytest.fixture
    async def client(stack):
        async with GatewayClient(stack.address) as client:
            yield client

    return client
