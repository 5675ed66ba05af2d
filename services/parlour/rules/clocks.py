"""Turn clocks: the per-decision budget and the chess-style time bank of each seat.

Time comes from the platform (the server time of each commit), never from the rules. At a
change of the match committed at time T:

- each seat that owed a decision before is charged the time it spent beyond its budget,
  max(0, T - bank_runs_from), down to a bank of 0;
- a seat whose own decision this change commits earns the increment (a timeout does not);
- each seat that owes a decision after it gets a fresh budget: its bank runs from
  T + budget, and its decisions are due at T + budget + bank (at T for a seat the platform
  plays because it abandoned).

Undo requests and answers leave every clock as it was (`carry`): asking cannot buy time.
A seat away ("away until ...", rules/away.py) has its fresh budget start at its pause's
end instead of T; the pauses carry from change to change.
The clocks live in the MatchProgress committed with the state, so they are in Redis, never
only in a process.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

# the rules' time is the platform's wall clock (parlour.clock), named here for the rules service
from parlour.clock import CLOCK_FILE_ENV, now_ms  # noqa: F401
from parlour.rules.v1 import rules_pb2 as pb
from parlour.store.meta import CLOCK_FIELDS

#: The match metadata fields the policy is read from.


@dataclass(frozen=True, slots=True)
class ClockPolicy:
    """A match's turn-timer options, fixed at creation."""

    budget_ms: int = 0
    bank_ms: int = 0
    increment_ms: int = 0

    @classmethod
    def of(cls, meta: Mapping[str, str]) -> ClockPolicy:
        """From a metadata mapping (store/meta.CLOCK_FIELDS; missing: 0)."""
        budget, bank, increment = (int(meta.get(name) or 0) for name in CLOCK_FIELDS)
        return cls(budget, bank, increment)

    @property
    def banked(self) -> bool:
        """Whether every seat has a time bank."""
        return bool(self.bank_ms or self.increment_ms)

    @property
    def timed(self) -> bool:
        """Whether decisions have deadlines at all."""
        return bool(self.budget_ms) or self.banked


def banks_after(
    before: pb.MatchProgress | None,
    policy: ClockPolicy,
    now: int,
    seats: int,
    acted: int | None,
    timed_out: int | None,
) -> dict[int, int]:
    """Every seat's bank once the change at `now` is charged (see the module's rules)."""
    previous = {clock.seat: clock for clock in before.clocks} if before is not None else {}
    banks = {}
    for seat in range(seats):
        clock = previous.get(seat)
        bank = policy.bank_ms if clock is None else clock.bank_ms
        if clock is not None and clock.bank_runs_from_unix_ms:
            bank = max(0, bank - max(0, now - clock.bank_runs_from_unix_ms))
        if seat == timed_out:
            bank = 0
        elif seat == acted:
            bank += policy.increment_ms
        banks[seat] = bank
    return banks


def advance(
    before: pb.MatchProgress | None,
    after: pb.MatchProgress,
    policy: ClockPolicy,
    now: int,
    seats: int,
    acted: int | None = None,
    timed_out: int | None = None,
    platform_seats: frozenset[int] = frozenset(),
) -> None:
    """Fill `after`'s deadlines and clocks for a change committed at `now`.

    `acted`: the seat whose own decision the change commits; `timed_out`: the seat the
    platform played for because its deadline passed.
    """
    if before is not None:
        after.away.extend(before.away)
    if not policy.timed:
        return
    banks = banks_after(before, policy, now, seats, acted, timed_out) if policy.banked else {}
    owing = {decision.seat for decision in after.pending}
    starts = {pause.seat: max(now, pause.until_unix_ms) for pause in after.away}
    for seat, bank in sorted(banks.items()):
        running = seat in owing and seat not in platform_seats
        runs_from = starts.get(seat, now) + policy.budget_ms if running else 0
        after.clocks.add(seat=seat, bank_ms=bank, bank_runs_from_unix_ms=runs_from)
    for decision in after.pending:
        if decision.seat in platform_seats:
            decision.deadline_unix_ms = now
        else:
            start = starts.get(decision.seat, now)
            decision.deadline_unix_ms = start + policy.budget_ms + banks.get(decision.seat, 0)


def carry(before: pb.MatchProgress, version: int, last_sequence: int) -> pb.MatchProgress:
    """The progress of a change that leaves state and clocks as they were (an undo step)."""
    progress = pb.MatchProgress()
    progress.CopyFrom(before)
    progress.version, progress.last_sequence = version, last_sequence
    progress.ClearField("undo_request")
    return progress


def earliest_deadline(progress: pb.MatchProgress) -> int | None:
    """The first deadline among the pending decisions, if any."""
    deadlines = [d.deadline_unix_ms for d in progress.pending if d.deadline_unix_ms]
    return min(deadlines) if deadlines else None
