"""Start rules services and a gateway in this process, over real loopback gRPC and Redis."""

from __future__ import annotations

import asyncio
import contextlib
import io

from parlour.engine.registry import get_game
from parlour.gateway.config import GatewayConfig
from parlour.gateway.server import Gateway
from parlour.rules import server as rules_server
from parlour.store.matchstore import MatchStore

#: Seconds a stopping step may take before the test fails naming it (not a speed check: a
#: stop that hangs would otherwise hold the test until pytest-timeout's 300 s).
STOP_SECONDS = 60


async def bounded_stop(step: str, stopping) -> None:
    """Await a stopping step; if it hangs, fail with every task's stack (to find what
    keeps it from ending)."""
    try:
        async with asyncio.timeout(STOP_SECONDS):
            await stopping
    except TimeoutError:
        stacks = io.StringIO()
        for task in asyncio.all_tasks():
            task.print_stack(limit=12, file=stacks)
        hung = f"{step} did not finish in {STOP_SECONDS} s:\n{stacks.getvalue()}"
        raise AssertionError(hung) from None


@contextlib.asynccontextmanager
async def running_stack(
    redis_url: str, games=("tinycards",), replicas: int = 1, max_events: int = 0, **gateway_options
):
    """Yields the gateway address; rules replicas and gateway share this event loop."""
    started = []
    routes: dict[str, list[str]] = {}
    for name in games:
        for _ in range(replicas):
            store = MatchStore.from_url(redis_url, max_events=max_events)
            server, port, _health, watcher = await rules_server.start(get_game(name), store)
            started.append((server, watcher, store))
            routes.setdefault(name, []).append(f"127.0.0.1:{port}")
    gateway = await Gateway(
        GatewayConfig(redis_url=redis_url, rules=routes, **gateway_options)
    ).start()
    gateway.rules_stores = [store for _, _, store in started]
    try:
        yield f"127.0.0.1:{gateway.port}", gateway
    finally:
        await bounded_stop("gateway.stop", gateway.stop(None))
        for server, watcher, store in started:
            watcher.cancel()
            await bounded_stop("rules server.stop", server.stop(None))
            await store.close()
