"""Players' records in words (issue 36): a rating and its change, a standing, a leaderboard
and a record, as the terminal prints them; the web page words them the same
(clients/web/src/records.ts).

A record is read after the match finished: the rules service updates it when the match
ends, normally before the last action is acknowledged, after a crash within seconds, so
`finished_record` looks again a few times until the match is in the record's recent list.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from parlour.client.client import GatewayClient
from parlour.client.words import plural
from parlour.engine.game import Game
from parlour.engine.text import bot_name
from parlour.gateway.v1 import gateway_pb2 as gw

MINUS = "\u2212"
#: How often, and how many times, a finished match's record is read until it shows it.
POLL_SECONDS = 0.2
POLL_TIMES = 25
#: Rows of the leaderboard shown under a finished match.
TOP_AT_END = 5


def name_player(name: str) -> str:
    """The record a display name plays for on a gateway without identity, as the record
    calls take it ("players/name:Ada"; the gateway keys it, letter case and extra spaces
    ignored)."""
    return f"players/name:{name}"


def rating_text(value: float) -> str:
    """A rating as shown: one decimal ('27.3', '−1.8' with a true minus sign)."""
    shown = round(value, 1) or 0.0  # no "−0.0"
    return f"{MINUS}{-shown:.1f}" if shown < 0 else f"{shown:.1f}"


def change_text(change: float) -> str:
    """A change of rating: '+1.2', '−0.8' (a true minus sign), '+0.0'."""
    shown = round(change, 1) or 0.0  # no "−0.0"
    return f"{MINUS}{-shown:.1f}" if shown < 0 else f"+{shown:.1f}"


def where(game: Game, variant: str) -> str:
    """'<Game> (<variant title>)', or the game's title alone when the variant's title is it
    (a game with one way to play)."""
    titles = {v.name: v.display_name for v in game.variants()}
    title = titles.get(variant, variant)
    return game.display_name if title in ("", game.display_name) else \
        f"{game.display_name} ({title})"


def player_name(kind: int, player: str, display_name: str) -> str:
    """Who a record is, as a person reads it: the name it plays under; a bot as its seats
    call it, without their number ('Clever bot'); an opponent the rules play ('Automa (the
    game)'). Never the record's key."""
    if kind == gw.PLAYER_KIND_BOT:
        return display_name or bot_name(player.removeprefix("players/bot:"))
    if kind == gw.PLAYER_KIND_RULES:
        name = display_name or player.removeprefix("players/game:").capitalize()
        return f"{name} (the game)"
    return display_name or "a player without a name"


def tally(matches: int, wins: int) -> str:
    """'4 rated matches, 2 wins'."""
    rated = "1 rated match" if matches == 1 else f"{matches} rated matches"
    return f"{rated}, {plural(wins, 'win')}"


def standing_line(place: str, record: gw.GameRecord, players: int,
                  change: float | None = None) -> str:
    """'Your rating in <place>: 27.3 (+3.1) — 4 rated matches, 2 wins, #3 of 12'."""
    moved = f" ({change_text(change)})" if change is not None else ""
    rank = f", #{record.rank} of {players}" if record.rank and players else ""
    return (f"Your rating in {place}: {rating_text(record.rating.display)}{moved} — "
            f"{tally(record.matches, record.wins)}{rank}")


def entry_line(entry: gw.LeaderboardEntry, me: str) -> str:
    """One leaderboard row; the viewer's own marked."""
    name = player_name(entry.kind, entry.player, entry.display_name)
    mark = "  ← you" if me and entry.player == me else ""
    return (f"  #{entry.rank:<4} {name:<24} {rating_text(entry.rating.display):>6}  "
            f"{tally(entry.matches, entry.wins)}{mark}")


def leaderboard_lines(board: gw.ListLeaderboardResponse, place: str, me: str = "") -> list[str]:
    """The leaderboard's top rows, then (after '…' when apart) the rows around the viewer."""
    if not board.players:
        return [f"Leaderboard of {place}: nobody has finished a rated match yet."]
    lines = [f"Leaderboard of {place} ({plural(board.players, 'player')}):"]
    shown = {e.rank for e in board.top}
    lines += [entry_line(e, me) for e in board.top]
    rest = [e for e in board.around if e.rank not in shown]
    if rest and rest[0].rank > max(shown, default=0) + 1:
        lines.append("  …")
    lines += [entry_line(e, me) for e in rest]
    return lines


def finished_in(response: gw.GetPlayerRecordResponse,
                match: str) -> tuple[gw.GameRecord, gw.RecordedMatch] | None:
    """The game record that lists `match`, and the match as it lists it."""
    for record in response.records:
        for recorded in record.recent:
            if recorded.match == match:
                return record, recorded
    return None


async def finished_record(client: GatewayClient, player: str, game: str, match: str,
                          times: int = POLL_TIMES) -> tuple[gw.GameRecord, gw.RecordedMatch] | None:
    """`player`'s record in the game once it lists the finished `match` (read again every
    POLL_SECONDS, `times` times at most); None if it never does."""
    for attempt in range(times):
        found = finished_in(await client.player_record(player, game), match)
        if found is not None:
            return found
        if attempt + 1 < times:
            await asyncio.sleep(POLL_SECONDS)
    return None


async def match_end_lines(client: GatewayClient, game: Game, match: gw.Match,
                          player: str) -> list[str]:
    """What a finished match changed for the viewer's record: their standing and the
    variant's leaderboard (top 5 and their neighbourhood); nothing for an unrated match or a
    seat that counts toward nobody."""
    if not (match.rated and player):
        return []
    found = await finished_record(client, player, match.game, match.name)
    if found is None:
        return ["Your rating is not updated yet: see it later with parlour record."]
    record, recorded = found
    place = where(game, record.variant)
    board = await client.leaderboard(match.game, record.variant, top=TOP_AT_END, around=player)
    return [standing_line(place, record, board.players, recorded.change), "",
            *leaderboard_lines(board, place, player)]


def record_lines(response: gw.GetPlayerRecordResponse, games: dict[str, Game],
                 gateway: str = "") -> list[str]:
    """A player's whole record: per game and variant the rating, tally and rank, then the
    recent matches, each with the command that replays it."""
    who = player_name(response.kind, response.player, response.display_name)
    if not response.records:
        return [f"{who} has no rated match yet."]
    lines = [f"The record of {who}:"]
    flag = f" --gateway {gateway}" if gateway else ""
    for record in response.records:
        game = games.get(record.game)
        place = where(game, record.variant) if game else record.game
        rank = f", #{record.rank}" if record.rank else ""
        lines += ["", f"{place}: {rating_text(record.rating.display)} — "
                      f"{tally(record.matches, record.wins)}{rank}"]
        for recorded in record.recent:
            lines.append(f"  {recorded_text(recorded)}: parlour replay {recorded.match}{flag}")
    return lines


def recorded_text(recorded: gw.RecordedMatch) -> str:
    """'2026-12-04 21:40 UTC, won, 1st of 3 (+2.1)', '…, 2nd of 2 (−0.8, private table)'."""
    when = datetime.fromtimestamp(recorded.finished_unix_ms / 1000, UTC)
    place = f"{ordinal(recorded.place)} of {recorded.sides}"
    won = "won, " if recorded.place == 1 else ""
    private = ", private table" if recorded.private else ""
    return (f"{when:%Y-%m-%d %H:%M} UTC, {won}{place} "
            f"({change_text(recorded.change)}{private})")


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"

