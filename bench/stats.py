"""Small statistics helpers: percentiles and per-run summaries."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field


def percentile(sorted_values: list[float], q: float) -> float:
    """The q-th percentile (0..100) of already sorted values, nearest-rank; NaN when empty."""
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def summarize_ms(samples: list[float]) -> dict[str, float]:
    """p50/p99/mean/max of latencies given in seconds, in milliseconds."""
    values = sorted(samples)
    if not values:
        return {
            "n": 0,
            "p50_ms": math.nan,
            "p99_ms": math.nan,
            "mean_ms": math.nan,
            "max_ms": math.nan,
        }
    return {
        "n": len(values),
        "p50_ms": round(percentile(values, 50) * 1e3, 3),
        "p99_ms": round(percentile(values, 99) * 1e3, 3),
        "mean_ms": round(sum(values) / len(values) * 1e3, 3),
        "max_ms": round(values[-1] * 1e3, 3),
    }


_TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds used so far by a process (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICK


@dataclass
class CpuMeter:
    """CPU seconds of named processes over an interval."""

    pids: dict[str, int]
    start: dict[str, float] = field(default_factory=dict)

    def begin(self) -> CpuMeter:
        self.start = {name: cpu_seconds(pid) for name, pid in self.pids.items()}
        return self

    def end(self, wall: float, operations: int) -> dict[str, dict[str, float]]:
        """Per process: share of one core used, and CPU microseconds per operation."""
        out = {}
        for name, pid in self.pids.items():
            used = cpu_seconds(pid) - self.start.get(name, 0.0)
            out[name] = {
                "cores": round(used / wall, 3) if wall else 0.0,
                "cpu_us_per_op": round(used / operations * 1e6, 1) if operations else math.nan,
            }
        return out


def rss_bytes(pid: int) -> int:
    """Resident memory of a process."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0
