"""Run a local stack as real processes: Redis, one rules service per game, a gateway."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from parlour.store.server import EmbeddedRedis, configured_url, free_port


@dataclass
class Process:
    """A child process serving gRPC on a port."""

    name: str
    port: int
    popen: subprocess.Popen

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 10.0) -> None:
        """Signal the process and wait for it (killing it after `timeout`)."""
        if self.popen.poll() is None:
            self.popen.send_signal(sig)
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()


@dataclass
class LocalStack:
    """Redis (configured or embedded), rules services and a gateway, each its own process."""

    games: list[str]
    replicas: int = 1
    env: dict[str, str] = field(default_factory=dict)
    quiet: bool = True
    redis: EmbeddedRedis | None = None
    redis_url: str = ""
    rules: dict[str, list[Process]] = field(default_factory=dict)
    gateway: Process | None = None

    def start(self) -> LocalStack:
        """Start everything and wait until every server reports SERVING."""
        self.redis_url = self.redis_url or configured_url() or ""
        if not self.redis_url:
            self.redis = EmbeddedRedis().start()
            self.redis_url = self.redis.url
        try:
            for game in self.games:
                self.rules[game] = [self.start_rules(game) for _ in range(self.replicas)]
            routes = ";".join(
                f"{game}={','.join(p.address for p in procs)}" for game, procs in self.rules.items()
            )
            self.gateway = self.spawn(
                "gateway",
                [sys.executable, "-m", "parlour.cli", "serve-gateway"],
                {"PARLOUR_RULES": routes},
            )
            for proc in self.processes():
                wait_serving(proc)
        except BaseException:
            self.stop()
            raise
        return self

    def start_rules(self, game: str) -> Process:
        """Start one more replica of a game's rules service."""
        return self.spawn(f"rules:{game}", [sys.executable, "-m", f"parlour.games.{game}"], {})

    def spawn(self, name: str, argv: list[str], extra: dict[str, str]) -> Process:
        port = free_port()
        env = {**os.environ, **self.env, **extra}
        env.update(PARLOUR_REDIS_URL=self.redis_url, PARLOUR_ADDRESS=f"127.0.0.1:{port}")
        out = subprocess.DEVNULL if self.quiet else None
        popen = subprocess.Popen(argv, env=env, stdout=out, stderr=out, start_new_session=True)
        return Process(name, port, popen)

    def processes(self) -> list[Process]:
        procs = [p for group in self.rules.values() for p in group]
        return procs + ([self.gateway] if self.gateway else [])

    @property
    def address(self) -> str:
        """The gateway's address."""
        assert self.gateway is not None
        return self.gateway.address

    def stop(self) -> None:
        """Drain and stop every process, gateway first, then Redis if embedded."""
        for proc in reversed(self.processes()):
            proc.stop()
        if self.redis:
            self.redis.stop()

    def __enter__(self) -> LocalStack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def wait_serving(proc: Process, timeout: float = 30.0) -> None:
    """Poll the process's gRPC health until SERVING."""
    deadline = time.monotonic() + timeout
    with grpc.insecure_channel(proc.address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            if proc.popen.poll() is not None:
                raise RuntimeError(f"{proc.name} exited with code {proc.popen.returncode}")
            try:
                reply = stub.Check(health_pb2.HealthCheckRequest(), timeout=1)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                pass
            time.sleep(0.05)
    raise RuntimeError(f"{proc.name} did not become SERVING on {proc.address}")
