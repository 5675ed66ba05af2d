"""Run one game's rules service: `python -m parlour.games.<game>` or `parlour serve-rules GAME`.

Configuration: parlour.settings.RulesSettings (PARLOUR_* environment variables).
"""

from __future__ import annotations

import asyncio
import logging

from grpc_health.v1 import health_pb2

from parlour.engine.game import Game
from parlour.engine.registry import known_game
from parlour.rpc import logs, metrics, serving
from parlour.rpc.interceptor import Drain
from parlour.rpc.tls import InternalTls, from_settings
from parlour.rules.core import RulesCore
from parlour.rules.servicer import RulesServicer
from parlour.rules.timers import TurnTimers
from parlour.rules.v1 import rules_service_pb2, rules_service_pb2_grpc
from parlour.settings import RulesSettings, load
from parlour.store.matchstore import MatchStore

SERVICE = rules_service_pb2.DESCRIPTOR.services_by_name["RulesService"].full_name
log = logging.getLogger("parlour.rules")


async def start(
    game: Game,
    store: MatchStore,
    address: str = "127.0.0.1:0",
    cache_size: int = 10_000,
    tls: InternalTls | None = None,
    drain: Drain | None = None,
    timer_poll_seconds: float = 0.1,
    migrate_rules: bool = False,
):
    """Start serving `game` (only to callers with a certificate from the CA when `tls` is
    given); returns (server, port, health servicer, watcher task). On `drain`, open
    ActStreams finish their Acts, refuse new ones and end. `migrate_rules`: move matches of
    the versions the game migrates from to its newest (the host's choice)."""
    core = RulesCore(game, store, cache_size=cache_size, migrate=migrate_rules)
    servicer = RulesServicer(core)
    drain = drain or Drain()
    drain.on_drain(servicer.drain)
    server, port, health = serving.make_server(
        lambda s: rules_service_pb2_grpc.add_RulesServiceServicer_to_server(servicer, s),
        [SERVICE],
        address,
        tls.server_credentials() if tls else None,
        drain,
        {"game": game.name},
    )
    await server.start()
    ok = await serving.storage_ok(store)
    await serving.set_serving(health, [SERVICE], ok)
    timers = TurnTimers(core, timer_poll_seconds)
    watcher = asyncio.create_task(
        _together(serving.watch_storage(store, health, [SERVICE], serving_now=ok), timers.run(),
                  core.ratings.run())
    )
    return server, port, health, watcher


async def _together(*jobs) -> None:
    """Run background jobs as one task (cancelling it cancels them all)."""
    await asyncio.gather(*jobs)


async def serve(game: Game, settings: RulesSettings) -> None:
    """Serve until SIGTERM."""
    store = MatchStore.from_url(settings.redis_url, max_events=settings.event_history)
    tls = from_settings(settings)
    if tls is None:
        log.warning("no PARLOUR_INTERNAL_TLS_* set: the rules port accepts any caller")
    drain = Drain()
    server, port, health, watcher = await start(
        game,
        store,
        settings.address,
        settings.state_cache,
        tls,
        drain,
        settings.timer_poll_seconds,
        settings.migrate_rules,
    )
    health_port = await serving.start_health_port(
        health, settings.health_port, settings.health_addr
    )
    metrics.expose(settings.metrics_port, settings.metrics_addr)
    state = (await health.Check(health_pb2.HealthCheckRequest(service=SERVICE), None)).status
    log.info(
        "serving",
        extra={
            "game": game.name,
            "rules_versions": list(game.served_versions()),
            "port": port,
            "mutual_tls": tls is not None,
            "health_port": health_port[1] if health_port else None,
            "health": health_pb2.HealthCheckResponse.ServingStatus.Name(state),
        },
    )
    serving.tune_gc()
    await serving.run_until_stopped(health, drain, settings.drain_seconds)


def main(game_name: str) -> None:
    """Entry point used by each game's __main__ and `parlour serve-rules`: settings are
    checked before anything starts (a bad one stops with a message naming it)."""
    run(known_game(game_name))


def run(game: Game) -> None:
    """Serve `game` (a registered game, or a build of one) with the environment's settings."""
    settings = load(RulesSettings)
    logs.configure(f"parlour.rules.{game.name}", settings.log_level)
    serving.run(serve(game, settings))
