"""Run the gateway: `parlour serve-gateway` (configuration in parlour.gateway.config)."""

from __future__ import annotations

import asyncio
import logging

from parlour.gateway.config import GatewayConfig
from parlour.gateway.fanout import EventHub
from parlour.gateway.quotas import Quotas
from parlour.gateway.revocation import Revocations
from parlour.gateway.routing import Router
from parlour.gateway.service import GatewayService
from parlour.gateway.v1 import gateway_service_pb2
from parlour.rpc import logs, metrics, serving
from parlour.rpc.decoding import checked_handler
from parlour.rpc.interceptor import Drain
from parlour.store.matchstore import MatchStore

DESCRIPTOR = gateway_service_pb2.DESCRIPTOR.services_by_name["GatewayService"]
SERVICE = DESCRIPTOR.full_name
log = logging.getLogger("parlour.gateway")


class Gateway:
    """A running gateway: its server, port and parts."""

    def __init__(self, config: GatewayConfig) -> None:
        self.config = config
        self.store = MatchStore.from_url(config.redis_url)
        self.router = Router(config.rules, config.replica_cooldown_seconds, config.internal_tls)
        self.hub = EventHub(self.store, config.subscriber_queue)
        self.revocations = Revocations(self.store)
        self.service = GatewayService(
            self.store,
            self.router,
            self.hub,
            config.heartbeat_seconds,
            self.revocations,
            play_queue=config.play_queue,
            quotas=Quotas(config.creates_per_minute, config.streams_per_connection),
        )
        self.drain = Drain()
        self.drain.on_drain(self.hub.drain)
        self.server, self.port, self.health = serving.make_server(
            lambda s: s.add_generic_rpc_handlers(
                (checked_handler(DESCRIPTOR, self.service),)
            ),
            [SERVICE],
            config.address,
            config.public_tls,
            self.drain,
        )
        self.watcher = None

    async def start(self) -> Gateway:
        """Start serving."""
        await self.server.start()
        self.revocations.start()
        self.watcher = asyncio.create_task(
            serving.watch_storage(self.store, self.health, [SERVICE])
        )
        return self

    async def stop(self, grace: float | None = None) -> None:
        """Stop serving and close connections."""
        if self.watcher:
            self.watcher.cancel()
        await self.hub.close()
        await self.revocations.close()
        await self.server.stop(grace)
        await self.router.close()
        await self.store.close()


async def serve() -> None:
    """Serve until SIGTERM, configured from the environment."""
    gateway = await Gateway(GatewayConfig.from_env()).start()
    metrics.expose()
    config = gateway.config
    if config.internal_tls is None:
        log.warning("no PARLOUR_INTERNAL_TLS_* set: calling the rules services in plaintext")
    log.info(
        "serving",
        extra={
            "port": gateway.port,
            "games": sorted(config.rules),
            "public_tls": config.public_tls is not None,
            "mutual_tls": config.internal_tls is not None,
        },
    )
    await serving.run_until_stopped(gateway.server, gateway.health, gateway.drain)
    await gateway.stop(0)


def main() -> None:
    """Entry point of `parlour serve-gateway`."""
    logs.configure("parlour.gateway")
    serving.run(serve())
