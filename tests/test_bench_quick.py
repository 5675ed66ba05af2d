"""Issue 22 items 1 and 3: `make bench` keeps working — the quick bench runs every path
once against the real stack (Redis, rules service and gateway as processes, the
boardgame.io peer when node has it installed, and every sizing scenario of
bench/sizing.py) and its JSON has every field, with no errors.

No timing is asserted: speed is what `make bench` measures, not what a test checks.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench import bgio, check

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.xdist_group("bench")

PEER_READY = (
    shutil.which("node") is not None and (bgio.PEER / "node_modules" / "boardgame.io").exists()
)


def test_issue22_item1_quick_bench_runs_every_path(tmp_path) -> None:
    out = tmp_path / "quick.json"
    argv = [sys.executable, "-m", "bench.run", "--quick", "--out", str(out)]
    if not PEER_READY:
        argv.append("--no-peer")
    run = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    for noise in ("Traceback", "exception was never retrieved", "Task was destroyed"):
        assert noise not in run.stderr, run.stderr[-3000:]
    results = json.loads(out.read_text())
    assert results["problems"] == [] == check.problems(results)
    assert "parlour/peer" in run.stdout or not PEER_READY
    play = results["parlour"]["play"][str(results["settings"]["levels"][-1])]
    assert play["cpu"]["bench"]["cpu_us_per_op"] > 0  # the load client's own CPU is reported
    assert set(results["sizing"]) >= {"live_matches", "spectators", "murder_castle", "shape"}
    assert results["ratings"]["memory"]["bytes_per_person"] > 0  # issue 36
    assert "ratings:" in run.stdout
    if PEER_READY:  # issue 31 item 1: boardgame.io in memory and FlatFile, both regimes
        assert set(results["sizing"]["live_peer"]) == set(bgio.STORAGES)
        assert "hosts: saturation" in run.stdout and "boardgame.io flatfile" in run.stdout


def test_issue36_the_ratings_bench_profiles_where_the_time_goes() -> None:
    """`python -m bench.ratings --quick --profile` runs and prints the rating's call tree."""
    argv = [sys.executable, "-m", "bench.ratings", "--quick", "--profile"]
    run = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Ratings.settle" in run.stdout and '"bytes_per_person"' in run.stdout


def test_issue22_item1_a_lost_field_or_an_error_is_a_problem() -> None:
    row = {
        "actions_per_s": 10.0,
        "actions_in_window": 5,
        "errors": 0,
        "ack": {"n": 5, "p50_ms": 1.0, "p99_ms": 2.0},
        "delivery": {"n": 5, "p50_ms": 1.0, "p99_ms": 2.0},
        "cpu": {name: {"cpu_us_per_op": 1.0} for name in check.SERVERS},
    }
    floor = {"calls": 1, "ops_per_s": 1.0, "p50_ms": 1.0, "p99_ms": 1.0, "cpu": {}}
    whole = {
        "settings": {"levels": [2], "peer": False, "sizing": False},
        "floors": {"unary_echo": {"2": floor}},
        "parlour": {"unary": {"2": dict(row)}, "play": {"2": dict(row)}},
        "memory": {name: 1 for name in check.MEMORY}
        | {"after_retry_window": {name: 1 for name in check.AFTER_WINDOW}},  # issue 41 item 4
        "durability": {"matches_checked": 3, "incomplete": 0},
        "ratios": {"unary": {"target": {}}, "play": {"target": {}}},
        "ratings": {"c1": {"updates_per_s": 1.0}, "c16": {"updates_per_s": 1.0},
                    "floor_openskill": {}, "x_floor": 1.0,
                    "memory": {name: 1 for name in check.RATINGS_MEMORY}},
        "machine": {"load": {name: 1 for name in check.LOAD}},  # issue 41
        "floor_per_action": {name: 1.0 for name in check.FLOOR_PER_ACTION},
    }
    assert check.problems(whole) == []
    broken = json.loads(json.dumps(whole))
    del broken["parlour"]["play"]["2"]["delivery"]
    broken["parlour"]["unary"]["2"]["errors"] = 2
    broken["durability"]["incomplete"] = 1
    found = check.problems(broken)
    assert any("play.2: no 'delivery'" in p for p in found)
    assert any("unary.2: 2 errors" in p for p in found)
    assert any(p.startswith("durability") for p in found)
    del broken["ratings"]["memory"]  # issue 36: the ratings row is required
    assert "ratings: no 'memory'" in check.problems(broken)
    del broken["machine"]["load"]["quiet"]  # issue 41: other work's load is recorded
    assert "machine.load: no 'quiet'" in check.problems(broken)
    assert check.problems(
        {**whole, "settings": {"levels": [2], "peer": True, "sizing": False}}
    ) == ["peer: no level 2", "peer_flatfile: no level 2"]  # issue 31 item 1: both storages
    assert check.problems(
        {**whole, "settings": {"levels": [2], "peer": False, "sizing": True}}
    ) == ["sizing: missing"]
