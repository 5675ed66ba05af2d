"""The notification outbox: what a match change means for each seat, written to a Redis stream
(parlour.store.outbox).

After each commit a rules replica (with PARLOUR_NOTIFY_OUTBOX on) calls `changed` with the
committed progress, and a gateway after each seat taken; the notifiers' sweep calls it again
for every timed match, so a replica dying between its commit and this write loses nothing.
Each notice is written once: a per-match hash remembers which were written (store/notice.lua),
and its field is the notice's idempotency key.

Only public facts go into a notice: the match, its game, the seat, whose turn it is, the
deadline and the outcome (the same as any spectator's progress).
"""

from __future__ import annotations

import json
import logging

from parlour.rpc.errors import log_failure
from parlour.rules.v1 import rules_pb2 as pb
from parlour.settings import Settings
from parlour.store import meta as field
from parlour.store.outbox import OutboxStore

log = logging.getLogger("parlour.notify")
#: The kinds of notice, as in NotificationEvent and the webhook's "type".
KINDS = ("your_turn", "match_finished", "undo_asked", "clock_low")


class OutboxSettings(Settings):
    """PARLOUR_NOTIFY_OUTBOX: whether rules replicas and gateways write notices (off by
    default)."""

    notify_outbox: bool = False


def seat_facts(meta: dict[bytes, bytes], seat: int) -> tuple[str, str] | None:
    """(player, display name) of a person's seat; None for a free seat, a bot or a seat the
    platform plays."""
    if field.token(seat).encode() not in meta:
        return None
    record = meta.get(field.record(seat).encode(), b"").decode()
    if record.startswith("bot:") or meta.get(field.platform(seat).encode()):
        return None
    name = meta.get(field.name(seat).encode(), b"").decode()
    return (f"players/{record}" if record else "", name)


def notice(kind: str, match: str, meta: dict, seat: int, progress: pb.MatchProgress,
           key: str, person: tuple[str, str]) -> dict:
    """The webhook body of one notice (docs: deploy/README.md)."""
    body = {
        "id": key,
        "type": kind,
        "match": f"matches/{match}",
        "game": meta.get(field.GAME.encode(), b"").decode(),
        "seat": seat,
        "player": person[0],
        "display_name": person[1],
        "version": progress.version,
        "pending_seats": sorted({d.seat for d in progress.pending}),
        "deadline_unix_ms": min(
            (d.deadline_unix_ms for d in progress.pending if d.seat == seat), default=0
        ),
    }
    if progress.HasField("outcome"):
        body["outcome"] = {
            "winners": list(progress.outcome.winners),
            "scores": list(progress.outcome.scores),
            "summary": progress.outcome.summary,
        }
    return body


class Outbox:
    """Writes a match's notices to the outbox stream, each once."""

    def __init__(self, store: OutboxStore) -> None:
        self.store = store

    async def seated(self, match: str, progress_bytes: bytes) -> None:
        """A seat was taken (the gateway's JoinMatch): the notices of the match as it stands
        (the first mover's "your_turn" once its seat is taken). A failure is only logged:
        the seat stands, and the notifiers' sweep writes it for a timed match."""
        try:
            await self.changed(match, pb.MatchProgress.FromString(progress_bytes))
        except Exception as error:  # noqa: BLE001 - the join stands
            log_failure(log, "outbox write failed", error, match=match)

    async def changed(self, match: str, progress: pb.MatchProgress,
                      clock_low_before_ms: int = 0, now_ms: int = 0) -> int:
        """Write the notices `progress` calls for (clock_low too when `clock_low_before_ms`,
        never for a seat away at `now_ms`); returns how many were new."""
        meta = await self.store.meta(match)
        if not meta:
            return 0
        seats = int(meta.get(field.SEATS.encode(), b"0"))
        wanted: dict[str, tuple[str, int]] = {}
        if progress.HasField("outcome"):
            for seat in range(seats):
                wanted[f"match_finished:{seat}"] = ("match_finished", seat)
        pending = sorted({d.seat for d in progress.pending})
        turns = await self.store.turns(match, progress.version, seats, pending)
        away = {p.seat for p in progress.away if p.until_unix_ms > now_ms}
        for decision in progress.pending:
            if decision.seat not in turns:
                continue  # a sweep's progress older than the last change seen
            turn = turns[decision.seat]
            wanted[f"your_turn:{decision.seat}:{turn}"] = ("your_turn", decision.seat)
            left = decision.deadline_unix_ms - now_ms
            low = clock_low_before_ms and decision.deadline_unix_ms and left < clock_low_before_ms
            if low and decision.seat not in away:  # a paused clock is not low
                wanted[f"clock_low:{decision.seat}:{turn}"] = ("clock_low", decision.seat)
        if progress.HasField("undo_request"):
            asked = progress.undo_request
            for seat in asked.awaiting:
                wanted[f"undo_asked:{seat}:{asked.undoes}"] = ("undo_asked", seat)
        written = 0
        for entry, (kind, seat) in wanted.items():
            person = seat_facts(meta, seat)
            if person is None:
                continue
            key = f"{match}:{entry}"
            if not await self.store.first_time(match, entry, key):
                continue
            body = notice(kind, match, meta, seat, progress, key, person)
            await self.store.append(json.dumps(body))
            written += 1
        return written
