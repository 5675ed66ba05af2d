"""Sample processes while a load runs: py-spy for Python stacks (`--native` adds C frames),
perf for whole processes (every thread, kernel included; the only view of Redis). Each
profile becomes a flame graph (SVG, bench/flame.py) and a text summary."""

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
Folded = list[tuple[list[str], int]]


def pyspy_binary() -> str | None:
    here = Path(sys.executable).with_name("py-spy")
    return str(here) if here.exists() else shutil.which("py-spy")


def start(
    pid: int, raw_path: Path, seconds: float, rate: int = 100, native: bool = False
) -> subprocess.Popen:
    """py-spy record (raw collapsed stacks, non-blocking sampling; native C frames if asked)."""
    binary = pyspy_binary()
    if binary is None:
        raise RuntimeError("py-spy is not installed (.venv/bin/pip install py-spy)")
    argv = [binary, "record", "--pid", str(pid), "--format", "raw", "--output", str(raw_path)]
    argv += ["--duration", str(max(1, round(seconds))), "--rate", str(rate)]
    argv += ["--native"] if native else ["--nonblocking"]
    return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def start_perf(pid: int, data_path: Path, seconds: float, rate: int = 499) -> subprocess.Popen:
    """perf record of every thread of `pid` with call graphs, for `seconds`."""
    if shutil.which("perf") is None:
        raise RuntimeError("perf is not installed (apt-get install linux-perf)")
    argv = ["perf", "record", "-F", str(rate), "-g", "-p", str(pid), "-o", str(data_path)]
    argv += ["--", "sleep", str(max(1, round(seconds)))]
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


def read_pyspy(raw_path: Path) -> Folded:
    """py-spy's collapsed stacks, frames shortened, idle samples left out."""
    out: Folded = []
    for line in raw_path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        frames = [_short(f) for f in stack.split(";") if f]
        frames = [f for f in frames if not f.startswith(("process ", "thread "))]
        if frames and not frames[-1].startswith(IDLE):
            out.append((frames, int(count_text)))
    return out


def read_perf(data_path: Path) -> Folded:
    """perf's samples (on-CPU only: cpu-clock counts no waiting) as folded stacks."""
    from bench.flame import fold_perf_script

    script = subprocess.run(
        ["perf", "script", "-i", str(data_path)], capture_output=True, text=True, check=True
    )
    return fold_perf_script(script.stdout)


def summarize(folded: Folded, title: str, top: int = 30) -> str:
    """Self and inclusive sample shares per function."""
    self_counts: Counter[str] = Counter()
    total_counts: Counter[str] = Counter()
    samples = 0
    for frames, count in folded:
        samples += count
        self_counts[frames[-1]] += count
        for frame in set(frames):
            total_counts[frame] += count
    lines = [f"== {title}: {samples} on-CPU samples =="]
    if not samples:
        return "\n".join(lines + ["(no samples)"])
    lines.append(f"-- top {top} by self time --")
    for frame, count in self_counts.most_common(top):
        lines.append(f"{100 * count / samples:6.1f}%  {frame}")
    lines.append(f"-- top {top} by inclusive time --")
    for frame, count in total_counts.most_common(top):
        lines.append(f"{100 * count / samples:6.1f}%  {frame}")
    return "\n".join(lines)


def libraries(folded: Folded) -> dict[str, float]:
    """Share of samples per library of the leaf frame (perf frames: 'func (library)')."""
    counts: Counter[str] = Counter()
    for frames, count in folded:
        counts[frames[-1].rpartition(" (")[2].rstrip(")")] += count
    total = sum(counts.values()) or 1
    return {lib: round(100 * n / total, 1) for lib, n in counts.most_common(12)}


# -- live matches at a real pace under py-spy (issue 31 item 2) -------------------------------
async def live(
    matches: int, seconds: float, pace: tuple[float, float], label: str, count: bool = False
) -> str:
    """`matches` tinycards matches, a Play session per seat, each acting every `pace`
    seconds (bench/sizing.py's live-match scenario); once every session is open, the
    gateway and the rules service are sampled by py-spy --native for `seconds` (with
    `count`, instead: perf stat counts their syscalls and context switches). Returns the
    text summary (CPU µs per action of each process, then the profiles or counts)."""
    import asyncio
    import os
    import random
    import tempfile
    import time

    from bench import loadgen, sizing
    from bench.stats import CpuMeter
    from parlour.client import GatewayClient
    from parlour.launcher import LocalStack

    with LocalStack([loadgen.GAME], env=sizing.UNLIMITED) as stack:
        async with GatewayClient(stack.address) as client:
            pool = await loadgen.prepare(client, matches)
            rec = loadgen.Recorder(0.0, float("inf"))
            stop = asyncio.Event()
            rng = random.Random(22)
            loop = asyncio.get_running_loop()
            opened = [loop.create_future() for _ in pool]
            tasks = [
                asyncio.create_task(
                    loadgen.play_session(
                        client, m, rec, lambda: rng.uniform(*pace), opened=ready, stop=stop
                    )
                )
                for m, ready in zip(pool, opened, strict=True)
            ]
            await asyncio.gather(*opened)
            pids = sizing.server_pids(stack) | {"bench": os.getpid()}
            work = Path(tempfile.mkdtemp(prefix="parlour-live-"))
            targets = {"gateway": pids["gateway"], "rules": pids[f"rules:{loadgen.GAME}"]}
            spies = {
                name: counter(pid, seconds)
                if count
                else start(pid, work / f"{name}.raw", seconds, native=True)
                for name, pid in targets.items()
            }
            meter = CpuMeter(pids).begin()
            rec.window_start = began = time.perf_counter()
            await asyncio.sleep(seconds)
            rec.window_end = time.perf_counter()
            acks = len(rec.within(rec.ack, rec.window_end))
            cpu = meter.end(rec.window_end - began, acks)
            stop.set()
            await asyncio.gather(*tasks)
    head = (
        f"live matches under {'perf stat' if count else 'py-spy --native'}: {matches} "
        f"matches ({2 * matches} Play "
        f"sessions) acting every {pace[0]}-{pace[1]} s, {seconds} s window, "
        f"{acks / seconds:.1f} actions/s, {len(rec.errors)} errors, load average "
        f"{os.getloadavg()[0]:.1f}; CPU us/action: "
        + ", ".join(f"{k} {v['cpu_us_per_op']:.0f}" for k, v in cpu.items())
        + f"; server total {sizing.server_us(cpu):.0f}"
    )
    texts = [head]
    for name, spy in spies.items():
        _, err = spy.communicate()
        raw = work / f"{name}.raw"
        if count:
            texts.append(f"{name}, per action: " + per_action(err.decode(), acks))
        elif raw.exists():
            texts.append(summarize(read_pyspy(raw), f"py-{name}, live matches ({label})"))
    return "\n\n".join(texts) + "\n"


def counter(pid: int, seconds: float) -> subprocess.Popen:
    """perf stat of `pid`'s syscalls (getpid and getrandom also alone: CPython 3.11 asks
    getpid() for every running-loop look-up), context switches and CPU time for `seconds`."""
    events = (
        "raw_syscalls:sys_enter,syscalls:sys_enter_getpid,syscalls:sys_enter_getrandom,"
        "context-switches,task-clock"
    )
    argv = ["perf", "stat", "-x", ",", "-e", events, "-p", str(pid), "--", "sleep"]
    return subprocess.Popen(
        [*argv, str(max(1, round(seconds)))], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def per_action(perf_csv: str, actions: int) -> str:
    """perf stat's CSV counts divided by `actions`."""
    out = []
    for line in perf_csv.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[0].replace(".", "", 1).isdigit() and actions:
            out.append(f"{fields[2]} {float(fields[0]) / actions:.1f}")
    return ", ".join(out) or "(no counts)"


def main() -> None:
    """python -m bench.profile live|count [--matches N] [--seconds S] [--label L]"""
    import argparse

    import uvloop

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("mode", choices=["live", "count"])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--label", default="live")
    args = parser.parse_args()
    count = args.mode == "count"
    text = uvloop.run(live(args.matches, args.seconds, (1.0, 5.0), args.label, count))
    out = Path(__file__).parent / "results" / f"profile-{args.label}.txt"
    out.write_text(text)
    print(text)
    print(f"written: {out}")


if __name__ == "__main__":
    main()
