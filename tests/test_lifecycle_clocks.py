"""Issue 17 item 1, the time bank's arithmetic (services/parlour/rules/clocks.py): the deadline a
pending seat faces is its budget plus what is left in its bank; time beyond the budget comes
out of the bank; a decision of its own earns the increment; a timeout leaves 0."""

from __future__ import annotations

from parlour.rules.clocks import ClockPolicy, advance, carry
from parlour.rules.v1 import rules_pb2 as pb

POLICY = ClockPolicy(budget_ms=1000, bank_ms=5000, increment_ms=300)


def owing(*seats: int, version: int = 1) -> pb.MatchProgress:
    progress = pb.MatchProgress(version=version)
    for seat in seats:
        progress.pending.add(seat=seat, kind="turn")
    return progress


def banks(progress: pb.MatchProgress) -> list[tuple[int, int]]:
    return [(c.bank_ms, c.bank_runs_from_unix_ms) for c in progress.clocks]


def test_creation_gives_every_seat_its_bank_and_the_pending_seat_budget_plus_bank():
    """Item 1: deadline = now + budget + bank; the bank runs from now + budget."""
    created = owing(0)
    advance(None, created, POLICY, 10_000, seats=2)
    assert banks(created) == [(5000, 11_000), (5000, 0)]
    assert created.pending[0].deadline_unix_ms == 16_000


def test_time_beyond_the_budget_comes_out_of_the_bank_and_a_move_earns_the_increment():
    """Item 1: seat 0 acts 2.5 s after its turn began (1.5 s past the budget): 5000 - 1500
    + 300 increment; seat 1 now owes, with a fresh budget and its whole bank."""
    created = owing(0)
    advance(None, created, POLICY, 10_000, seats=2)
    moved = owing(1, version=2)
    advance(created, moved, POLICY, 12_500, seats=2, acted=0)
    assert banks(moved) == [(3800, 0), (5000, 13_500)]
    assert moved.pending[0].deadline_unix_ms == 18_500


def test_acting_within_the_budget_costs_nothing():
    """Item 1: the first budget_ms of each decision are free."""
    created = owing(0)
    advance(None, created, POLICY, 10_000, seats=2)
    moved = owing(1, version=2)
    advance(created, moved, POLICY, 10_900, seats=2, acted=0)
    assert banks(moved)[0] == (5300, 0)


def test_a_timeout_empties_the_bank_and_leaves_the_budget_alone_from_then_on():
    """Item 1: the platform played for seat 0 (its deadline passed): bank 0, no increment;
    its next decision is due after the budget alone."""
    created = owing(0)
    advance(None, created, POLICY, 10_000, seats=2)
    timed_out = owing(0, version=2)
    advance(created, timed_out, POLICY, 16_000, seats=2, timed_out=0)
    assert banks(timed_out) == [(0, 17_000), (5000, 0)]
    assert timed_out.pending[0].deadline_unix_ms == 17_000


def test_a_seat_still_owing_after_another_seats_move_is_charged_then_restarts_its_budget():
    """Item 1: at every change each owing seat is charged what it spent beyond the budget,
    then gets a fresh budget (as the turn timer without a bank always did)."""
    both = owing(0, 1)
    advance(None, both, POLICY, 10_000, seats=2)
    after = owing(1, version=2)
    advance(both, after, POLICY, 13_000, seats=2, acted=0)
    assert banks(after) == [(3300, 0), (3000, 14_000)]
    assert after.pending[0].deadline_unix_ms == 17_000


def test_abandoned_seats_are_due_at_once_and_their_bank_does_not_run():
    """Item 5 with item 1: a seat the platform plays is due at the change itself."""
    progress = owing(1)
    advance(None, progress, POLICY, 10_000, seats=2, platform_seats=frozenset({1}))
    assert progress.pending[0].deadline_unix_ms == 10_000
    assert banks(progress)[1] == (5000, 0)


def test_budget_alone_keeps_the_turn_timer_as_it_was_and_no_clocks():
    """Item 1: without a bank the deadline is the budget from the change; no clocks shown."""
    progress = owing(0)
    advance(None, progress, ClockPolicy(budget_ms=700), 10_000, seats=2)
    assert progress.pending[0].deadline_unix_ms == 10_700 and not progress.clocks
    untimed = owing(0)
    advance(None, untimed, ClockPolicy(), 10_000, seats=2)
    assert untimed.pending[0].deadline_unix_ms == 0


def test_undo_steps_carry_every_clock_unchanged():
    """Items 1 and 4: an undo request or answer is a new version that leaves deadlines and
    banks as they were (asking cannot buy time) and closes no request by itself."""
    progress = owing(0)
    advance(None, progress, POLICY, 10_000, seats=2)
    progress.undo_request.seat = 1
    carried = carry(progress, 2, 7)
    assert (carried.version, carried.last_sequence) == (2, 7)
    assert carried.pending == progress.pending and carried.clocks == progress.clocks
    assert not carried.HasField("undo_request")
