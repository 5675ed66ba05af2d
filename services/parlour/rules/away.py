"""SetAway (issue 44): a seat of a correspondence match is away until a date, or back.

A pause is a platform action in the match log (LoggedAction.away) committed like an undo
request: a new version with the state unchanged, an Away event everyone sees, and the
seat's pause in the progress (MatchProgress.away). What it does to the clocks:

- the seat owes a decision when the pause starts: its clock stands still, so the decision
  is due as much later as the pause is long (its bank, if any, runs that much later too);
- the seat comes to owe a decision during the pause (another seat moved): the decision's
  budget starts when the pause ends (clocks.advance);
- the pause is cut short (an earlier date) or ended ("back", until 0): the seat's owed
  decisions move earlier by the time cut, so they are due as if the pause had been that
  long; later changes start its budgets from now again;
- the other seats' clocks are untouched.

The limits are the match's (gateway/correspondence.py): one pause lasts at most
`pause_max_ms` from its start, and the pauses of a seat add up to at most
`pause_total_ms` over the match (a pause cut short counts as long as it lasted).
"""

from __future__ import annotations

import grpc

from parlour.engine.v1.platform_pb2 import Away
from parlour.rpc.errors import ServiceError, invalid_argument, not_found
from parlour.rules.clocks import now_ms
from parlour.rules.core import RulesCore, game_over
from parlour.rules.undos import fingerprint_of, serialized_step
from parlour.rules.v1 import rules_pb2 as pb
from parlour.store import meta as field
from parlour.store.matchstore import MatchNotFound

DAY_MS = 86_400_000


def refused(reason: str, message: str) -> ServiceError:
    """A pause the match does not allow now."""
    return ServiceError(grpc.StatusCode.FAILED_PRECONDITION, reason, message)


def too_long(message: str) -> ServiceError:
    """A date beyond the match's limit for one pause."""
    return invalid_argument("until_unix_ms", message, "PAUSE_TOO_LONG")


def paused(
    before: pb.MatchProgress, seat: int, until: int, now: int, limits: tuple[int, int]
) -> pb.MatchProgress:
    """The progress after `seat` asks to be away until `until` (0: back) at `now`, with the
    match's (per pause, per match) limits in ms; raises the refusal otherwise. The version
    and sequence are left for the caller."""
    longest, total = limits
    old = next((p for p in before.away if p.seat == seat), None)
    active = old is not None and old.until_unix_ms > now
    if until and until <= now:
        raise invalid_argument("until_unix_ms", "that date has passed", "AWAY_IN_PAST")
    if not until and not active:
        raise refused("NOT_AWAY", "you are not away")
    if any(d.seat == seat and 0 < d.deadline_unix_ms <= now for d in before.pending):
        raise refused("TIME_RAN_OUT", "your time for this decision ran out; it is played for you")
    since = old.since_unix_ms if active else now
    taken = old.taken_ms if old is not None else 0
    old_end = old.until_unix_ms if active else now
    new_end = until or now
    if until - since > longest:
        days = longest // DAY_MS
        raise too_long(f"a pause lasts at most {days} day{'s' * (days != 1)} from its start")
    taken += new_end - old_end
    if taken > total:
        days = total // DAY_MS
        raise refused("PAUSE_ALLOWANCE_USED", f"pauses add up to at most {days} days a match")
    after = pb.MatchProgress()
    after.CopyFrom(before)
    del after.away[:]
    record = pb.SeatAway(seat=seat, until_unix_ms=until, since_unix_ms=since, taken_ms=taken)
    after.away.extend(sorted([*(p for p in before.away if p.seat != seat), record],
                             key=lambda p: p.seat))
    shift = new_end - old_end
    for decision in after.pending:
        if decision.seat == seat and decision.deadline_unix_ms:
            decision.deadline_unix_ms += shift
    for clock in after.clocks:
        if clock.seat == seat and clock.bank_runs_from_unix_ms:
            clock.bank_runs_from_unix_ms += shift
    return after


def limits_of(meta: dict[str, str]) -> tuple[int, int]:
    """The match's pause limits in ms; refused when it has no correspondence clock or no
    pauses."""
    if not meta.get(field.CORRESPONDENCE):
        raise refused("NOT_CORRESPONDENCE", "only a match with correspondence clocks has pauses")
    longest = int(meta.get(field.PAUSE_MAX) or 0)
    if not longest:
        raise refused("PAUSES_NOT_ALLOWED", "this match was created without pauses")
    return longest, int(meta.get(field.PAUSE_TOTAL) or longest)


async def set_away(core: RulesCore, request: pb.SetAwayRequest) -> pb.SetAwayResponse:
    """Record the seat's pause (or its end) as a new version; idempotent by request id."""
    seat = request.seat.to_bytes(4, "big", signed=True)
    fingerprint = fingerprint_of(b"away" + seat + request.until_unix_ms.to_bytes(8, "big"))
    response = await serialized_step(
        core, request.match_id, lambda: _locked(core, request, fingerprint)
    )
    return pb.SetAwayResponse(result=response.result, replayed=response.replayed)


async def _locked(
    core: RulesCore, request: pb.SetAwayRequest, fingerprint: bytes
) -> pb.ActResponse:
    match = request.match_id
    earlier = await core.earlier_answer(request, fingerprint)
    if earlier is not None:
        return earlier
    try:
        meta, _ = await core.store.meta_and_progress(match)
    except MatchNotFound:
        raise not_found("match", match) from None
    entry = await core.current(match)
    core.rules_at(entry.rules)
    core.check_seat(entry.state, request.seat)
    if entry.progress.HasField("outcome"):
        raise game_over()
    limits = limits_of(meta)
    if request.seat in await core.platform_seats(match):
        raise refused("SEAT_ABANDONED", "the platform plays this seat now")
    progress = paused(entry.progress, request.seat, request.until_unix_ms, now_ms(), limits)
    progress.version, progress.last_sequence = entry.version + 1, entry.last_sequence + 1
    record = next(p for p in progress.away if p.seat == request.seat)
    logged = pb.LoggedAction(
        seat=request.seat, request_id=request.request_id, version=progress.version, away=record
    )
    notice = Away(seat=request.seat, until_unix_ms=request.until_unix_ms)
    step = (entry.state, [notice], progress, logged)
    return await core.commit_step(entry, request, fingerprint, step)
