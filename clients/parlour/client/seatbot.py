"""A bot in a seat, playing through the public API like any client.

It holds its seat token and nothing else: it reads its View and its legal actions, waits on
its own event stream when it owes nothing, and (IS-MCTS) asks the gateway's SampleHidden
for states it cannot tell from the match, never for the match itself.
"""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from collections.abc import AsyncIterator

import grpc
from google.protobuf import any_pb2
from google.protobuf.message import Message

from parlour.client.client import GatewayClient, Seat
from parlour.client.strategies import Turn, make_strategy
from parlour.engine.game import Game
from parlour.engine.registry import get_game
from parlour.engine.rng import Rng
from parlour.engine.text import bot_name
from parlour.rules.v1 import rules_pb2

#: Refusals that mean "the match moved on meanwhile": look again.
STALE = {grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION}
MAX_SAMPLES = 64
#: Answers that may be lost on the way: the same request id is sent again.
RETRY = {grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.UNAVAILABLE}
SUBMIT_ATTEMPTS = 4
SUBMIT_SECONDS = 20.0


def unpack(packed: any_pb2.Any, message_type: type[Message]) -> Message:
    message = message_type()
    if not packed.Unpack(message):
        raise ValueError(f"expected {message_type.DESCRIPTOR.full_name}, got {packed.type_url}")
    return message


class RemoteSamples:
    """The samples fetched for one decision, handed to the search one by one."""

    def __init__(self, game: Game, states: list[any_pb2.Any]) -> None:
        self._states = [unpack(s, game.state_type) for s in states]
        self._next = 0

    def __call__(self, seed: int) -> Message:
        state = self._states[self._next % len(self._states)]
        self._next += 1
        clone = type(state)()
        clone.CopyFrom(state)
        return clone


async def fetch_samples(seat: Seat, game: Game, rng: Rng, count: int, version: int):
    """`count` samples at `version`, or None when the match moved on meanwhile."""
    states: list[any_pb2.Any] = []
    while len(states) < count:
        response = await seat.sample_hidden(rng.next64(), min(MAX_SAMPLES, count - len(states)))
        if response.version != version:
            return None
        states.extend(response.states)
    return RemoteSamples(game, states)


async def submit_surely(seat: Seat, action: Message, version: int) -> None:
    """Submit, and on a lost answer submit again with the same request id (answered once)."""
    request_id = uuid.uuid4().hex
    for attempt in range(SUBMIT_ATTEMPTS):
        try:
            await seat.submit(action, request_id=request_id, expected_version=version,
                              timeout=SUBMIT_SECONDS)
            return
        except grpc.aio.AioRpcError as error:
            if error.code() not in RETRY or attempt == SUBMIT_ATTEMPTS - 1:
                raise


async def _next_news(stream: AsyncIterator, after: int) -> None:
    """Wait for news: an event after sequence `after`, or the match's progress (sent after
    every change, so an action without events is seen at once), or the stream's end; a
    heartbeat is a reason to look again too (a change made while the stream reopened)."""
    async for item in stream:
        if not item.HasField("event") or item.event.sequence > after:
            return
    raise EOFError("the event stream ended")


async def choose(seat: Seat, game: Game, strategy: str, rng: Rng, iterations: int,
                 progress: rules_pb2.MatchProgress, legal: list[Message]) -> Message | None:
    """The strategy's move among `legal` (None: the match moved on while sampling)."""
    view = unpack((await seat.get_view()).view, game.view_type)
    turn = Turn(game, seat.seat, view, legal)
    if strategy not in ("ismcts", "purposeful"):
        return make_strategy(strategy, rng.next64()).choose(turn)
    wanted = iterations if strategy == "ismcts" else 1  # the planner plays out one sample
    sampler = await fetch_samples(seat, game, rng, wanted, progress.version)
    if sampler is None:
        return None
    bot = make_strategy(strategy, rng.next64(), sampler, iterations)
    return await asyncio.to_thread(bot.choose, turn)


async def play_seat(
    seat: Seat, game: Game, strategy: str, seed: int, iterations: int = 48
) -> rules_pb2.Outcome:
    """Play `seat` to the end of the match with a strategy; returns the outcome."""
    rng = Rng.from_seed(seed)
    stream = seat.events().__aiter__()
    try:
        while True:
            listed = await seat.actions()
            progress = listed.progress
            if progress.HasField("outcome"):
                return progress.outcome
            if not listed.actions:
                await _next_news(stream, progress.last_sequence)
                continue
            legal = [unpack(a, game.action_type) for a in listed.actions]
            if len(legal) == 1:
                action = legal[0]
            else:
                action = await choose(seat, game, strategy, rng, iterations, progress, legal)
                if action is None:
                    continue
            try:
                await submit_surely(seat, action, progress.version)
            except grpc.aio.AioRpcError as error:
                if error.code() not in STALE:
                    raise
    finally:
        await stream.aclose()


def bot_secret(join_code: str, seat: int) -> str:
    """A private table's bot seat's join secret, from its join code: bots restarted by
    another process (a matchmade match's, issue 45) re-open the seat they held."""
    return hashlib.sha256(f"bot|{join_code}|{seat}".encode()).hexdigest()


async def run_bots(
    address: str,
    match: str,
    count: int,
    strategy: str = "ismcts",
    seed: int = 0,
    iterations: int = 48,
    names: list[str] | None = None,
    at: list[int] | None = None,
    join_code: str = "",
) -> list[rules_pb2.Outcome]:
    """Take `count` free seats of a match (`at`: those seats) with bots and play them to the
    end; each joins as a bot of its strategy, so its results count toward its record."""
    async with GatewayClient(address) as client:
        info = await client.match(match)
        game = get_game(info.game)
        seats = []
        for i in range(count):
            name = names[i] if names else bot_name(strategy, i + 1)
            seat = at[i] if at else None
            secret = bot_secret(join_code, seat) if join_code and seat is not None else None
            seats.append(await client.join(match, name, seat, bot=strategy,
                                           join_code=join_code, join_secret=secret))
        return await asyncio.gather(
            *(play_seat(s, game, strategy, seed + s.seat, iterations) for s in seats)
        )


async def fill_free_seats(
    address: str, match: str, count: int, strategy: str, seed: int, iterations: int,
    at: list[int] | None = None,
    join_code: str = "",
) -> rules_pb2.Outcome:
    """Seat bots in `count` (0: all) free seats (`at`: these seats; `join_code`: a private
    table's) and play them out; returns the outcome."""
    if at:
        return (await run_bots(address, match, len(at), strategy, seed, iterations, at=at,
                               join_code=join_code))[0]
    async with GatewayClient(address) as client:
        free = sum(not s.occupied for s in (await client.match(match)).seats)
    outcomes = await run_bots(address, match, count or free, strategy, seed, iterations)
    return outcomes[0]
