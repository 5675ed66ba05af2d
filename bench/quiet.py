"""Is the machine quiet? The load other work puts on it while the bench runs.

The kernel's load average counts the bench's own processes too (at saturation the stack
alone keeps 3-4 threads runnable), so a quiet run cannot be judged by it. `LoadWatch`
samples every second, on a thread, the runnable threads of processes outside the bench's
own process tree and keeps their load average the way the kernel keeps its own (a one-minute
exponential average, starting from the machine's load average before the bench began),
together with the machine's load average and the CPU other processes used
(/proc/stat busy time minus the bench tree's).
"""

from __future__ import annotations

import math
import os
import threading
import time
from pathlib import Path

#: Above this load average from other work the figures are not comparable (issue 41).
QUIET_LOAD = 1.5
_DECAY = math.exp(-1 / 60)  # a 1 s sample in a one-minute average
_TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: str) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def _busy_jiffies() -> int:
    """Every CPU's busy time so far (all but idle and iowait)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(fields) - fields[3] - fields[4]


class LoadWatch:
    """Samples other work's load while the bench runs (`start()`, then `stop()` -> dict)."""

    def __init__(self, root: int | None = None, interval: float = 1.0) -> None:
        self.root = root or os.getpid()
        self.interval = interval
        self.others = os.getloadavg()[0]  # before start nothing of ours runs
        self.others_max = self.others
        self.machine_max = self.others
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="loadwatch", daemon=True)

    def start(self) -> LoadWatch:
        self._began = time.monotonic(), _busy_jiffies(), self._tree_jiffies()
        self._thread.start()
        return self

    def _tree(self) -> tuple[set[str], dict[str, list[str]]]:
        """The bench's process tree and every process's stat fields."""
        stats: dict[str, list[str]] = {}
        children: dict[str, list[str]] = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit() and (fields := _stat(entry)) is not None:
                stats[entry] = fields
                children.setdefault(fields[1], []).append(entry)
        ours, todo = set(), [str(self.root)]
        while todo:
            pid = todo.pop()
            ours.add(pid)
            todo += children.get(pid, [])
        return ours, stats

    def _tree_jiffies(self) -> int:
        """CPU time of the tree so far: the live processes' own and their reaped children's."""
        ours, stats = self._tree()
        return sum(sum(int(x) for x in stats[p][11:15]) for p in ours if p in stats)

    def _running_elsewhere(self, ours: set[str], stats: dict[str, list[str]]) -> int:
        running = 0
        for pid, fields in stats.items():
            if pid in ours or fields[0] not in "RD":
                continue
            if int(fields[17]) == 1:  # one thread: its process's state is its own
                running += 1
                continue
            try:
                tasks = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            running += sum(
                1 for t in tasks if (f := _stat(f"{pid}/task/{t}")) is not None and f[0] in "RD"
            )
        return running

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            ours, stats = self._tree()
            running = self._running_elsewhere(ours, stats)
            self.others = self.others * _DECAY + running * (1 - _DECAY)
            self.others_max = max(self.others_max, self.others)
            self.machine_max = max(self.machine_max, os.getloadavg()[0])
            self.samples += 1

    def stop(self) -> dict:
        """What the run saw: other work's load average (max, end), the machine's, and the
        cores other processes used on average."""
        self._stop.set()
        self._thread.join()
        began, busy, tree = self._began
        wall = time.monotonic() - began
        other_jiffies = (_busy_jiffies() - busy) - (self._tree_jiffies() - tree)
        return {
            "others_loadavg_max": round(self.others_max, 2),
            "others_loadavg_end": round(self.others, 2),
            "machine_loadavg_max": round(self.machine_max, 2),
            "others_cores": round(max(0, other_jiffies) / _TICK / wall, 3) if wall else 0.0,
            "samples": self.samples,
            "limit": QUIET_LOAD,
            "quiet": self.others_max <= QUIET_LOAD,
        }
