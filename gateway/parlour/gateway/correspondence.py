"""Correspondence clocks (issue 44): hours or days per move, mapped onto the turn clocks.

A match created with `LifecycleOptions.correspondence` stores its budget and bank as the
same metadata the turn timers read (`turn_timer_ms`, `time_bank_ms`), and its timeout policy
as the abandonment fields: a bot taking the seat is abandonment after one timeout with the
platform playing it, a forfeit is abandonment after one timeout ending the match. So the
rules replicas, their durable Redis timers and the log (TimedOut, Abandoned events) serve
correspondence matches unchanged. The pause limits are kept for SetAway (rules/away.py).
"""

from __future__ import annotations

from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rpc.errors import invalid_argument
from parlour.store import meta as field

HOUR_MS = 3_600_000
DAY_MS = 24 * HOUR_MS

#: The timeout policy -> (abandon_after, on_abandon) in the match metadata.
_POLICY = {
    gw.CORRESPONDENCE_TIMEOUT_BOT_TAKES_SEAT: ("1", "platform"),
    gw.CORRESPONDENCE_TIMEOUT_FORFEIT: ("1", "end"),
}


def policy_name(value: int) -> str:
    """The metadata word for a timeout policy ('default', 'bot', 'forfeit')."""
    return {
        gw.CORRESPONDENCE_TIMEOUT_BOT_TAKES_SEAT: "bot",
        gw.CORRESPONDENCE_TIMEOUT_FORFEIT: "forfeit",
    }.get(value, "default")


def meta(life: gw.LifecycleOptions) -> dict[str, str]:
    """The metadata a correspondence match adds or overrides; {} without one.

    Refuses INVALID_ARGUMENT CLOCK_CONFLICT when the millisecond clocks are also set, and
    PAUSE_LIMITS_CONFLICT when the match's pause total is below one pause."""
    if not life.HasField("correspondence"):
        return {}
    if life.turn_timer_ms or life.time_bank_ms or life.time_bank_increment_ms:
        raise invalid_argument(
            "lifecycle.correspondence",
            "a correspondence clock replaces turn_timer_ms and the time bank; leave them 0",
            "CLOCK_CONFLICT",
        )
    corr = life.correspondence
    if corr.max_pause_days_total and corr.max_pause_days_total < corr.max_pause_days:
        raise invalid_argument(
            "lifecycle.correspondence.max_pause_days_total",
            "the pauses of a match add up to at least one longest pause (or leave it 0)",
            "PAUSE_LIMITS_CONFLICT",
        )
    fields = {
        field.TURN_TIMER: str(corr.hours_per_move * HOUR_MS),
        field.TIME_BANK: str(corr.bank_hours * HOUR_MS),
        field.CORRESPONDENCE: policy_name(corr.on_timeout),
        field.PAUSE_MAX: str(corr.max_pause_days * DAY_MS),
        field.PAUSE_TOTAL: str((corr.max_pause_days_total or corr.max_pause_days) * DAY_MS),
    }
    if corr.on_timeout in _POLICY:
        fields[field.ABANDON_AFTER], fields[field.ON_ABANDON] = _POLICY[corr.on_timeout]
    return fields


def pause_days(meta: dict[str, str]) -> int:
    """Match.max_pause_days: the longest pause of a correspondence match (0: none)."""
    return int(meta.get(field.PAUSE_MAX) or 0) // DAY_MS if meta.get(field.CORRESPONDENCE) else 0
