"""Issue 26: every fenced shell and Python example of README.md, docs/*.md and the TypeScript
client's README runs verbatim against a real stack — `.venv/bin/parlour up` itself, on its
documented address 127.0.0.1:50051 — or is listed below with the reason it is not run here.

Commands run in document order from a scratch folder holding `.venv` and `clients` (links
into the repository), so the files they write (`log.json`, `DIR`) stay out of the tree.
Two placeholders are filled in: `matches/ID` / `matches/<id>` with a real I Say, Holmes! match
(finished for `replay`, with free seats for `bots`) and `PORT` with 50051. `parlour play`
runs in a pseudo-terminal and is quit with Ctrl+Q once its table shows.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import shlex
import signal
import socket
import struct
import subprocess
import termios
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "clients/ts/README.md"]
GATEWAY = "127.0.0.1:50051"
WEB_PORT = 8080

pytestmark = pytest.mark.xdist_group("fixed-ports")

#: Commands not run here, and why (each must still appear in the docs).
SKIPS = {
    "make demo": "takes about a minute: test_make_demo_runs_verbatim (-m slow) runs it",
    "make test": "this test is part of it",
    "make lint": "the whole tree's lint: CI's job, not an example's",
    "make breaking": ".ci/run runs it after make test",
    "make bench": "minutes of benchmark (bench/README.md)",
    "make bench-engines": "minutes of benchmark",
    "PARLOUR_PLAYOUTS=5000 make test": "make test with more playouts: this test is part of it",
    "make ts": "make test builds the TypeScript client first (its `ts` target)",
    ".venv/bin/parlour serve-rules GAME": "a server running until SIGTERM, configured by "
    "PARLOUR_REDIS_URL: tests/test_operability.py starts each role",
    ".venv/bin/parlour serve-gateway": "a server running until SIGTERM, configured by "
    "PARLOUR_RULES: tests/test_operability.py starts it",
    "python -m parlour.games.GAME": "the same server as serve-rules GAME",
    "pip install .": "installs into the running venv: tests/test_firstcontact_wheel.py "
    "installs a clone in a clean venv",
    "pip install '.[client]'": "installs into the running venv: "
    "tests/test_hosting_image.py installs the client extra in a clean venv",
    "pip install '.[server]'": "installs into the running venv: the image check installs "
    "the server extra (tests/test_hosting_image.py)",
}
#: A Python example holding this placeholder is a template, not run: docs/adding-a-game.md's
#: `__main__.py` of a game, which every game folder has and the stack below serves.
TEMPLATE = "<game>"
#: `parlour play` opens a terminal UI: it runs in a pseudo-terminal until its table shows
#: (the footer's `^q Quit`), then Ctrl+Q must end it cleanly (tests/test_table_terminal.py
#: plays whole matches in the same app, driven by textual's pilot).
INTERACTIVE = re.compile(r"^\.venv/bin/parlour play ")
QUIT_KEY = b"^q Quit"
#: Run by the stack fixture itself.
STACK_COMMANDS = {".venv/bin/parlour up", ".venv/bin/parlour up tinycards --replicas 2"}


def examples(path: Path) -> list[tuple[str, str]]:
    """(language, code) of every sh or python block, in order."""
    return re.findall(r"```(sh|python)\n(.*?)```", path.read_text(), re.S)


def commands(code: str) -> list[str]:
    """The commands of a shell block: continuations joined, comments and blanks left out,
    runs of spaces made one."""
    joined = re.sub(r"\\\n\s*", " ", code)
    found = []
    for line in joined.splitlines():
        command = re.split(r"(?:^|\s)#(?:\s|$)", line, maxsplit=1)[0]
        if command.strip():
            found.append(" ".join(command.split()))
    return found


def every_command() -> list[str]:
    return [c for path in DOCS for lang, code in examples(path) if lang == "sh"
            for c in commands(code)]


@contextlib.contextmanager
def fixed_ports():
    """Hold the machine-wide lock on 50051/8080 (another run of this test waits), and fail
    with a message if something else holds the ports."""
    with open("/tmp/parlour-fixed-ports.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for port in (50051, WEB_PORT):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    pytest.fail(f"127.0.0.1:{port} is taken; the documented examples need it")
        yield


def start_up(argv: list[str]) -> tuple[subprocess.Popen, list[str]]:
    """`parlour up …` as documented, until it prints `Ctrl-C to stop.`"""
    up = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True, env={**os.environ, "PARLOUR_REDIS_URL": ""})
    lines: list[str] = []
    while not lines or not lines[-1].startswith("Ctrl-C"):
        line = up.stdout.readline()
        if not line:
            raise AssertionError(f"{shlex.join(argv)} ended early: {lines}")
        lines.append(line.strip())
    return up, lines


def stop(up: subprocess.Popen) -> None:
    up.send_signal(signal.SIGTERM)
    up.wait(60)
    up.stdout.close()


@pytest.fixture(scope="module")
def stack():
    """The README's `parlour up` commands, verbatim: the replicated one checked and stopped,
    then the plain one kept up for every example."""
    assert STACK_COMMANDS <= set(every_command())
    with fixed_ports():
        up, lines = start_up(shlex.split(".venv/bin/parlour up tinycards --replicas 2"))
        try:
            assert lines[0].startswith(f"parlour is up: gateway on {GATEWAY},")
            replicas = next(line for line in lines if line.startswith("tinycards:"))
            assert replicas.count("127.0.0.1:") == 2
        finally:
            stop(up)
        up, lines = start_up(shlex.split(".venv/bin/parlour up"))
        try:
            assert lines[0].startswith(f"parlour is up: gateway on {GATEWAY},")
            assert f"Play in a browser: http://127.0.0.1:{WEB_PORT}/" in lines
            yield GATEWAY
        finally:
            stop(up)


def finished_match(address: str) -> str:
    """An I Say, Holmes! match played to its end with random legal moves."""
    import random

    from parlour.client import SyncClient

    with SyncClient(address) as client:
        match = client.create_match("isayholmes", 3, spectators=True)
        seats = [client.join(match.name, name) for name in ("a", "b", "c")]
        progress = seats[0].progress()
        while not progress.HasField("outcome"):
            seat = seats[progress.pending[0].seat]
            progress = seat.submit(random.choice(seat.legal_actions())[0]).result.progress
        return match.name


def open_match(address: str) -> str:
    """An I Say, Holmes! match of one round (bots playing IS-MCTS finish it in seconds)."""
    from parlour.client import SyncClient
    from parlour.games.isayholmes.v1 import isayholmes_pb2

    with SyncClient(address) as client:
        options = isayholmes_pb2.Options(rounds=1)
        return client.create_match("isayholmes", 3, spectators=True, options=options).name


def fill_in(command: str, address: str) -> str:
    """The placeholders of a documented command, filled with real values."""
    if "matches/ID" in command:
        command = command.replace("matches/ID", finished_match(address))
    if "matches/<id>" in command:
        command = command.replace("matches/<id>", open_match(address))
    return command.replace("127.0.0.1:PORT", address)


def run_in_terminal(command: str, scratch: Path) -> None:
    """Run an interactive command in a 40x120 pseudo-terminal until the table shows, then
    quit it with Ctrl+Q: it must exit 0 (stopping what it started)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "PARLOUR_REDIS_URL": ""}
    play = subprocess.Popen(["bash", "-c", f"exec {command}"], cwd=scratch, env=env,
                            stdin=slave, stdout=slave, stderr=slave)
    os.close(slave)
    screen, deadline = b"", time.monotonic() + 120
    try:
        while QUIT_KEY not in re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", screen):
            assert time.monotonic() < deadline and play.poll() is None, screen[-2000:]
            if select.select([master], [], [], 0.5)[0]:
                screen += os.read(master, 65536)
        os.write(master, b"\x11")  # Ctrl+Q
        # the terminal is read until the end: the app's last screen written to a terminal
        # nobody reads would block it (a full pseudo-terminal buffer), and it would not exit
        deadline = time.monotonic() + 60
        while play.poll() is None and time.monotonic() < deadline:
            if select.select([master], [], [], 0.2)[0]:
                with contextlib.suppress(OSError):
                    os.read(master, 65536)
        assert play.wait(1) == 0
    finally:
        if play.poll() is None:
            play.send_signal(signal.SIGINT)  # as Ctrl-C: the local stack is stopped
            play.wait(60)
        os.close(master)


def run_shell(command: str, scratch: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PARLOUR_REDIS_URL": ""}
    env["PATH"] = os.pathsep.join([str(ROOT / ".venv" / "bin"),
                                   str(ROOT / "clients" / "ts" / "node_modules" / ".bin"),
                                   env["PATH"]])
    return subprocess.run(["bash", "-c", command], cwd=scratch, env=env, capture_output=True,
                          text=True, timeout=240, stdin=subprocess.DEVNULL)


@pytest.fixture
def scratch(tmp_path) -> Path:
    for name in (".venv", "clients"):
        (tmp_path / name).symlink_to(ROOT / name)
    return tmp_path


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_example_runs(doc, stack, scratch):
    """Each example of the document, in order: run (exit 0; `parlour play` in a terminal),
    run by the stack fixture (`parlour up`), or skipped for the reason SKIPS gives."""
    for lang, code in examples(doc):
        if lang == "python":
            if TEMPLATE in code:
                continue
            (scratch / "example.py").write_text(code)
            done = run_shell(".venv/bin/python example.py", scratch)
            assert done.returncode == 0, f"{doc.name}:\n{code}\n{done.stderr}"
            continue
        for command in commands(code):
            if command in SKIPS or command in STACK_COMMANDS:
                continue
            if INTERACTIVE.match(command):
                run_in_terminal(fill_in(command, stack), scratch)
                continue
            done = run_shell(fill_in(command, stack), scratch)
            assert done.returncode == 0, f"{doc.name}: {command}\n{done.stdout}\n{done.stderr}"


def test_every_skip_names_a_documented_command():
    """No stale entry: each skipped command is still in the docs, with a reason."""
    documented = set(every_command())
    assert set(SKIPS) <= documented
    assert all(reason.strip() for reason in SKIPS.values())


def test_outputs_of_examples_say_what_the_docs_promise(stack, scratch):
    """The embedding example prints an Outcome, describe prints the commented messages, and
    the log replay saves verifies."""
    readme = (ROOT / "README.md").read_text()
    embedding = re.search(r"## Embedding the rules.*?```python\n(.*?)```", readme, re.S)
    (scratch / "embed.py").write_text(embedding.group(1))
    assert "Outcome(" in run_shell(".venv/bin/python embed.py", scratch).stdout
    described = run_shell(".venv/bin/parlour describe tinycards", scratch).stdout
    assert "// Cards dealt to each seat at setup (default 2)." in described
    replay = next(c for c in every_command() if "parlour replay" in c)
    assert run_shell(fill_in(replay, stack), scratch).returncode == 0
    verified = run_shell(".venv/bin/parlour verify log.json", scratch)
    assert verified.returncode == 0 and verified.stdout.strip(), verified.stderr


@pytest.mark.slow
def test_make_demo_runs_verbatim():
    """`make demo`, the README's first command: a bot match of every game, exit status 0."""
    done = subprocess.run(["make", "demo"], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, env={**os.environ, "PARLOUR_REDIS_URL": ""})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "All processes stopped." in done.stdout
