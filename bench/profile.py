"""Sample processes with py-spy while a load runs, and summarise where their CPU goes."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

# Leaf frames that mean "waiting", which --native sampling cannot tell from running.
IDLE = (
    "epoll_wait",
    "epoll_pwait",
    "poll ",
    "ppoll",
    "select",
    "pthread_cond_wait",
    "pthread_cond_timedwait",
    "__futex_abstimed_wait",
    "futex_wait",
    "nanosleep",
)
FRAME = re.compile(r"^(?P<func>.*?) \((?P<file>.*?)(?::(?P<line>\d+))?\)$")


def pyspy_binary() -> str | None:
    here = Path(sys.executable).with_name("py-spy")
    return str(here) if here.exists() else shutil.which("py-spy")


def start(
    pid: int, raw_path: Path, seconds: float, rate: int = 200, native: bool = False
) -> subprocess.Popen:
    """py-spy record (raw collapsed stacks, non-blocking sampling; native C frames if asked)."""
    binary = pyspy_binary()
    if binary is None:
        raise RuntimeError("py-spy is not installed (.venv/bin/pip install py-spy)")
    argv = [
        binary,
        "record",
        "--pid",
        str(pid),
        "--format",
        "raw",
        "--output",
        str(raw_path),
        "--duration",
        str(max(1, round(seconds))),
        "--rate",
        str(rate),
    ]
    argv += ["--native"] if native else ["--nonblocking"]
    return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _short(frame: str) -> str:
    """'func (path/to/file.py:12)' -> 'func (pkg/file.py)': no line number, package path."""
    found = FRAME.match(frame.strip())
    if not found:
        return frame.strip()
    path = found["file"]
    for marker in ("site-packages/", "/parlour/", "/bench/", "lib/python3"):
        if marker in path:
            path = path[path.index(marker) + len(marker) :]
            if marker == "/parlour/":
                path = "parlour/" + path
            elif marker == "/bench/":
                path = "bench/" + path
            break
    return f"{found['func']} ({path})"


def summarize(raw_path: Path, title: str, top: int = 30) -> str:
    """Self and inclusive sample shares per function, from py-spy's collapsed stacks."""
    self_counts: Counter[str] = Counter()
    total_counts: Counter[str] = Counter()
    samples = 0
    for line in raw_path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [_short(f) for f in stack.split(";") if f]
        frames = [f for f in frames if not f.startswith("process ") and not f.startswith("thread ")]
        if not frames or frames[-1].startswith(IDLE):
            continue
        samples += count
        self_counts[frames[-1]] += count
        for frame in set(frames):
            total_counts[frame] += count
    lines = [f"== {title}: {samples} samples of on-CPU Python stacks (py-spy, idle excluded) =="]
    if not samples:
        return "\n".join(lines + ["(no samples)"])
    lines.append(f"-- top {top} by self time --")
    for frame, count in self_counts.most_common(top):
        lines.append(f"{100 * count / samples:6.1f}%  {frame}")
    lines.append(f"-- top {top} by inclusive time --")
    for frame, count in total_counts.most_common(top):
        lines.append(f"{100 * count / samples:6.1f}%  {frame}")
    return "\n".join(lines)
