"""Issue 18 item 1: the boardgame.io peer harness in `make bench` parses and compares.

No timing is asserted: the figures come from `make bench` (bench/README.md).
"""

from __future__ import annotations

import json
import math
import shutil

import pytest

from bench import bgio
from bench.run import peer_ratios, server_cpu_us

# One line as bench/peer/load.js prints it at the end of a level.
LOAD_LINE = json.dumps(
    {
        "concurrency": 16,
        "window_s": 5,
        "elapsed_s": 6.2,
        "moves_in_window": 6707,
        "moves_per_s": 1341.4,
        "moves_total": 8316,
        "matches_finished": 378,
        "delivery": {"n": 6707, "p50_ms": 8.2, "p99_ms": 56.7, "max_ms": 121.8},
    }
)


def test_issue18_item1_load_client_output_is_parsed() -> None:
    result = bgio.parse_result(LOAD_LINE)
    assert result["actions_per_s"] == 1341.4
    assert result["actions_total"] == 8316
    assert result["delivery"]["p99_ms"] == 56.7


def test_issue18_item1_truncated_output_is_refused() -> None:
    with pytest.raises(ValueError, match="moves_total"):
        bgio.parse_result(json.dumps({"moves_in_window": 1, "moves_per_s": 1.0, "delivery": {}}))


def test_issue18_item1_ratios_are_parlour_over_peer() -> None:
    cpu = {
        "gateway": {"cpu_us_per_op": 400.0},
        "rules:tinycards": {"cpu_us_per_op": 160.0},
        "redis": {"cpu_us_per_op": 40.0},
        "bench": {"cpu_us_per_op": 250.0},
    }
    assert server_cpu_us(cpu) == 600.0  # the load generator is not the server
    results = {
        "parlour": {"play": {"64": {"actions_per_s": 2000.0, "cpu": cpu}}},
        "peer": {
            "64": {
                "actions_per_s": 4000.0,
                "cpu": {
                    "peer_server": {"cpu_us_per_op": 200.0},
                    "peer_client": {"cpu_us_per_op": 150.0},
                },
            }
        },
    }
    row = peer_ratios(results, [64])["play"]["64"]
    assert row["actions_per_s_x"] == 0.5
    assert row["server_cpu_x"] == 3.0
    assert (row["client_cpu_us"], row["peer_client_cpu_us"]) == (250.0, 150.0)


@pytest.mark.skipif(
    shutil.which("node") is None or not (bgio.PEER / "node_modules" / "boardgame.io").exists(),
    reason="boardgame.io not installed in bench/peer (make bench installs it)",
)
async def test_issue18_item1_real_peer_level_runs_and_parses() -> None:
    with bgio.PeerServer.start() as server:
        result = await bgio.run_level(server, 2, 0.0, 0.3)
    assert result["actions_total"] >= result["actions_in_window"] > 0
    assert set(result["cpu"]) == {"peer_server", "peer_client"}


def test_issue31_item1_live_match_figures_and_ratios() -> None:
    """Issue 31 item 1: a host's figures from the cores a live-match run used, and parlour
    over each boardgame.io storage (above 1: parlour costs more per live match second)."""
    from bench.sizing import live_ratios, per_live_match

    ours = per_live_match(0.5, 400)
    assert ours == {
        "cpu_us_per_live_match_s": 1250.0,
        "live_matches_per_core": 800,
        "cores_for_10000": 12.5,
    }
    sizing = {
        "live_matches": ours,
        "live_peer": {
            "memory": per_live_match(0.25, 400),
            "flatfile": per_live_match(1.0, 400),
        },
    }
    assert live_ratios(sizing) == {"memory": 2.0, "flatfile": 0.5}


def test_issue31_item1_a_window_without_moves_reads_as_nan() -> None:
    """FlatFile can spend a whole quick window on one move: no latency is NaN, not None."""
    line = json.loads(LOAD_LINE)
    line["delivery"] = {"n": 0, "p50_ms": None, "p99_ms": None, "max_ms": None}
    result = bgio.parse_result(json.dumps(line))
    assert result["delivery"]["n"] == 0 and math.isnan(result["delivery"]["p99_ms"])
