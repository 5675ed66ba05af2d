"""Bots that play whole matches through the gateway's public API."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from google.protobuf.message import Message

from parlour.client.client import GatewayClient, Seat
from parlour.engine.rng import Rng
from parlour.gateway.v1 import gateway_pb2 as gw


@dataclass
class MatchReport:
    """How a bot match went."""

    match: gw.Match
    progress: gw.MatchProgress
    actions: int
    events_seen: int


async def play_random_match(
    client: GatewayClient,
    game: str,
    seats: int,
    seed: int,
    on_event: Callable[[gw.MatchEvent, gw.Match], None] | None = None,
    names: list[str] | None = None,
    options: Message | None = None,
) -> MatchReport:
    """Create a match, seat random bots (joined as bots of the "random" strategy), play it
    out, and follow the public event feed."""
    match = await client.create_match(game, seats, options=options, seed=seed, spectators=True)
    names = names or [f"bot{i + 1}" for i in range(seats)]
    players: list[Seat] = [
        await client.join(match.name, names[i], seat=i, bot="random") for i in range(seats)
    ]
    match = await client.match(match.name)
    rng = Rng.from_seed(seed)
    seen = 0
    last_seen = 0
    done = asyncio.Event()
    final_sequence: list[int] = []

    async def follow() -> None:
        nonlocal seen, last_seen
        async for item in client.spectate(match.name):
            if item.HasField("finished"):
                done.set()
                return
            if item.HasField("event"):
                seen += 1
                if on_event:
                    on_event(item.event, match)
                last_seen = item.event.sequence
            elif item.HasField("progress"):
                last_seen = max(last_seen, item.progress.last_sequence)
            elif item.HasField("heartbeat"):
                last_seen = item.heartbeat.last_sequence
            if final_sequence and last_seen >= final_sequence[0]:
                done.set()
                return

    follower = asyncio.create_task(follow())
    progress = await players[0].progress()
    actions = 0
    while not progress.HasField("outcome"):
        pending = sorted({d.seat for d in progress.pending})
        seat = pending[rng.below(len(pending))]
        legal = (await players[seat].actions()).actions
        response = await players[seat].submit(legal[rng.below(len(legal))])
        progress = response.result.progress
        actions += 1
    final_sequence.append(progress.last_sequence)
    if last_seen >= progress.last_sequence:
        done.set()
    try:
        await asyncio.wait_for(done.wait(), 30)
    finally:
        follower.cancel()
    return MatchReport(await client.match(match.name), progress, actions, seen)
