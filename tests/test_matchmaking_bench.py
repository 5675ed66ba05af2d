"""Issue 45 item 4: the matchmaking bench's quick path runs once against real processes
(two gateways, one Redis) and reports every figure; no timing is asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.xdist_group("bench")


def test_the_quick_matchmaking_bench_reports_every_figure() -> None:
    argv = [sys.executable, "-m", "bench.matchmaking", "--quick"]
    run = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Traceback" not in run.stderr
    first, _, rest = run.stdout.partition("\n")
    assert first.startswith("matchmaking: 40/40 tickets matched")
    result = json.loads(rest)
    assert result["matches"] == 20 and result["unmatched"] == 0
    assert result["time_to_match"]["n"] == 40
    assert result["rating_spread"]["p99"] >= result["rating_spread"]["p50"] >= 0
    assert set(result["cpu_us_per_ticket"]) == {"gateway_a", "gateway_b", "rules", "redis",
                                                 "bench"}
    assert len(result["loadavg_after"]) == 3
