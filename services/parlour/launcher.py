"""Run a local stack as real processes: Redis, one rules service per game, a gateway.

The gateway talks to the rules services over mutual TLS: with no PARLOUR_INTERNAL_TLS_*
configured, the stack makes a throwaway CA and certificates in a temporary directory.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client.parser import text_string_to_metric_families

from parlour.rpc.pki import ThrowawayPki, make_throwaway_pki
from parlour.rpc.tls import InternalTls, from_settings
from parlour.settings import InternalTlsSettings, load
from parlour.store.server import EmbeddedRedis, configured_url, free_port, free_port_run

#: Metrics ports kept free after a process's own: a gateway's workers serve theirs on the
#: ports after its own (metrics_port + i), so none may be another process's.
METRICS_RUN = 8


def redacted(url: str) -> str:
    """A URL fit to print: any password replaced by '***'."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    netloc = f"{user}:***@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


@dataclass
class Process:
    """A child process serving gRPC on a port."""

    name: str
    port: int
    popen: subprocess.Popen
    host: str = "127.0.0.1"
    #: What a caller needs on this port (TLS trust, the client certificate of mutual TLS).
    credentials: grpc.ChannelCredentials | None = None
    options: list[tuple[str, str]] = field(default_factory=list)
    #: Where the process serves Prometheus /metrics (0: not at all).
    metrics_port: int = 0

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def channel(self) -> grpc.Channel:
        """A blocking channel to the process, with the credentials it requires."""
        if self.credentials is None:
            return grpc.insecure_channel(self.address)
        return grpc.secure_channel(self.address, self.credentials, options=self.options)

    def metric(self, name: str, labels: dict[str, str] | None = None) -> float:
        """The current value of one sample of the process's metrics (0 if absent)."""
        url = f"http://127.0.0.1:{self.metrics_port}/metrics"
        with urllib.request.urlopen(url, timeout=5) as reply:
            text = reply.read().decode()
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                if sample.name == name and sample.labels == (labels or {}):
                    return sample.value
        return 0.0

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
    #: Serve the gateway's public port over TLS with a throwaway certificate for localhost.
    public_tls: bool = False
    #: Loopback addresses the replicas of a game bind, one each; with more than one, every
    #: replica of a game listens on the same port (as pods behind a headless Service).
    hosts: list[str] = field(default_factory=lambda: ["127.0.0.1"])
    #: Give the gateway this DNS name per game (e.g. "rules-{game}.test") instead of the
    #: replicas' addresses; something must resolve it (PARLOUR_DNS_SERVER).
    rules_name: str = ""
    #: The gateway's listen address ("host:port"; empty: a free port on 127.0.0.1).
    gateway_address: str = ""
    quiet: bool = True
    redis: EmbeddedRedis | None = None
    redis_url: str = ""
    rules: dict[str, list[Process]] = field(default_factory=dict)
    gateway: Process | None = None
    pki: ThrowawayPki | None = None
    certs_dir: str = ""

    def start(self) -> LocalStack:
        """Start everything and wait until every server reports SERVING."""
        self.redis_url = self.redis_url or configured_url() or ""
        if self.child_tls().internal_tls_ca is None and self.pki is None:
            self.certs_dir = tempfile.mkdtemp(prefix="parlour-certs-")
            self.pki = make_throwaway_pki(self.certs_dir)
        if not self.redis_url:
            self.redis = EmbeddedRedis().start()
            self.redis_url = self.redis.url
        try:
            for game in self.games:
                port = free_port(self.hosts[0]) if len(self.hosts) > 1 else 0
                self.rules[game] = [
                    self.start_rules(game, self.hosts[i % len(self.hosts)], port)
                    for i in range(self.replicas)
                ]
            routes = ";".join(f"{game}={self.rules_target(game)}" for game in self.rules)
            for proc in self.processes():
                wait_serving(proc)
            # Started once every rules service serves, so it finds every game up.
            self.gateway = self.start_gateway(routes)
            wait_serving(self.gateway)
        except BaseException:
            self.stop()
            raise
        return self

    def start_rules(self, game: str, host: str = "127.0.0.1", port: int = 0) -> Process:
        """Start one more replica of a game's rules service (on `host`:`port` if given)."""
        argv = [sys.executable, "-m", f"parlour.games.{game}"]
        extra = self.pki.env_for_rules() if self.pki else {}
        proc = self.spawn(f"rules:{game}", argv, extra, host, port)
        tls = self.rules_client_tls()
        if tls is not None:
            proc.credentials, proc.options = tls.channel_credentials(), tls.channel_options()
        return proc

    def start_gateway(self, routes: str) -> Process:
        """Start the gateway in front of `routes` (PARLOUR_RULES syntax)."""
        extra = {"PARLOUR_RULES": routes, **(self.pki.env_for_gateway() if self.pki else {})}
        if self.public_tls:
            assert self.pki is not None, "public_tls needs the throwaway certificates"
            extra.update(PARLOUR_TLS_CERT=self.pki.public.cert, PARLOUR_TLS_KEY=self.pki.public.key)
        argv = [sys.executable, "-m", "parlour.cli", "serve-gateway"]
        host, _, port = (self.gateway_address or "127.0.0.1:0").rpartition(":")
        proc = self.spawn("gateway", argv, extra, host, int(port))
        if self.public_tls:
            with open(self.pki.ca, "rb") as ca:
                proc.credentials = grpc.ssl_channel_credentials(root_certificates=ca.read())
            proc.options = [("grpc.ssl_target_name_override", "localhost")]
        return proc

    def rules_target(self, game: str) -> str:
        """What the gateway is told for a game: the DNS name, or the replicas' addresses."""
        procs = self.rules[game]
        if self.rules_name:
            return f"{self.rules_name.format(game=game)}:{procs[0].port}"
        return ",".join(p.address for p in procs)

    def rules_client_tls(self) -> InternalTls | None:
        """The identity that rules ports accept: the gateway's."""
        if self.pki is not None:
            return self.pki.gateway_identity()
        return from_settings(self.child_tls())

    def child_tls(self) -> InternalTlsSettings:
        """The internal TLS settings the children read (this environment and `env`)."""
        return load(InternalTlsSettings, {**os.environ, **self.env})

    def spawn(
        self,
        name: str,
        argv: list[str],
        extra: dict[str, str],
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> Process:
        port = port or free_port(host)
        metrics_port = free_port_run(METRICS_RUN)
        env = {**os.environ, **self.env, **extra}
        env.update(
            PARLOUR_REDIS_URL=self.redis_url,
            PARLOUR_ADDRESS=f"{host}:{port}",
            PARLOUR_METRICS_PORT=str(metrics_port),
            PARLOUR_METRICS_ADDR="127.0.0.1",
        )
        out = subprocess.DEVNULL if self.quiet else None
        popen = subprocess.Popen(argv, env=env, stdout=out, stderr=out, start_new_session=True)
        return Process(name, port, popen, host=host, metrics_port=metrics_port)

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
        if self.certs_dir:
            shutil.rmtree(self.certs_dir, ignore_errors=True)

    def __enter__(self) -> LocalStack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def wait_serving(proc: Process, timeout: float = 30.0) -> None:
    """Poll the process's gRPC health until SERVING."""
    deadline = time.monotonic() + timeout
    with proc.channel() as channel:
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
