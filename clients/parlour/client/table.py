"""A person at a match: create, join or watch; what they see; what they may do; the feed."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

from google.protobuf.message import Message

from parlour.client.client import GatewayClient, Seat
from parlour.client.records import match_end_lines
from parlour.client.seatbot import unpack
from parlour.client.seating import variant_for
from parlour.client.words import (
    action_label,
    and_list,
    event_text,
    plural,
    seat_word,
    type_words,
)
from parlour.engine.game import Game
from parlour.engine.registry import get_game
from parlour.engine.text import render
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rules.v1 import rules_pb2


@dataclass
class Snapshot:
    """Everything one refresh shows."""

    match: gw.Match
    view: Message
    progress: rules_pb2.MatchProgress
    legal: list[Message]
    #: The legal actions' labels, seat references written out for the viewer.
    labels: list[str]
    #: The view in the rulebook's words (no sections: the game sends none).
    table: gw.TableText
    #: Every seat's player name, in seat order ("" while free).
    names: list[str]
    #: What the caller's decision is for, written out for the viewer ("" when none).
    prompt: str = ""


def seat_names(match: gw.Match) -> list[str]:
    """The players' names in seat order ("" for a free seat)."""
    return [s.display_name for s in match.seats]


def whose_turn(snapshot: Snapshot, me: int | None) -> str:
    """'Your turn', 'Waiting for Bob and Cleo', who is still to come, or how it ended."""
    names = snapshot.names
    outcome = snapshot.progress.outcome if snapshot.progress.HasField("outcome") else None
    if outcome is not None:
        return end_text(outcome, me, names)
    seats = list(dict.fromkeys(d.seat for d in snapshot.progress.pending))
    others = [seat_word(s, None, names) for s in seats if s != me]
    parts = ["your turn"] if me in seats else []
    if others:
        parts.append(f"waiting for {and_list(others)}")
    free = sum(not s.occupied for s in snapshot.match.seats)
    if free:
        parts.append(f"waiting for {plural(free, 'more player')}: others sit down with "
                     f"parlour play --join {snapshot.match.name}")
    text = "; ".join(parts) or "waiting"
    return text[:1].upper() + text[1:]


def end_text(outcome: rules_pb2.Outcome, me: int | None, names: Sequence[str]) -> str:
    """How a match ended: the game's summary (who won and what the scores mean), then the
    scores; without a summary, the winners."""
    scores = ", ".join(f"{seat_word(s, me, names)} {v}" for s, v in enumerate(outcome.scores))
    if outcome.summary:
        said = render(outcome.summary, me, names).strip()
        said = said if said.endswith((".", "!", "?")) else f"{said}."
    else:
        winners = [seat_word(w, me, names) for w in outcome.winners]
        said = f"{and_list(winners)} won." if winners else "Nobody won."
    return f"Game over. {said} Final scores: {scores}."


class Table:
    """One seat (or a spectator) at one match, through the public API."""

    def __init__(self, client: GatewayClient, game: Game, match: str, seat: Seat | None) -> None:
        self.client = client
        self.game = game
        self.match = match
        self.seat = seat
        #: The way to play's title, when this table created the match.
        self.variant = ""
        #: The rules version the match is played under (Match.rules_version).
        self.rules_version = 0

    @property
    def me(self) -> int | None:
        return self.seat.seat if self.seat else None

    @classmethod
    async def create(
        cls, client: GatewayClient, game: str, seats: int, name: str,
        options: Message | None = None, rated: bool = True,
    ) -> Table:
        """A new match with the person in seat 0, open to spectators (`parlour play --watch`);
        `rated=False`: a friendly match (no record changes)."""
        match = await client.create_match(game, seats, options=options, spectators=True,
                                          rated=rated)
        table = await cls.join(client, match.name, name, 0)
        chosen = variant_for(table.game, options)
        if options is None or chosen.options == options:
            table.variant = chosen.display_name
        return table

    @classmethod
    async def join(
        cls, client: GatewayClient, match: str, name: str, seat: int | None = None
    ) -> Table:
        info = await client.match(match)
        taken = await client.join(info.name, name, seat)
        table = cls(client, get_game(info.game), info.name, taken)
        table.rules_version = info.rules_version
        return table

    @classmethod
    async def watch(cls, client: GatewayClient, match: str) -> Table:
        info = await client.match(match)
        table = cls(client, get_game(info.game), info.name, None)
        table.rules_version = info.rules_version
        return table

    async def snapshot(self) -> Snapshot:
        """The match, the caller's view and legal actions now."""
        match = await self.client.match(self.match)
        names = seat_names(match)
        if self.seat is None:
            response = await self.client.stub.GetView(gw.GetViewRequest(match=self.match))
            return Snapshot(match, unpack(response.view, self.game.view_type),
                            response.progress, [], [], response.table, names)
        listed = await self.seat.actions()
        view = await self.seat.get_view()
        legal = [unpack(a, self.game.action_type) for a in listed.actions]
        given = list(listed.labels)
        labels = [
            action_label(self.game, a, given[i] if i < len(given) else "", self.me, names)
            for i, a in enumerate(legal)
        ]
        return Snapshot(match, unpack(view.view, self.game.view_type), listed.progress,
                        legal, labels, view.table, names,
                        render(listed.prompt, self.me, names) if legal else "")

    async def record_at_end(self) -> list[str]:
        """Once the match is over: the seat's rating, its change and the leaderboard (none
        for a spectator, an unrated match or a seat that counts toward nobody)."""
        if self.seat is None:
            return []
        match = await self.client.match(self.match)
        return await match_end_lines(self.client, self.game, match, self.seat.player)

    async def answer_undo(self, accept: bool) -> None:
        """Accept or refuse the open undo request."""
        await self.seat.answer_undo(accept)

    async def set_away(self, until_unix_ms: int) -> None:
        """Away until a date (Unix ms; the seat's clock waits), or 0: back now."""
        await self.seat.set_away(until_unix_ms)

    async def act(self, action: Message, version: int) -> None:
        """Submit an action, refused if the match moved on since `version`."""
        await self.seat.submit(action, expected_version=version)

    async def feed(self) -> AsyncIterator[tuple[int, str | None]]:
        """(sequence, line) per event this viewer may see, in the viewer's terms (the text
        names who did what); (last sequence, None) per progress message (the match moved,
        maybe without an event) and per heartbeat."""
        stream = self.seat.events() if self.seat else self.client.spectate(self.match)
        names = seat_names(await self.client.match(self.match))
        async for item in stream:
            if item.HasField("progress"):
                yield item.progress.last_sequence, None
                continue
            if not item.HasField("event"):
                yield item.heartbeat.last_sequence, None
                continue
            packed, text = item.event.event, item.event.text
            ours = packed.Is(self.game.event_type.DESCRIPTOR)
            event = unpack(packed, self.game.event_type) if ours else None
            if not all(names):  # someone sat down since: their name is in the text
                names = seat_names(await self.client.match(self.match))
            yield item.event.sequence, event_text(
                self.game, event, text or ("" if ours else type_words(packed.type_url)),
                self.me, names)


def start_bots(address: str, match: str, count: int, strategy: str) -> subprocess.Popen:
    """`parlour bots` in its own process, taking `count` free seats of the match."""
    return subprocess.Popen(
        [sys.executable, "-m", "parlour.cli", "bots", match, "--count", str(count),
         "--strategy", strategy, "--gateway", address],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
