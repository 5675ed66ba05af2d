"""Issue 41 item 1: make bench judges the machine by other work's load, not its own, and
refuses its figures when that load went above 1.5 (a quick run never refuses)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from bench import quiet
from bench.run import not_quiet

LOAD = {"others_loadavg_max": 2.4, "machine_loadavg_max": 5.0, "others_cores": 0.9}


def test_the_bench_tree_is_not_other_work() -> None:
    """Processes the bench started, and theirs, belong to its tree."""
    with subprocess.Popen(
        [sys.executable, "-c", "import subprocess, sys, time; "
         "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)']); "
         "print(p.pid, flush=True); time.sleep(30)"],
        stdout=subprocess.PIPE, text=True,
    ) as child:  # fmt: skip
        grandchild = child.stdout.readline().strip()
        try:
            ours, stats = quiet.LoadWatch()._tree()
            assert {str(child.pid), grandchild} <= ours
            assert "1" not in ours and "1" in stats
        finally:
            os.kill(int(grandchild), signal.SIGKILL)
            child.kill()


def test_a_watch_reports_what_the_run_saw() -> None:
    """stop() gives other work's load average, the machine's and other processes' cores."""
    watch = quiet.LoadWatch(interval=0.05).start()
    report = watch.stop()
    assert set(report) >= {"others_loadavg_max", "machine_loadavg_max", "others_cores", "quiet"}
    assert report["quiet"] == (report["others_loadavg_max"] <= quiet.QUIET_LOAD)


def test_figures_from_a_busy_machine_are_refused_except_a_quick_run() -> None:
    """Above the limit: a reason naming the load; at or below it, quick, or --max-load 0: ''."""
    assert "not quiet" in not_quiet(LOAD, 1.5, quick=False)
    assert "2.40" in not_quiet(LOAD, 1.5, quick=False)
    assert not_quiet(LOAD, 1.5, quick=True) == ""
    assert not_quiet(LOAD, 0, quick=False) == ""
    assert not_quiet({**LOAD, "others_loadavg_max": 1.5}, 1.5, quick=False) == ""
