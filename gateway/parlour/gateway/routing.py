"""Route each match to a rules replica by rendezvous hashing over the live replicas.

Each game's targets (addresses or DNS names, see discovery) are re-resolved every
`discovery_seconds`; replicas joining are added and replicas leaving are closed after
`retire_seconds`. Each replica's health is probed every `probe_seconds`: a match goes to
the first live replica in its rendezvous order (the same replica while the live set
holds, so its cache stays warm), moving on while one is unavailable.

Each replica advertises the rules versions it plays (DescribeGame, asked whenever a probe
finds it serving with its versions unknown): a match's calls go only to replicas that play
its version, then to replicas that migrate it (the host's choice); with none, the call is
refused UNAVAILABLE RULES_VERSION_UNAVAILABLE, never run under other rules (issue 42).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from parlour.gateway.discovery import Resolver
from parlour.gateway.links import ActLink
from parlour.rpc import metrics, reflection
from parlour.rpc.errors import ServiceError, not_found, unavailable
from parlour.rpc.serving import keepalive_channel_options
from parlour.rpc.tls import InternalTls, rules_channel
from parlour.rules.v1 import rules_pb2 as pb
from parlour.rules.v1 import rules_service_pb2_grpc as pb_grpc

T = TypeVar("T")
log = logging.getLogger("parlour.gateway.routing")
RULES_SERVICE = "parlour.rules.v1.RulesService"
#: Reconnect to a replica that comes back within about a second (gRPC's default backoff
#: grows to 120 s and skipped a restarted replica for seconds).
RECONNECT_OPTIONS = [
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.min_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 1000),
]
#: ActStreams per replica: grpc.aio sends one message at a time per stream.
LINKS_PER_REPLICA = 4
#: The refusal of a match whose rules version no replica (or not this one) plays.
RULES_VERSION_UNAVAILABLE = "RULES_VERSION_UNAVAILABLE"


@dataclass(frozen=True, slots=True)
class RulesVersions:
    """What a replica said it plays: the version new matches start on, every version it
    plays, and the versions it migrates forward."""

    newest: int
    served: frozenset[int]
    migrates: frozenset[int]

    @classmethod
    def of(cls, info: pb.GameInfo) -> RulesVersions:
        """From a GameInfo (a build from before versions plays version 1 alone)."""
        newest = info.rules_version or 1
        served = frozenset(info.served_rules_versions) or frozenset({newest})
        return cls(newest, served, frozenset(info.migrates_from_rules_versions))


def version_unavailable(game: str, version: int) -> ServiceError:
    """No replica of `game` plays (or migrates) rules version `version`."""
    return ServiceError(
        grpc.StatusCode.UNAVAILABLE,
        RULES_VERSION_UNAVAILABLE,
        f"no {game} rules replica plays rules version {version} now",
        metadata={"rules_version": str(version)},
    )


class Replica:
    """One rules service address: a channel, a stub, a few ActStream links, its health."""

    def __init__(self, address: str, tls: InternalTls | None = None) -> None:
        self.address = address
        options = [
            *keepalive_channel_options(),
            *RECONNECT_OPTIONS,
            ("grpc.enable_retries", 0),
        ]
        self.channel = rules_channel(address, tls, options)
        self.stub = pb_grpc.RulesServiceStub(self.channel)
        self.health = health_pb2_grpc.HealthStub(self.channel)
        self.links = [ActLink(self.stub, address) for _ in range(LINKS_PER_REPLICA)]
        self.down_until = 0.0
        #: Last probe said SERVING (None: not probed yet).
        self.live: bool | None = None
        #: The rules versions it plays (None: not asked since it came up).
        self.versions: RulesVersions | None = None

    def link(self, match: str) -> ActLink:
        """The stream a match's actions use (one per match keeps them in order)."""
        return self.links[zlib.crc32(match.encode()) % len(self.links)]

    async def probe(self, timeout: float) -> bool:
        """Ask the replica's health; True if its rules service is SERVING."""
        try:
            reply = await self.health.Check(
                health_pb2.HealthCheckRequest(service=RULES_SERVICE), timeout=timeout
            )
        except grpc.aio.AioRpcError:
            return False
        return reply.status == health_pb2.HealthCheckResponse.SERVING

    async def learn_versions(self, timeout: float) -> None:
        """Ask the replica which rules versions it plays (left unknown if it does not say)."""
        try:
            reply = await self.stub.DescribeGame(pb.DescribeGameRequest(), timeout=timeout)
        except grpc.aio.AioRpcError:
            return
        self.versions = RulesVersions.of(reply.game)

    async def close(self) -> None:
        for link in self.links:
            await link.close()
        await self.channel.close()


@lru_cache(maxsize=65536)
def rank_addresses(match: str, addresses: tuple[str, ...]) -> tuple[int, ...]:
    """Indexes of `addresses` in rendezvous (highest random weight) order for a match."""

    def weight(i: int) -> bytes:
        return hashlib.blake2b(f"{match}|{addresses[i]}".encode(), digest_size=8).digest()

    return tuple(sorted(range(len(addresses)), key=weight, reverse=True))


def rank(match: str, replicas: list[Replica]) -> list[Replica]:
    """Replicas in rendezvous order for a match."""
    order = rank_addresses(match, tuple(r.address for r in replicas))
    return [replicas[i] for i in order]


#: Codes from a rules replica that mean "try another": it is down, or it cancelled the call
#: while stopping. Every call the router makes is safe to repeat (reads, or writes with a
#: request id).
RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED)


def replica_unavailable(replica: Replica, error: ServiceError) -> ServiceError:
    """A replica's failure as the UNAVAILABLE the caller may retry."""
    if error.code == grpc.StatusCode.UNAVAILABLE:
        return error
    return unavailable(f"rules replica {replica.address}: {error.message}")


async def any_ready(replicas: list[Replica], timeout: float) -> bool:
    """Wait until some replica's channel is connected (False after `timeout` seconds)."""
    if timeout <= 0 or not replicas:
        return False
    waits = {asyncio.ensure_future(r.channel.channel_ready()): r for r in replicas}
    try:
        done, _ = await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()
    for wait in done:
        waits[wait].down_until = 0.0
    return bool(done)


class GameRoute:
    """One game's targets and the replicas they resolve to, by address."""

    def __init__(self, game: str, targets: list[str]) -> None:
        self.game = game
        self.targets = targets
        self.replicas: dict[str, Replica] = {}

    def ordered(self, match: str, rules: int | None = None) -> list[Replica]:
        """The replicas for a match: with its rules version, those that play it, then those
        that migrate it, then those whose versions are not known yet (a replica just back
        up: the rules services check the version themselves); each group live first, in
        rendezvous order. Empty when no replica may play it."""
        replicas = list(self.replicas.values())
        if rules is None or not any(r.versions for r in replicas):
            return self._ranked(match, replicas)
        plays = [r for r in replicas if r.versions and rules in r.versions.served]
        moves = [r for r in replicas if r.versions and rules in r.versions.migrates]
        unknown = [r for r in replicas if r.versions is None]
        return self._ranked(match, plays) + [
            r for r in self._ranked(match, moves) if r not in plays
        ] + self._ranked(match, unknown)

    def _ranked(self, match: str, replicas: list[Replica]) -> list[Replica]:
        """Rendezvous order over the live replicas, then the rest (down or unprobed)."""
        if len(replicas) <= 1:  # the usual case: nothing to rank
            return replicas
        now = time.monotonic()
        ranked = rank(match, replicas)
        return [r for r in ranked if r.live is not False and r.down_until <= now] + [
            r for r in ranked if r.live is False or r.down_until > now
        ]

    @property
    def live(self) -> bool:
        """Some replica's last probe said SERVING."""
        return any(r.live for r in self.replicas.values())

    def plays(self, rules: int) -> bool:
        """Some live replica plays (or migrates) rules version `rules`, or may (its versions
        are not known yet)."""
        return any(
            r.live and (r.versions is None or rules in r.versions.served | r.versions.migrates)
            for r in self.replicas.values()
        )

    def versions(self) -> RulesVersions | None:
        """The rules versions the live replicas play between them (newest: the highest any
        starts new matches on); None while none is known."""
        known = [r.versions for r in self.replicas.values() if r.live and r.versions]
        if not known:
            return None
        return RulesVersions(
            max(v.newest for v in known),
            frozenset().union(*(v.served for v in known)),
            frozenset().union(*(v.migrates for v in known)),
        )


class Router:
    """Knows every game's replicas, keeps them current, and calls the right one."""

    def __init__(
        self,
        routes: dict[str, list[str]],
        cooldown: float = 2.0,
        tls: InternalTls | None = None,
        failover_seconds: float = 10.0,
        resolver: Resolver | None = None,
        discovery_seconds: float = 5.0,
        probe_seconds: float = 1.0,
        retire_seconds: float = 10.0,
    ) -> None:
        self.routes = {game: GameRoute(game, targets) for game, targets in routes.items()}
        self.cooldown = cooldown
        self.tls = tls
        self.failover_seconds = failover_seconds
        self.resolver = resolver or Resolver()
        self.discovery_seconds = discovery_seconds
        self.probe_seconds = probe_seconds
        self.retire_seconds = retire_seconds
        self.infos: dict[str, pb.GameInfo] = {}
        #: each described game's proto files and their imports, dependencies first
        self.files: dict[str, list] = {}
        self._tasks: set[asyncio.Task] = set()

    # -- keeping the replica sets current --------------------------------------------
    async def start(self) -> Router:
        """Resolve every target and probe every replica once, then keep doing so."""
        await asyncio.gather(*(self.refresh(route) for route in self.routes.values()))
        await self.probe_all()
        self._spawn(self._every(self.discovery_seconds, self.refresh_all))
        self._spawn(self._every(self.probe_seconds, self.probe_all))
        return self

    def _spawn(self, coroutine) -> asyncio.Task:
        task = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _every(self, seconds: float, step) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await step()
            except Exception:  # noqa: BLE001 - keep the last known set; try again next round
                log.exception("replica refresh failed")

    async def refresh_all(self) -> None:
        await asyncio.gather(*(self.refresh(route) for route in self.routes.values()))

    async def refresh(self, route: GameRoute) -> None:
        """Re-resolve a game's targets: add new addresses, retire vanished ones. A target
        that cannot be resolved now keeps its last addresses."""
        found: set[str] = set()
        for target in route.targets:
            try:
                found.update(await self.resolver.resolve(target))
            except (OSError, TimeoutError) as error:
                log.warning("cannot resolve", extra={"target": target, "error": str(error)})
                found.update(a for a in route.replicas if a not in found)
        for address in sorted(found - route.replicas.keys()):
            route.replicas[address] = Replica(address, self.tls)
            log.info("replica added", extra={"game": route.game, "replica": address})
        for address in sorted(route.replicas.keys() - found):
            replica = route.replicas.pop(address)
            log.info("replica removed", extra={"game": route.game, "replica": address})
            self._spawn(self._retire(replica))
        self._count(route)

    async def _retire(self, replica: Replica) -> None:
        """Close a vanished replica once calls already on it have had time to finish."""
        await asyncio.sleep(self.retire_seconds)
        await replica.close()

    async def probe_all(self) -> None:
        replicas = [r for route in self.routes.values() for r in route.replicas.values()]
        results = await asyncio.gather(*(r.probe(self.probe_seconds) for r in replicas))
        for replica, live in zip(replicas, results, strict=True):
            if live and not replica.live:
                replica.down_until = 0.0
                replica.versions = None  # back up: it may be another build now
            replica.live = live
        unknown = [r for r in replicas if r.live and r.versions is None]
        await asyncio.gather(*(r.learn_versions(self.probe_seconds) for r in unknown))
        for route in self.routes.values():
            self._count(route)

    @staticmethod
    def _count(route: GameRoute) -> None:
        live = sum(1 for r in route.replicas.values() if r.live)
        metrics.RULES_REPLICAS.labels(route.game, "live").set(live)
        metrics.RULES_REPLICAS.labels(route.game, "down").set(len(route.replicas) - live)

    def live_games(self) -> dict[str, bool]:
        """Each game, and whether some replica of it is serving."""
        return {game: route.live for game, route in self.routes.items()}

    # -- calls ---------------------------------------------------------------------------
    async def describe(self, game: str, patient: bool = True) -> pb.GameInfo:
        """A game's facts (asked once, then remembered, with its proto files learnt for
        reflection); NOT_FOUND for an unknown game."""
        if game not in self.infos:
            response = await self.call(
                game,
                game,
                lambda r: r.stub.DescribeGame(pb.DescribeGameRequest(), timeout=10),
                patient=patient,
            )
            reflection.learn_files(response.files)
            self.files[game] = list(response.files)
            self.infos[game] = response.game
        return self.infos[game]

    def files_of(self, games: list[str]) -> list:
        """The described games' proto files and their imports, each once, dependencies
        first (a FileDescriptorSet clients build their type registry from)."""
        seen: dict[str, object] = {}
        for game in games:
            for file in self.files.get(game, ()):
                seen.setdefault(file.name, file)
        return list(seen.values())

    async def describe_all(self) -> tuple[dict[str, pb.GameInfo], list[str]]:
        """The facts of every game that has a live replica, and the names of those that do not."""
        live = self.live_games()

        async def one(game: str) -> pb.GameInfo | None:
            if not live[game]:
                return None
            try:
                return await self.describe(game, patient=False)
            except ServiceError as error:
                if error.code != grpc.StatusCode.UNAVAILABLE:
                    raise
                return None

        games = sorted(self.routes)
        infos = await asyncio.gather(*(one(g) for g in games))
        served = {g: info for g, info in zip(games, infos, strict=True) if info is not None}
        return served, [g for g in games if g not in served]

    async def call(
        self,
        game: str,
        match: str,
        send: Callable[[Replica], Awaitable[T]],
        patient: bool = True,
        rules: int | None = None,
    ) -> T:
        """Call the match's preferred replica, moving on to the next while one is unavailable.
        With `rules`, only replicas that play (or migrate) that rules version are called;
        none: UNAVAILABLE RULES_VERSION_UNAVAILABLE at once.

        When every replica refused, wait (up to `failover_seconds` in all; not at all
        unless `patient`) for any to reconnect and go round again: while one replica
        serves, callers see no outage.
        """
        route = self.routes.get(game)
        if route is None:
            raise not_found("game", game)
        deadline = time.monotonic() + (self.failover_seconds if patient else 0)
        while True:
            last: ServiceError | None = None
            refused: ServiceError | None = None
            ordered = route.ordered(match, rules)
            if not ordered and rules is not None:
                raise version_unavailable(game, rules)
            for replica in ordered:
                try:
                    return await send(replica)
                except grpc.aio.AioRpcError as rpc_error:
                    error = ServiceError.from_rpc_error(rpc_error)
                except ServiceError as caught:
                    error = caught
                if error.code not in RETRYABLE:
                    raise error
                if error.reason == RULES_VERSION_UNAVAILABLE:
                    refused = error
                    if error.metadata.get("rules_version") == str(rules):  # it said it did
                        self._spawn(replica.learn_versions(self.probe_seconds))
                    continue
                if rules is None or replica.versions is not None:  # (one of unknown versions
                    last = replica_unavailable(replica, error)  # was only a chance)
                replica.down_until = time.monotonic() + self.cooldown
            if last is None and refused is not None:
                raise refused
            if not await any_ready(ordered, deadline - time.monotonic()):
                if rules is not None and route.live and not route.plays(rules):
                    raise version_unavailable(game, rules)  # others serve: not an outage
                raise last or refused or unavailable(f"no replica of {game} answered")

    async def act(
        self, game: str, request: pb.ActRequest, rules: int | None = None
    ) -> pb.ActResponse:
        """Forward an Act over the replica's open stream (safe to retry: it has a request id)
        to a replica that plays the match's rules version."""
        match = request.match_id
        return await self.call(game, match, lambda r: r.link(match).act(request), rules=rules)

    async def close(self) -> None:
        """Stop refreshing and close every channel."""
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for route in self.routes.values():
            for replica in route.replicas.values():
                await replica.close()
