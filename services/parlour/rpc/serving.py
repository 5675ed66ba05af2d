"""Server plumbing: health, reflection, keepalive, graceful drain on SIGTERM, uvloop, and
the plaintext health-only port (PARLOUR_HEALTH_PORT) for probes that cannot speak TLS."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import signal
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import NoReturn

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from parlour.rpc import reflection
from parlour.rpc.interceptor import Drain, ServerInterceptor
from parlour.settings import ChannelSettings, load

log = logging.getLogger("parlour.serving")


def keepalive_seconds() -> float:
    """PARLOUR_KEEPALIVE_SECONDS, the same on every server and every channel."""
    return load(ChannelSettings).keepalive_seconds


def keepalive_channel_options(seconds: float | None = None) -> list[tuple[str, int]]:
    """A client channel pings every `seconds`, with or without calls, however quiet."""
    every = int((seconds or keepalive_seconds()) * 1000)
    return [
        ("grpc.keepalive_time_ms", every),
        ("grpc.keepalive_timeout_ms", max(every, 10_000)),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.max_pings_without_data", 0),
    ]


def keepalive_server_options(seconds: float | None = None) -> list[tuple[str, int]]:
    """A server pings like a channel and accepts the channels' pings: anything at half the
    interval or slower is welcome, so no ping is a strike and no quiet link is dropped
    for "too many pings" (gRPC's default policy tolerates one ping per 5 minutes)."""
    every = int((seconds or keepalive_seconds()) * 1000)
    return [
        *keepalive_channel_options(seconds),
        ("grpc.http2.min_ping_interval_without_data_ms", every // 2),
        ("grpc.http2.max_ping_strikes", 2),
    ]


def make_server(
    register: Callable[[grpc.aio.Server], None],
    service_names: Iterable[str],
    address: str,
    credentials: grpc.ServerCredentials | None = None,
    drain: Drain | None = None,
    log_fields: dict | None = None,
    reflection_refresh: Callable[[], Awaitable] | None = None,
    reuse_port: bool = False,
) -> tuple[grpc.aio.Server, int, health.aio.HealthServicer]:
    """A grpc.aio server with the services, health and reflection, bound to `address`
    (with TLS when `credentials` are given); every call goes through the interceptor
    (drain refusal, metrics, request logs). Reflection awaits `reflection_refresh` before
    answering that it knows no symbol. With `reuse_port` (SO_REUSEPORT) other processes
    may listen on the same port and the kernel spreads the connections among them;
    without it a port in use is an error."""
    server = grpc.aio.server(
        options=[*keepalive_server_options(), ("grpc.so_reuseport", int(reuse_port))],
        interceptors=[ServerInterceptor(drain or Drain(), log_fields or {})],
    )
    register(server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable(server, [*service_names, health.SERVICE_NAME], reflection_refresh)
    if credentials is None:
        port = server.add_insecure_port(address)
    else:
        port = server.add_secure_port(address, credentials)
    if port == 0:
        raise RuntimeError(f"could not bind {address}")
    return server, port, health_servicer


async def start_health_port(
    health_servicer: health.aio.HealthServicer,
    port: int | None,
    host: str = "127.0.0.1",
    reuse_port: bool = False,
) -> tuple[grpc.aio.Server, int] | None:
    """A second, plaintext server on `host`:`port` with grpc.health.v1 only, answering from
    the main server's `health_servicer` (so it shows NOT_SERVING whenever the main port
    does); None when `port` is None. Nothing else is served there: a main port behind
    mutual TLS stays closed to plaintext callers."""
    if port is None:
        return None
    server = grpc.aio.server(options=[("grpc.so_reuseport", int(reuse_port))])
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    bound = server.add_insecure_port(f"{host}:{port}")
    if bound == 0:
        raise RuntimeError(f"could not bind the health port {host}:{port}")
    await server.start()
    return server, bound


async def set_serving(health_servicer, services: Iterable[str], serving: bool) -> None:
    """Mark the services (and the overall "" service) SERVING or NOT_SERVING."""
    status = (
        health_pb2.HealthCheckResponse.SERVING
        if serving
        else health_pb2.HealthCheckResponse.NOT_SERVING
    )
    for name in ["", *services]:
        await health_servicer.set(name, status)


#: Seconds the port stays up after the drain, refusing new calls, so the last statuses leave.
LINGER_SECONDS = 0.2


async def run_until_stopped(health_servicer, drain: Drain, grace: float) -> NoReturn:
    """Serve until SIGTERM/SIGINT, then drain: report NOT_SERVING (on the health port too),
    refuse new calls with UNAVAILABLE SERVER_DRAINING, end open streams (the drain hooks),
    let in-flight calls finish for up to `grace` seconds, and end the process.

    The process ends without grpc's server shutdown: that cancels (CANCELLED) every call
    it has received but not yet handed to the application, which under load is always
    some. Exiting instead resets the connections, so such a call fails UNAVAILABLE and is
    retried like the refused ones. The health port, if any, ends with the process."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info("draining", extra={"grace_seconds": grace, "in_flight": drain.in_flight})
    await health_servicer.enter_graceful_shutdown()
    await drain.start()
    finished = await drain.wait_idle(grace)
    if not finished:
        log.warning("drain grace over", extra={"in_flight": drain.in_flight})
    await asyncio.sleep(LINGER_SECONDS)
    log.info("stopped")
    logging.shutdown()
    os._exit(0)


def tune_gc() -> None:
    """Once a server has started: what is loaded so far (modules, descriptors, stubs) is
    never collected, and young collections run every 100k allocations instead of 700 (the
    cyclic GC took 4-9 % of a busy server's CPU: bench/results/profile-before.txt)."""
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)


def run(main: Coroutine) -> None:
    """Run a server's main coroutine on uvloop when available."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover
        asyncio.run(main)
    else:
        uvloop.run(main)


async def storage_ok(store, timeout: float = 1.0) -> bool:
    """Whether Redis answers a PING within `timeout`."""
    try:
        return bool(await asyncio.wait_for(store.ping(), timeout=timeout))
    except Exception:  # noqa: BLE001 - any failure means not serving
        return False


async def watch_storage(
    store, health, services: list[str], every: float = 1.0, serving_now: bool | None = None
) -> None:
    """Report NOT_SERVING while Redis does not answer, SERVING when it does (`serving_now`:
    what is already reported)."""
    while True:
        ok = await storage_ok(store, every)
        if ok != serving_now:
            await set_serving(health, services, ok)
            if serving_now is not None:
                log.warning("storage %s", "back" if ok else "unavailable")
            serving_now = ok
        await asyncio.sleep(every)
