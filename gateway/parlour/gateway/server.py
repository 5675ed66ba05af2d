"""Run the gateway: `parlour serve-gateway` (configuration in parlour.gateway.config)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from grpc_health.v1 import health_pb2

from parlour.gateway.config import GatewayConfig
from parlour.gateway.discovery import Resolver
from parlour.gateway.edge import Edge
from parlour.gateway.fanout import EventHub
from parlour.gateway.identity import Verifier, identified
from parlour.gateway.quotas import Quotas
from parlour.gateway.revocation import Revocations
from parlour.gateway.routing import Router
from parlour.gateway.service import GatewayService
from parlour.gateway.v1 import gateway_service_pb2
from parlour.gateway.workers import supervise
from parlour.rpc import logs, metrics, serving
from parlour.rpc.decoding import checked_handler
from parlour.rpc.interceptor import Drain
from parlour.store.matchstore import MatchStore

DESCRIPTOR = gateway_service_pb2.DESCRIPTOR.services_by_name["GatewayService"]
SERVICE = DESCRIPTOR.full_name
log = logging.getLogger("parlour.gateway")

NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
#: Seconds between two sweeps of the open streams while draining (see end_streams).
DRAIN_SWEEP_SECONDS = 0.1


def verifier(config: GatewayConfig) -> Verifier:
    """The identity check the configuration asks for (a key set URL or file)."""
    checks = {
        "leeway": config.auth_leeway_seconds,
        "lifespan": config.auth_keys_refresh_seconds,
    }
    issuer, audience = config.auth_issuer, config.auth_audience
    if config.auth_jwks_file:
        return Verifier.from_file(Path(config.auth_jwks_file), issuer, audience, **checks)
    return Verifier.from_url(config.auth_jwks_url, issuer, audience, **checks)


class Gateway:
    """A running gateway: its server, port and parts."""

    def __init__(self, config: GatewayConfig) -> None:
        self.config = config
        self.store = MatchStore.from_url(config.redis_url)
        self.router = Router(
            config.rules,
            config.replica_cooldown_seconds,
            config.internal_tls,
            resolver=Resolver(config.dns_server),
            discovery_seconds=config.discovery_seconds,
            probe_seconds=config.probe_seconds,
        )
        self.hub = EventHub(self.store, config.subscriber_queue)
        self.revocations = Revocations(self.store)
        self.service = GatewayService(
            Edge(
                self.store,
                self.router,
                self.hub,
                config.heartbeat_seconds,
                self.revocations,
                play_queue=config.play_queue,
                quotas=Quotas(config.creates_per_minute, config.streams_per_connection),
                identity_on=config.identity_on,
                trusted_proxies=config.trusted_proxies,
                bot_runners=config.ratings_bot_subjects,
                matchmaking=config.matchmaking,
            )
        )
        served = self.service
        if config.identity_on:
            served = identified(
                self.service, verifier(config), [m.name for m in DESCRIPTOR.methods]
            )
        self.drain = Drain()
        self.drain.on_drain(self.end_streams)
        self.sweeper: asyncio.Task | None = None
        self.server, self.port, self.health = serving.make_server(
            lambda s: s.add_generic_rpc_handlers((checked_handler(DESCRIPTOR, served),)),
            [SERVICE],
            config.address,
            config.public_tls,
            self.drain,
            reflection_refresh=self.router.describe_all,
            reuse_port=config.reuse_port,
        )
        self.watcher = None
        #: What health reports now: "" and the service, then "games/<name>" for each game.
        self.serving: dict[str, bool] = {}

    def end_streams(self) -> None:
        """End every open stream with UNAVAILABLE SERVER_DRAINING now and again every
        DRAIN_SWEEP_SECONDS until the process exits: a stream still reading its match when
        the drain began subscribes later, and gets its SERVER_DRAINING too (issue 34)."""
        self.hub.drain()
        self.service.tickets.end_ticket_streams()
        if self.sweeper is None:
            self.sweeper = asyncio.create_task(self._sweep())

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(DRAIN_SWEEP_SECONDS)
            self.hub.drain()

    async def start(self) -> Gateway:
        """Find the replicas, report health, start serving."""
        await self.router.start()
        await self.server.start()
        self.revocations.start()
        self.service.tickets.matcher.own_address = lambda: f"127.0.0.1:{self.port}"
        self.service.tickets.matcher.start()
        await self.report_health()
        self.watcher = asyncio.create_task(self.watch_health())
        return self

    async def report_health(self) -> None:
        """SERVING while Redis answers and some game is served; each game "games/<name>"
        SERVING while one of its replicas is."""
        storage = await serving.storage_ok(self.store)
        games = {f"games/{g}": storage and live for g, live in self.router.live_games().items()}
        overall = storage and any(games.values())
        wanted = {"": overall, SERVICE: overall, **games}
        for name, ok in wanted.items():
            if self.serving.get(name) != ok:
                status = health_pb2.HealthCheckResponse.SERVING if ok else NOT_SERVING
                await self.health.set(name, status)
                if name in self.serving:
                    log.warning("health changed", extra={"service": name or "overall", "ok": ok})
        self.serving = wanted

    async def watch_health(self, every: float = 1.0) -> None:
        while True:
            await asyncio.sleep(every)
            await self.report_health()

    async def stop(self, grace: float | None = None) -> None:
        """Stop serving and close connections."""
        for task in (self.watcher, self.sweeper):
            if task is not None:
                task.cancel()
        await self.service.tickets.matcher.close()
        await self.hub.close()
        await self.revocations.close()
        await self.server.stop(grace)
        await self.router.close()
        await self.store.close()


async def serve(config: GatewayConfig) -> None:
    """Serve until SIGTERM."""
    gateway = await Gateway(config).start()
    health_port = await serving.start_health_port(
        gateway.health, config.health_port, config.health_addr, config.reuse_port
    )
    metrics.expose(config.metrics_port, config.metrics_addr)
    if config.internal_tls is None:
        log.warning("no PARLOUR_INTERNAL_TLS_* set: calling the rules services in plaintext")
    log.info(
        "serving",
        extra={
            "port": gateway.port,
            "health": "SERVING" if gateway.serving[""] else "NOT_SERVING",
            "games": sorted(config.rules),
            "unavailable_games": sorted(
                g for g, live in gateway.router.live_games().items() if not live
            ),
            "public_tls": config.public_tls is not None,
            "mutual_tls": config.internal_tls is not None,
            "identity": config.auth_issuer or None,
            "health_port": health_port[1] if health_port else None,
            "gateway_id": gateway.hub.gateway_id,
        },
    )
    serving.tune_gc()
    await serving.run_until_stopped(gateway.health, gateway.drain, config.drain_seconds)


def main(workers: int | None = None) -> None:
    """Entry point of `parlour serve-gateway`: settings are checked before anything starts;
    with more than one worker (`workers`, else PARLOUR_GATEWAY_WORKERS) this process runs
    that many gateways (parlour.gateway.workers)."""
    overrides = {} if workers is None else {"gateway_workers": workers}
    config = GatewayConfig.from_env(**overrides)
    logs.configure("parlour.gateway", config.log_level)
    if config.workers > 1:
        supervise(config)
    serving.run(serve(config))
