"""`parlour away`: say in a correspondence match that you are away until a date, or back."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from parlour.client.client import GatewayClient, Seat
from parlour.engine.away import date_words

DAY_MS = 86_400_000
#: How the terminal's away command is typed.
TYPED = ("away and a number of days (away 2) or the date you are back "
         "(away 2026-12-08 18:00, UTC), or back")


def until_ms(until: str | None, days: float | None, back: bool, now_ms: int | None = None) -> int:
    """The pause's end in Unix ms from exactly one of: an ISO date ("2026-12-08 18:00", UTC
    unless it names its zone), a number of days from now, or back (0). ValueError otherwise."""
    if sum(x is not None and x is not False for x in (until, days, back)) != 1:
        raise ValueError("give one of --until DATE, --days N or --back")
    if back:
        return 0
    now = int(time.time() * 1000) if now_ms is None else now_ms
    if days is not None:
        if days <= 0:
            raise ValueError("--days is a number of days above 0")
        return now + int(days * DAY_MS)
    moment = datetime.fromisoformat(until)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def typed_until(words: str, now_ms: int | None = None) -> int:
    """The pause's end from what a person typed in the terminal: "back" (0), "away 2" (days
    from now) or "away 2026-12-08 18:00" (a date, UTC unless it names its zone). ValueError
    when it is none of these."""
    command, _, rest = words.strip().partition(" ")
    rest = rest.strip()
    if command.lower() == "back" and not rest:
        return 0
    if command.lower() != "away" or not rest:
        raise ValueError(f"Type {TYPED}.")
    try:
        days = float(rest)
    except ValueError:
        try:
            return until_ms(rest, None, False, now_ms)
        except ValueError:
            raise ValueError(f"“{rest}” is not a date: type {TYPED}.") from None
    if days <= 0:
        raise ValueError(f"Away for more than 0 days: type {TYPED}.")
    return until_ms(None, days, False, now_ms)


def said(until: int) -> str:
    """What a pause just set (or ended, 0) means for the person."""
    if not until:
        return "You are back: your clock runs again."
    return f"You are away until {date_words(until)}; your clock waits for you."


async def set_away(address: str, match: str, token: str, until: int) -> str:
    """Ask the gateway (refusals raise grpc.RpcError); the line to print."""
    async with GatewayClient(address) as client:
        await Seat(client, match, -1, token).set_away(until)
    return said(until)
