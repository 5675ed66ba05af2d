"""The caller's matches across games (issue 44): "Your turn" and "Waiting for others", with the
time left on each clock, as `parlour matches` prints them and the SDK example uses them."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from parlour.gateway.v1 import gateway_pb2 as gw

HOUR_MS = 3_600_000


def split(mine: list[gw.MyMatch]) -> tuple[list[gw.MyMatch], list[gw.MyMatch]]:
    """(the matches waiting for the caller's decision, the other unfinished ones)."""
    yours, waiting = [], []
    for entry in mine:
        if entry.match.status == gw.MATCH_STATUS_FINISHED:
            continue
        pending = {d.seat for d in entry.match.progress.pending}
        (yours if entry.seat in pending else waiting).append(entry)
    return yours, waiting


def deadline_of(entry: gw.MyMatch) -> int:
    """The earliest deadline of the match's pending decisions (Unix ms; 0: none)."""
    deadlines = [d.deadline_unix_ms for d in entry.match.progress.pending if d.deadline_unix_ms]
    return min(deadlines, default=0)


def time_left(deadline_ms: int, now_ms: int | None = None) -> str:
    """'no clock', '2 h 5 min left', or for long ones '3 days left (until Tue 8 Dec 14:00 UTC)'."""
    if not deadline_ms:
        return "no clock"
    now = int(time.time() * 1000) if now_ms is None else now_ms
    left = max(0, deadline_ms - now)
    if left >= 24 * HOUR_MS:
        days = left // (24 * HOUR_MS)
        until = datetime.fromtimestamp(deadline_ms / 1000, UTC).strftime("%a %-d %b %H:%M UTC")
        return f"{days} day{'s' * (days != 1)} left (until {until})"
    hours, minutes = divmod(left // 60_000, 60)
    return f"{hours} h {minutes} min left" if hours else f"{minutes} min left"


def lines(mine: list[gw.MyMatch], now_ms: int | None = None) -> list[str]:
    """The two lists as text."""
    yours, waiting = split(mine)
    out = ["Your turn:"]
    out += [f"  {e.match.name}  {e.match.game}  seat {e.seat}  "
            f"{time_left(deadline_of(e), now_ms)}" for e in yours] or ["  (none)"]
    out.append("Waiting for others:")
    out += [f"  {e.match.name}  {e.match.game}  seat {e.seat}  "
            f"{time_left(deadline_of(e), now_ms)}" for e in waiting] or ["  (none)"]
    return out
