"""`parlour away`: say in a correspondence match that you are away until a date, or back."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from parlour.client.client import GatewayClient, Seat
from parlour.engine.away import date_words

DAY_MS = 86_400_000


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


async def set_away(address: str, match: str, token: str, until: int) -> str:
    """Ask the gateway (refusals raise grpc.RpcError); the line to print."""
    async with GatewayClient(address) as client:
        await Seat(client, match, -1, token).set_away(until)
    if not until:
        return "You are back: your clock runs again."
    return f"You are away until {date_words(until)}; your clock waits for you."
