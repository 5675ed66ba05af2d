"""Gateway configuration from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass

import grpc

from parlour.rpc.tls import InternalTls, public_server_credentials


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

    @classmethod
    def from_env(cls) -> GatewayConfig:
        """PARLOUR_REDIS_URL, PARLOUR_RULES, PARLOUR_ADDRESS, PARLOUR_HEARTBEAT_SECONDS, …"""
        url = os.environ.get("PARLOUR_REDIS_URL")
        if not url:
            raise SystemExit("PARLOUR_REDIS_URL is not set (use `parlour up` to run a local stack)")
        return cls(
            redis_url=url,
            rules=parse_rules(os.environ.get("PARLOUR_RULES", "")),
            address=os.environ.get("PARLOUR_ADDRESS", "127.0.0.1:0"),
            heartbeat_seconds=float(os.environ.get("PARLOUR_HEARTBEAT_SECONDS", "5")),
            subscriber_queue=int(os.environ.get("PARLOUR_SUBSCRIBER_QUEUE", "1024")),
            play_queue=int(os.environ.get("PARLOUR_PLAY_QUEUE", "1024")),
            creates_per_minute=int(os.environ.get("PARLOUR_CREATES_PER_MINUTE", "120")),
            streams_per_connection=int(os.environ.get("PARLOUR_STREAMS_PER_CONNECTION", "100")),


            dns_server=os.environ.get("PARLOUR_DNS_SERVER", ""),
            discovery_seconds=float(os.environ.get("PARLOUR_DISCOVERY_SECONDS", "5")),
            probe_seconds=float(os.environ.get("PARLOUR_PROBE_SECONDS", "1")),
            internal_tls=InternalTls.from_env(),
            public_tls=public_server_credentials(),
        )
