"""Issue 32 items 3 and 4: `make bench-bots` keeps working — the bots bench plays every row of
Murder Castle's table once (1 round each, tiny searches) and reports a win rate with its
Wilson interval and every bot kind's decision times. No timing is asserted: speed is what the
bench measures, not what a test checks."""

from __future__ import annotations

from bench import bots


def test_issue32_the_castle_table_runs_every_row_and_times_every_bot_kind() -> None:
    rows = bots.castle_table(matches=1, iterations=1, jobs=1, searched=1, round_limit=1)
    assert len(rows) == 15
    for row in rows:
        low, high = row["interval_95"]
        assert row["games"] == 1 and 0.0 <= low <= high <= 1.0
        kinds = set(row["decision_seconds"])
        assert kinds, row
        for timed in row["decision_seconds"].values():
            assert timed["decisions"] > 0 and timed["max_s"] >= timed["p99_s"] >= 0.0
    assert {k for r in rows for k in r["decision_seconds"]} == {"greedy", "purposeful", "ismcts"}


def test_issue32_wilson_interval() -> None:
    assert bots.wilson(0, 60)[0] == 0.0 and 0.05 < bots.wilson(0, 60)[1] < 0.07
    low, high = bots.wilson(100, 200)
    assert low < 0.5 < high and abs((0.5 - low) - (high - 0.5)) < 1e-9
