"""Server plumbing: health, reflection, graceful drain on SIGTERM, uvloop."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable, Coroutine, Iterable

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

log = logging.getLogger("parlour.serving")

OPTIONS = [
    ("grpc.keepalive_time_ms", 20_000),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.max_pings_without_data", 0),
    ("grpc.so_reuseport", 0),
]


def make_server(
    register: Callable[[grpc.aio.Server], None],
    service_names: Iterable[str],
    address: str,
    credentials: grpc.ServerCredentials | None = None,
) -> tuple[grpc.aio.Server, int, health.aio.HealthServicer]:
    """A grpc.aio server with the services, health and reflection, bound to `address`
    (with TLS when `credentials` are given)."""
    server = grpc.aio.server(options=OPTIONS)
    register(server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    names = [*service_names, health.SERVICE_NAME, reflection.SERVICE_NAME]
    reflection.enable_server_reflection(names, server)
    if credentials is None:
        port = server.add_insecure_port(address)
    else:
        port = server.add_secure_port(address, credentials)
    if port == 0:
        raise RuntimeError(f"could not bind {address}")
    return server, port, health_servicer


async def set_serving(health_servicer, services: Iterable[str], serving: bool) -> None:
    """Mark the services (and the overall "" service) SERVING or NOT_SERVING."""
    status = (
        health_pb2.HealthCheckResponse.SERVING
        if serving
        else health_pb2.HealthCheckResponse.NOT_SERVING
    )
    for name in ["", *services]:
        await health_servicer.set(name, status)


async def run_until_stopped(server: grpc.aio.Server, health_servicer, grace: float = 5.0) -> None:
    """Serve until SIGTERM/SIGINT, then report NOT_SERVING and drain for `grace` seconds."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info("draining", extra={"grace_seconds": grace})
    await health_servicer.enter_graceful_shutdown()
    await server.stop(grace)


def run(main: Coroutine) -> None:
    """Run a server's main coroutine on uvloop when available."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover
        asyncio.run(main)
    else:
        uvloop.run(main)


async def watch_storage(store, health, services: list[str], every: float = 1.0) -> None:
    """Report NOT_SERVING while Redis does not answer, SERVING when it does."""
    serving_now: bool | None = None
    while True:
        try:
            ok = await asyncio.wait_for(store.ping(), timeout=every)
        except Exception:  # noqa: BLE001 - any failure means not serving
            ok = False
        if ok != serving_now:
            await set_serving(health, services, ok)
            if serving_now is not None:
                log.warning("storage %s", "back" if ok else "unavailable")
            serving_now = ok
        await asyncio.sleep(every)
