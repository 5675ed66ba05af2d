"""Gateway configuration: GatewaySettings (PARLOUR_* variables, checked) -> GatewayConfig."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import grpc
from pydantic import Field, FilePath, field_validator, model_validator

from parlour.gateway.discovery import split_target
from parlour.rpc.tls import InternalTls
from parlour.settings import ServerSettings, address_ok, load


def parse_rules(text: str) -> dict[str, list[str]]:
    """'game=host:port,host:port;game2=host:port' -> {game: [addresses]}."""
    routes: dict[str, list[str]] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        game, _, addresses = part.partition("=")
        if not addresses:
            raise ValueError(f"PARLOUR_RULES entry {part!r} is not game=host:port[,host:port]")
        routes[game.strip()] = [a.strip() for a in addresses.split(",") if a.strip()]
    return routes


@dataclass
class GatewayConfig:
    """Everything the gateway reads from its environment."""

    redis_url: str
    rules: dict[str, list[str]]
    address: str = "127.0.0.1:0"
    heartbeat_seconds: float = 5.0
    subscriber_queue: int = 1024
    play_queue: int = 1024
    creates_per_minute: int = 120
    streams_per_connection: int = 100
    replica_cooldown_seconds: float = 2.0
    #: DNS server ("ip:port") for rules names; empty: the system resolver.
    dns_server: str = ""
    #: Seconds between re-resolving the rules names.
    discovery_seconds: float = 5.0
    #: Seconds between health probes of each rules replica.
    probe_seconds: float = 1.0
    #: Mutual TLS towards the rules services (None: plaintext).
    internal_tls: InternalTls | None = None
    #: TLS on the public port (None: plaintext).
    public_tls: grpc.ServerCredentials | None = None

    #: Metrics port (None: no /metrics) and the address it binds.
    metrics_port: int | None = None
    metrics_addr: str = "127.0.0.1"
    #: Plaintext health-only port for probes (None: none) and the address it binds.
    health_port: int | None = None
    health_addr: str = "127.0.0.1"
    log_level: str = "INFO"
    drain_seconds: float = 5.0
    #: Gateway processes on the one port (parlour.gateway.workers); 1: this process alone.
    workers: int = 1
    #: Share the port (and the health port) with the other workers: SO_REUSEPORT.
    reuse_port: bool = False

    @classmethod
    def from_env(cls, **overrides: object) -> GatewayConfig:
        """From GatewaySettings (PARLOUR_* variables, under `overrides` given by field
        name, e.g. the command line's); BadSetting names any bad one."""
        settings = load(lambda: GatewaySettings(**overrides))
        public = None
        if settings.tls_cert is not None:
            pair = (settings.tls_key.read_bytes(), settings.tls_cert.read_bytes())
            public = grpc.ssl_server_credentials([pair])
        return cls(
            redis_url=settings.redis_url,
            rules=parse_rules(settings.rules),
            address=settings.address,
            heartbeat_seconds=settings.heartbeat_seconds,
            subscriber_queue=settings.subscriber_queue,
            play_queue=settings.play_queue,
            creates_per_minute=settings.creates_per_minute,
            streams_per_connection=settings.streams_per_connection,
            dns_server=settings.dns_server,
            discovery_seconds=settings.discovery_seconds,
            probe_seconds=settings.probe_seconds,
            internal_tls=settings.internal_tls(),
            public_tls=public,
            metrics_port=settings.metrics_port,
            metrics_addr=settings.metrics_addr,
            health_port=settings.health_port,
            health_addr=settings.health_addr,
            log_level=settings.log_level,
            drain_seconds=settings.drain_seconds,
            workers=settings.gateway_workers,
        )


class GatewaySettings(ServerSettings):
    """The gateway's settings (on top of every server's)."""

    rules: str = ""
    heartbeat_seconds: Annotated[float, Field(gt=0)] = 5.0
    subscriber_queue: Annotated[int, Field(ge=1)] = 1024
    play_queue: Annotated[int, Field(ge=1)] = 1024
    creates_per_minute: Annotated[int, Field(ge=0)] = 120
    streams_per_connection: Annotated[int, Field(ge=0)] = 100
    tls_cert: FilePath | None = None
    tls_key: FilePath | None = None
    dns_server: str = ""
    discovery_seconds: Annotated[float, Field(gt=0)] = 5.0
    probe_seconds: Annotated[float, Field(gt=0)] = 1.0
    #: Gateway processes sharing the port; worker i serves /metrics on metrics_port + i.
    gateway_workers: Annotated[int, Field(ge=1, le=256)] = 1

    @field_validator("rules")
    @classmethod
    def _rules(cls, value: str) -> str:
        for game, targets in parse_rules(value).items():
            for target in targets:
                split_target(target)
            if not targets:
                raise ValueError(f"game {game!r} has no host:port")
        return value

    @field_validator("dns_server")
    @classmethod
    def _dns(cls, value: str) -> str:
        return address_ok(value) if value else value

    @model_validator(mode="after")
    def _public_tls_complete(self) -> GatewaySettings:
        if (self.tls_cert is None) != (self.tls_key is None):
            raise ValueError("public TLS needs both PARLOUR_TLS_CERT and PARLOUR_TLS_KEY")
        return self

    @model_validator(mode="after")
    def _worker_metrics_apart(self) -> GatewaySettings:
        if self.gateway_workers > 1 and self.metrics_port:
            ports = range(self.metrics_port, self.metrics_port + self.gateway_workers)
            taken = {int(self.address.rpartition(":")[2]), self.health_port} & set(ports)
            if taken:
                raise ValueError(
                    f"PARLOUR_GATEWAY_WORKERS={self.gateway_workers} serve /metrics on ports "
                    f"{ports.start}-{ports.stop - 1}, which include {sorted(taken)[0]}"
                )
        return self
