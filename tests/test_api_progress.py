"""Streams say when the match moved, events or not (issue 24, "progress without events";
DESIGN: Contracts): every committed change reaches every subscriber of the match as a
MatchProgress message after the change's events, at once, not at the next heartbeat.

Murder Castle's room choices inside a card's effect (the "choose_place" decision, e.g.
Holmes choosing the room he moves to for "Alerted") append no event: the test plays until
at least one such action was played and checked."""

from __future__ import annotations

import asyncio

from parlour.client import GatewayClient
from parlour.engine.registry import get_game
from parlour.engine.rng import Rng
from stack import running_stack

GAME = "murdercastle"
#: Far longer than the test waits: what a stream shows is not a heartbeat's doing.
HEARTBEAT = 60.0
WAIT = 5.0


async def progress_of(receive, version: int) -> list[str]:
    """Read until the progress message of `version`; the kinds read before it."""
    kinds = []
    while True:
        message = await receive()
        kind = message.WhichOneof("kind")
        assert kind != "heartbeat", "a heartbeat came before the progress"
        if kind == "progress" and message.progress.version >= version:
            assert message.progress.version == version, "a change's progress was skipped"
            return kinds
        kinds.append(kind)


async def test_every_change_reaches_every_stream_as_progress(redis_url):
    """Each action's new version reaches the other seat's Play session and a spectator's
    StreamEvents as a progress message within seconds (no heartbeat in 60 s); an action
    without any event does too."""
    options, seats = get_game(GAME).test_configurations()[0]
    async with (
        running_stack(redis_url, games=(GAME,), heartbeat_seconds=HEARTBEAT) as (address, gate),
        GatewayClient(address) as client,
    ):
        match = await client.create_match(GAME, seats, options=options, seed=1, spectators=True)
        players = [await client.join(match.name, f"p{s}", seat=s) for s in range(seats)]
        sessions = [p.session() for p in players]
        watched: asyncio.Queue = asyncio.Queue()

        async def spectate() -> None:
            async for item in client.spectate(match.name):
                watched.put_nowait(item)

        spectator = asyncio.create_task(spectate())
        try:
            for session in sessions:
                assert (await session.receive()).HasField("opened")
            feed = match.name.removeprefix("matches/")
            while len(getattr(gate.hub.feeds.get(feed), "subscribers", ())) < seats + 1:
                await asyncio.sleep(0.01)
            rng = Rng.from_seed(1)
            progress = await players[0].progress()
            silent = 0
            for _ in range(12):
                seat = progress.pending[0].seat
                actions = (await players[seat].actions()).actions
                request_id = sessions[seat].send(actions[rng.below(len(actions))])
                while not (ack := (await sessions[seat].receive())).HasField("ack"):
                    pass
                assert ack.ack.request_id == request_id and not ack.ack.code, ack
                result = ack.ack.response.result
                progress = result.progress
                silent += result.event_count == 0
                others = [s.receive for i, s in enumerate(sessions) if i != seat]
                for receive in [*others, watched.get, sessions[seat].receive]:
                    await asyncio.wait_for(progress_of(receive, progress.version), WAIT)
                if progress.HasField("outcome"):
                    break
            assert silent, "no action without events was played"
        finally:
            for session in sessions:
                session.cancel()
            spectator.cancel()
