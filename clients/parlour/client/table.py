"""A person at a match: create, join or watch; what they see; what they may do; the feed."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass

from google.protobuf.message import Message

from parlour.client.client import GatewayClient, Seat
from parlour.client.seatbot import unpack
from parlour.client.words import action_label, event_text
from parlour.engine.game import Game
from parlour.engine.registry import get_game
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rules.v1 import rules_pb2


@dataclass
class Snapshot:
    """Everything one refresh shows."""

    match: gw.Match
    view: Message
    progress: rules_pb2.MatchProgress
    legal: list[Message]
    labels: list[str]


def seat_name(match: gw.Match, seat: int, me: int | None) -> str:
    if seat == me:
        return "You"
    name = match.seats[seat].display_name if 0 <= seat < len(match.seats) else ""
    return f"{name or 'seat ' + str(seat)} (seat {seat})"


def whose_turn(snapshot: Snapshot, me: int | None) -> str:
    """'You decide: turn', 'bot-2 (seat 1) decides: respond', or how the match ended."""
    outcome = snapshot.progress.outcome if snapshot.progress.HasField("outcome") else None
    if outcome is not None:
        names = [seat_name(snapshot.match, w, me) for w in outcome.winners]
        won = f"Winner: {', '.join(names)}." if names else "Nobody won."
        return f"Game over. {won} Scores {list(outcome.scores)}. {outcome.summary}".strip()
    parts = []
    for decision in snapshot.progress.pending:
        who = seat_name(snapshot.match, decision.seat, me)
        verb = "decide" if decision.seat == me else "decides"
        parts.append(f"{who} {verb}: {decision.kind.replace('_', ' ')}")
    return "; ".join(parts) or "waiting"


class Table:
    """One seat (or a spectator) at one match, through the public API."""

    def __init__(self, client: GatewayClient, game: Game, match: str, seat: Seat | None) -> None:
        self.client = client
        self.game = game
        self.match = match
        self.seat = seat

    @property
    def me(self) -> int | None:
        return self.seat.seat if self.seat else None

    @classmethod
    async def create(
        cls, client: GatewayClient, game: str, seats: int, name: str, options: Message | None = None
    ) -> Table:
        """A new match with the person in seat 0, open to spectators (`parlour play --watch`)."""
        match = await client.create_match(game, seats, options=options, spectators=True)
        return await cls.join(client, match.name, name, 0)

    @classmethod
    async def join(
        cls, client: GatewayClient, match: str, name: str, seat: int | None = None
    ) -> Table:
        info = await client.match(match)
        taken = await client.join(info.name, name, seat)
        return cls(client, get_game(info.game), info.name, taken)

    @classmethod
    async def watch(cls, client: GatewayClient, match: str) -> Table:
        info = await client.match(match)
        return cls(client, get_game(info.game), info.name, None)

    async def snapshot(self) -> Snapshot:
        """The match, the caller's view and legal actions now."""
        match = await self.client.match(self.match)
        if self.seat is None:
            response = await self.client.stub.GetView(gw.GetViewRequest(match=self.match))
            return Snapshot(match, unpack(response.view, self.game.view_type),
                            response.progress, [], [])
        listed = await self.seat.actions()
        view = await self.seat.get_view()
        legal = [unpack(a, self.game.action_type) for a in listed.actions]
        given = list(listed.labels)
        labels = [
            action_label(self.game, a, given[i] if i < len(given) else "")
            for i, a in enumerate(legal)
        ]
        return Snapshot(match, unpack(view.view, self.game.view_type), listed.progress,
                        legal, labels)

    async def act(self, action: Message, version: int) -> None:
        """Submit an action, refused if the match moved on since `version`."""
        await self.seat.submit(action, expected_version=version)

    async def feed(self) -> AsyncIterator[tuple[int, str | None]]:
        """(sequence, line) per event this viewer may see; (last sequence, None) per heartbeat."""
        stream = self.seat.events() if self.seat else self.client.spectate(self.match)
        match = await self.client.match(self.match)
        async for item in stream:
            if not item.HasField("event"):
                yield item.heartbeat.last_sequence, None
                continue
            event = unpack(item.event.event, self.game.event_type)
            text = event_text(self.game, event, item.event.text)
            actor = item.event.actor
            if actor >= 0 and not match.seats[actor].display_name:
                match = await self.client.match(self.match)
            who = seat_name(match, actor, self.me) + ": " if actor >= 0 else ""
            yield item.event.sequence, f"{who}{text}"


def start_bots(address: str, match: str, count: int, strategy: str) -> subprocess.Popen:
    """`parlour bots` in its own process, taking `count` free seats of the match."""
    return subprocess.Popen(
        [sys.executable, "-m", "parlour.cli", "bots", match, "--count", str(count),
         "--strategy", strategy, "--gateway", address],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
