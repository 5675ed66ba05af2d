"""Gateway configuration: GatewaySettings (PARLOUR_* variables, checked) -> GatewayConfig."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Annotated, Literal

import grpc
from pydantic import Field, FilePath, field_validator, model_validator

from parlour.gateway.discovery import split_target
from parlour.rpc.tls import InternalTls, from_settings
from parlour.settings import ServerSettings, address_ok, load
from parlour.store.ticketstore import PassRules, Window


def parse_rules(text: str) -> dict[str, list[str]]:
    """'game=host:port,host:port;game2=host:port' -> {game: [addresses]}."""
    routes: dict[str, list[str]] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        game, _, addresses = part.partition("=")
        if not addresses:
            raise ValueError(f"PARLOUR_RULES entry {part!r} is not game=host:port[,host:port]")
        routes[game.strip()] = [a.strip() for a in addresses.split(",") if a.strip()]
    return routes


def parse_proxies(text: str) -> tuple:
    """'10.0.0.0/8, 127.0.0.1' -> networks (a bare address is a one-address network)."""
    return tuple(
        ipaddress.ip_network(part.strip(), strict=False) for part in text.split(",") if part.strip()
    )


@dataclass(frozen=True, slots=True)
class Matchmaking:
    """The host's matchmaking settings (PARLOUR_MATCH_*, read by GatewaySettings below)."""

    window_start: float = 3.0
    window_growth: float = 1.0
    window_limit: float = 25.0
    bots_after_seconds: float = 0.0
    bot_strategy: str = "greedy"
    longest_wait_seconds: float = 600.0
    grace_seconds: float = 15.0
    pass_seconds: float = 0.25
    poll_seconds: float = 1.0
    keep_seconds: float = 600.0

    @property
    def pool_lifetime_ms(self) -> int:
        """How long a pool's keys outlive its newest ticket: its longest wait, the grace
        and the keep (so a finished ticket can still be re-opened meanwhile)."""
        return int((self.longest_wait_seconds + self.grace_seconds + self.keep_seconds) * 1000)

    @property
    def window(self) -> Window:
        return Window(self.window_start, self.window_growth, self.window_limit)

    def pass_rules(self) -> PassRules:
        return PassRules(
            window=self.window,
            bots_after_ms=int(self.bots_after_seconds * 1000),
            longest_ms=int(self.longest_wait_seconds * 1000),
            grace_ms=int(self.grace_seconds * 1000),
            keep_ms=int(self.keep_seconds * 1000),
        )


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
    #: Verified identity (identity.py): the provider's key set (a URL, or a file), the
    #: issuer and audience tokens must name; neither key set (the default): identity is off.
    auth_jwks_url: str = ""
    auth_jwks_file: str = ""
    auth_issuer: str = ""
    auth_audience: str = ""
    #: Seconds of clock skew allowed on exp/nbf/iat, and between key-set refreshes.
    auth_leeway_seconds: float = 30.0
    auth_keys_refresh_seconds: float = 300.0
    #: Proxies whose x-forwarded-for is believed (PARLOUR_TRUSTED_PROXIES, CIDRs).
    trusted_proxies: tuple = field(default_factory=tuple)
    #: Subjects whose JoinMatch with `bot` counts toward the strategy's record
    #: (PARLOUR_RATINGS_BOT_SUBJECTS, comma-separated; identity on only).
    ratings_bot_subjects: frozenset = field(default_factory=frozenset)
    #: Matchmaking (issue 45): the rating window, bots, waits (PARLOUR_MATCH_*).
    matchmaking: Matchmaking = field(default_factory=Matchmaking)

    @property
    def identity_on(self) -> bool:
        """Whether calls must carry a verified identity."""
        return bool(self.auth_jwks_url or self.auth_jwks_file)

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
            internal_tls=from_settings(settings),
            public_tls=public,
            metrics_port=settings.metrics_port,
            metrics_addr=settings.metrics_addr,
            health_port=settings.health_port,
            health_addr=settings.health_addr,
            log_level=settings.log_level,
            drain_seconds=settings.drain_seconds,
            workers=settings.gateway_workers,
            auth_jwks_url=settings.auth_jwks_url,
            auth_jwks_file=str(settings.auth_jwks_file or ""),
            auth_issuer=settings.auth_issuer,
            auth_audience=settings.auth_audience,
            auth_leeway_seconds=settings.auth_leeway_seconds,
            auth_keys_refresh_seconds=settings.auth_keys_refresh_seconds,
            trusted_proxies=parse_proxies(settings.trusted_proxies),
            ratings_bot_subjects=frozenset(
                s.strip() for s in settings.ratings_bot_subjects.split(",") if s.strip()
            ),
            matchmaking=Matchmaking(
                window_start=settings.match_window_start,
                window_growth=settings.match_window_growth,
                window_limit=settings.match_window_limit,
                bots_after_seconds=settings.match_bots_after_seconds,
                bot_strategy=settings.match_bot_strategy,
                longest_wait_seconds=settings.match_longest_wait_seconds,
                grace_seconds=settings.match_grace_seconds,
                pass_seconds=settings.match_pass_seconds,
                poll_seconds=settings.match_poll_seconds,
            ),
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
    auth_jwks_url: str = ""
    auth_jwks_file: FilePath | None = None
    auth_issuer: str = ""
    auth_audience: str = ""
    auth_leeway_seconds: Annotated[float, Field(ge=0, le=300)] = 30.0
    auth_keys_refresh_seconds: Annotated[float, Field(gt=0)] = 300.0
    trusted_proxies: str = ""
    ratings_bot_subjects: str = Field("", max_length=8192)
    # matchmaking (issue 45): the rating window (in mu points) starts at match_window_start,
    # grows match_window_growth a second, and stops at match_window_limit; bots fill a
    # ticket's missing seats after match_bots_after_seconds (0: never); a ticket expires
    # after match_longest_wait_seconds, or match_grace_seconds after its last stream closed
    match_window_start: Annotated[float, Field(ge=0, le=1000)] = 3.0
    match_window_growth: Annotated[float, Field(ge=0, le=1000)] = 1.0
    match_window_limit: Annotated[float, Field(ge=0, le=1000)] = 25.0
    match_bots_after_seconds: Annotated[float, Field(ge=0, le=3600)] = 0.0
    match_bot_strategy: Literal["random", "greedy", "ismcts"] = "greedy"
    match_longest_wait_seconds: Annotated[float, Field(gt=0, le=86400)] = 600.0
    match_grace_seconds: Annotated[float, Field(gt=0, le=3600)] = 15.0
    match_pass_seconds: Annotated[float, Field(gt=0, le=60)] = 0.25
    match_poll_seconds: Annotated[float, Field(gt=0, le=60)] = 1.0

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies(cls, value: str) -> str:
        parse_proxies(value)
        return value

    @field_validator("auth_jwks_url")
    @classmethod
    def _jwks_url(cls, value: str) -> str:
        if value and not value.startswith(("https://", "http://")):
            raise ValueError("PARLOUR_AUTH_JWKS_URL must be an https:// (or http://) URL")
        return value

    @model_validator(mode="after")
    def _identity_complete(self) -> GatewaySettings:
        keys = bool(self.auth_jwks_url) + (self.auth_jwks_file is not None)
        if keys > 1:
            raise ValueError("set PARLOUR_AUTH_JWKS_URL or PARLOUR_AUTH_JWKS_FILE, not both")
        if keys and not (self.auth_issuer and self.auth_audience):
            raise ValueError("identity needs PARLOUR_AUTH_ISSUER and PARLOUR_AUTH_AUDIENCE too")
        if not keys and (self.auth_issuer or self.auth_audience):
            raise ValueError("PARLOUR_AUTH_ISSUER/AUDIENCE need PARLOUR_AUTH_JWKS_URL (or _FILE)")
        return self

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
