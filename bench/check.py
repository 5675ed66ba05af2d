"""What a finished bench run must hold: every section and field, no errors, every match whole.

`python -m bench.run` exits 1 when `problems` finds any, and tests/test_bench_quick.py runs
the quick bench against the real stack, so a bench that crashes or loses a field fails
`make test`. Nothing here looks at how fast anything was.
"""

from __future__ import annotations

import math

LATENCY = ("n", "p50_ms", "p99_ms")
LEVEL = ("actions_per_s", "actions_in_window", "errors", "ack", "delivery", "cpu")
FLOOR = ("calls", "ops_per_s", "p50_ms", "p99_ms", "cpu")
PEER = ("actions_per_s", "actions_total", "delivery", "cpu")
VS_PEER = (
    "server_cpu_us",
    "peer_server_cpu_us",
    "server_cpu_x",
    "client_cpu_us",
    "peer_flatfile_server_cpu_us",
    "server_cpu_x_flatfile",
)
MEMORY = (
    "memory_usage_bytes_per_match",
    "memory_usage_by_key",
    "info_used_memory_delta_per_match",
    "after_retry_window",
)
#: A finished match once its retry window passed (bench/redis_sizing.after_window).
AFTER_WINDOW = ("bytes_per_match", "by_key", "matches", "goal_bytes")
SERVERS = ("gateway", "rules:tinycards", "redis", "bench")
#: The ratings section (bench/ratings.py, issue 36).
RATINGS = ("c1", "c16", "floor_openskill", "x_floor", "memory")
RATINGS_MEMORY = ("bytes_per_person", "matches_per_person", "rated_marker_bytes_per_match")
#: Other work's load through the run (bench/quiet.py) and the transport floor of an action.
LOAD = ("others_loadavg_max", "machine_loadavg_max", "others_cores", "quiet")
FLOOR_PER_ACTION = ("gateway", "rules", "redis", "total")
#: The boardgame.io peer's sections: in memory and with its durable FlatFile storage.
PEER_SECTIONS = ("peer", "peer_flatfile")


def _missing(row: dict, fields: tuple[str, ...], where: str) -> list[str]:
    return [f"{where}: no {f!r}" for f in fields if f not in row]


def _level(row: dict, where: str) -> list[str]:
    out = _missing(row, LEVEL, where)
    if out:
        return out
    if row["errors"]:
        out.append(f"{where}: {row['errors']} errors, e.g. {row.get('error_samples', [])[:2]}")
    if not row["actions_in_window"]:
        out.append(f"{where}: no action acknowledged inside the window")
    out += _missing(row["ack"], LATENCY, f"{where}.ack")
    out += _missing(row["delivery"], LATENCY, f"{where}.delivery")
    out += _missing(row["cpu"], SERVERS, f"{where}.cpu")
    return out


def problems(results: dict) -> list[str]:
    """Everything wrong with a run's JSON (empty when it is whole and error free)."""
    levels = [str(c) for c in results.get("settings", {}).get("levels", [])]
    if not levels:
        return ["settings: no levels"]
    out: list[str] = []
    for floor, by_level in results.get("floors", {"(none)": {}}).items():
        for c in levels:
            if c not in by_level:
                out.append(f"floors.{floor}: no level {c}")
            else:
                out += _missing(by_level[c], FLOOR, f"floors.{floor}.{c}")
    for path in ("unary", "play"):
        by_level = results.get("parlour", {}).get(path, {})
        for c in levels:
            row = by_level.get(c)
            out += [f"parlour.{path}: no level {c}"] if row is None else _level(row, f"{path}.{c}")
    peer = results["settings"].get("peer", True)
    if peer:
        for c in levels:
            rows = {section: results.get(section, {}).get(c) for section in PEER_SECTIONS}
            absent = [f"{section}: no level {c}" for section, row in rows.items() if row is None]
            if absent:
                out += absent
                continue
            for section, row in rows.items():
                out += _missing(row, PEER, f"{section}.{c}")
            for path in ("unary", "play"):
                vs = results.get("vs_peer", {}).get(path, {}).get(c, {})
                out += _missing(vs, VS_PEER, f"vs_peer.{path}.{c}")
    memory = results.get("memory", {})
    out += _missing(memory, MEMORY, "memory")
    out += _missing(memory.get("after_retry_window", {}), AFTER_WINDOW, "memory.after_retry_window")
    if memory.get("errors"):
        out.append(f"memory run: {memory['errors']} errors")
    ratings = results.get("ratings", {})
    out += _missing(ratings, RATINGS, "ratings")
    out += _missing(ratings.get("memory", {}), RATINGS_MEMORY, "ratings.memory")
    for level in ("c1", "c16"):
        if level in ratings and not ratings[level].get("updates_per_s"):
            out.append(f"ratings.{level}: no update")
    durability = results.get("durability", {})
    if "incomplete" not in durability:
        out.append("durability: not checked")
    elif durability["incomplete"] or not durability.get("matches_checked"):
        out.append(f"durability: {durability}")
    out += _missing(results.get("machine", {}).get("load", {}), LOAD, "machine.load")
    out += _missing(results.get("floor_per_action", {}), FLOOR_PER_ACTION, "floor_per_action")
    for path in ("unary", "play"):
        if "target" not in results.get("ratios", {}).get(path, {}):
            out.append(f"ratios.{path}: no target")
    if results["settings"].get("sizing", True):
        out += sizing_problems(results.get("sizing"), peer)
    return out + _nan_rates(results, levels)


SIZING = {
    "live_matches": ("actions_per_s", "ack", "delivery", "gateway_rss_bytes_per_stream",
                     "redis_bytes_per_live_match", "server_cpu_us_per_action", "errors",
                     "cpu_us_per_live_match_s", "live_matches_per_core", "cores_for_10000"),
    "spectators": ("deliveries_per_s", "delivery", "public_events", "errors"),
    "workers_spectators": ("deliveries_per_s", "delivery", "subscribers_per_worker",
                           "cpu_per_delivery", "cores_at_target", "public_events", "errors"),
    "murder_castle": ("actions", "ack", "delivery", "server_cpu_us_per_action",
                      "matches_finished", "errors"),
}  # fmt: skip
SHAPES = ("1 gateway, 1 rules", "2 gateways, 1 rules", "1 gateway, 2 rules")
#: Each boardgame.io storage's live-match row (issue 31 item 1).
LIVE_PEER = ("actions_per_s", "delivery", "cpu", "rss_bytes_per_stream",
             "cpu_us_per_live_match_s", "live_matches_per_core")  # fmt: skip


def sizing_problems(sizing: dict | None, peer: bool = True) -> list[str]:
    """What bench/sizing.py's section lacks, or the errors it counted."""
    if not sizing:
        return ["sizing: missing"]
    out = []
    if peer:
        for storage in ("memory", "flatfile"):
            row = sizing.get("live_peer", {}).get(storage)
            where = f"sizing.live_peer.{storage}"
            out += [f"{where}: missing"] if row is None else _missing(row, LIVE_PEER, where)
            if storage not in sizing.get("live_vs_peer", {}):
                out.append(f"sizing.live_vs_peer: no {storage}")
    for scenario, fields in SIZING.items():
        row = sizing.get(scenario, {})
        out += _missing(row, fields, f"sizing.{scenario}")
        if row.get("errors"):
            out.append(f"sizing.{scenario}: {row['errors']} errors {row.get('error_samples', '')}")
    if sizing.get("murder_castle", {}).get("matches_finished") != len(
        sizing.get("sizes", {}).get("castle_seeds", ())
    ):
        out.append("sizing.murder_castle: not every match finished")
    for name in SHAPES:
        row = sizing.get("shape", {}).get(name)
        out += [f"sizing.shape: no {name!r}"] if row is None else _level(row, f"shape {name}")
    return out


def _nan_rates(results: dict, levels: list[str]) -> list[str]:
    """Rates that came out NaN (a level that measured nothing)."""
    out = []
    for path, by_level in results.get("parlour", {}).items():
        for c in levels:
            rate = by_level.get(c, {}).get("actions_per_s")
            if isinstance(rate, float) and math.isnan(rate):
                out.append(f"{path}.{c}: actions_per_s is NaN")
    return out
