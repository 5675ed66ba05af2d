"""`parlour serve-gateway --workers N`: N gateway processes listening on one port.

Each worker is an ordinary gateway (python -m parlour.gateway.workers I): its own process,
its own id for the fan-out between gateways (EventHub.gateway_id), /metrics on
metrics_port + I, the port and the health port shared with SO_REUSEPORT so the kernel
spreads the connections. The parent holds the port (bound, not listening) for as long as
it runs, restarts a worker that dies, forwards SIGTERM/SIGINT to every worker so each
drains as one gateway does, and exits when they all have.
"""

from __future__ import annotations

import ctypes
import dataclasses
import logging
import os
import signal
import socket
import subprocess
import sys
import time

from parlour.gateway.config import GatewayConfig

log = logging.getLogger("parlour.gateway")

#: A worker that dies sooner than this after its start is restarted only this long after.
RESTART_SECONDS = 1.0
#: Seconds past the drain grace the parent waits for a worker before killing it.
KILL_AFTER_SECONDS = 10.0
_PR_SET_PDEATHSIG = 1


def reserve(address: str) -> socket.socket:
    """A socket bound to `address` with SO_REUSEPORT and not listening: it picks the port
    when `address` says 0, keeps it for the workers' restarts, fails (OSError) when some
    other program holds the port, and never receives a connection."""
    host, _, port = address.rpartition(":")
    host = host.strip("[]")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, int(port)))
    except OSError:
        sock.close()
        raise
    return sock


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """A worker gets SIGTERM when the parent dies, even by SIGKILL (Linux)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


class Workers:
    """The parent: starts, restarts and stops the workers."""

    def __init__(self, config: GatewayConfig) -> None:
        self.config = config
        self.socket = reserve(config.address)
        host = config.address.rpartition(":")[0]
        self.address = f"{host}:{self.socket.getsockname()[1]}"
        self.procs: list[subprocess.Popen | None] = [None] * config.workers
        self.started = [0.0] * config.workers
        self.stopping = False

    def spawn(self, index: int) -> None:
        env = {
            **os.environ,
            "PARLOUR_ADDRESS": self.address,
            "PARLOUR_GATEWAY_WORKERS": str(self.config.workers),
        }
        argv = [sys.executable, "-m", "parlour.gateway.worker", str(index)]
        preexec = _die_with_parent if sys.platform == "linux" else None
        self.procs[index] = subprocess.Popen(argv, env=env, preexec_fn=preexec)
        self.started[index] = time.monotonic()
        log.info("worker started", extra={"worker": index, "pid": self.procs[index].pid})

    def stop(self, *_: object) -> None:
        """Signal handler: every live worker drains."""
        self.stopping = True
        for proc in self.procs:
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)

    def run(self) -> int:
        """Serve until SIGTERM/SIGINT; 0 when every worker drained cleanly."""
        signal.signal(signal.SIGTERM, self.stop)
        signal.signal(signal.SIGINT, self.stop)
        for index in range(self.config.workers):
            self.spawn(index)
        log.info("workers serving", extra={"address": self.address, "workers": self.config.workers})
        while not self.stopping:
            time.sleep(0.1)
            for index, proc in enumerate(self.procs):
                if self.stopping or proc is None or proc.poll() is None:
                    continue
                if time.monotonic() - self.started[index] < RESTART_SECONDS:
                    continue
                log.warning(
                    "worker exited; restarting",
                    extra={"worker": index, "pid": proc.pid, "code": proc.returncode},
                )
                self.spawn(index)
        codes = [self.wait(proc) for proc in self.procs if proc is not None]
        self.socket.close()
        log.info("workers stopped", extra={"codes": codes})
        return 0 if all(code == 0 for code in codes) else 1

    def wait(self, proc: subprocess.Popen) -> int:
        try:
            return proc.wait(self.config.drain_seconds + KILL_AFTER_SECONDS)
        except subprocess.TimeoutExpired:
            proc.kill()
            return proc.wait()


def supervise(config: GatewayConfig) -> None:
    """Run `config.workers` gateways on the configured port until SIGTERM."""
    try:
        workers = Workers(config)
    except OSError as error:  # one line and status 2, as the CLI ends its mistakes
        print(
            f"parlour serve-gateway: cannot listen on {config.address}: {error.strerror}",
            file=sys.stderr,
        )
        raise SystemExit(2) from None
    sys.exit(workers.run())


def worker_config(config: GatewayConfig, index: int) -> GatewayConfig:
    """Worker `index`'s configuration: the shared port, its own /metrics port."""
    metrics_port = config.metrics_port + index if config.metrics_port else config.metrics_port
    return dataclasses.replace(config, workers=1, reuse_port=True, metrics_port=metrics_port)

