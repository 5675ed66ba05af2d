"""Route each match to a rules replica by rendezvous hashing, failing over when one is down."""

from __future__ import annotations

import asyncio
import hashlib
import time
import zlib
from collections.abc import Awaitable, Callable
from functools import lru_cache
from typing import TypeVar

import grpc

from parlour.gateway.links import ActLink
from parlour.rpc.errors import ServiceError, not_found, unavailable
from parlour.rpc.serving import keepalive_channel_options
from parlour.rpc.tls import InternalTls, rules_channel
from parlour.rules.v1 import rules_pb2 as pb
from parlour.rules.v1 import rules_service_pb2_grpc as pb_grpc

T = TypeVar("T")
#: Reconnect to a replica that comes back within about a second (gRPC's default backoff
#: grows to 120 s and skipped a restarted replica for seconds).
RECONNECT_OPTIONS = [
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.min_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 1000),
]
#: ActStreams per replica: grpc.aio sends one message at a time per stream.
LINKS_PER_REPLICA = 4


class Replica:
    """One rules service address: a channel, a stub, a few ActStream links."""

    def __init__(self, address: str, tls: InternalTls | None = None) -> None:
        self.address = address
        options = [
            *keepalive_channel_options(),
            *RECONNECT_OPTIONS,
            ("grpc.enable_retries", 0),
        ]
        self.channel = rules_channel(address, tls, options)
        self.stub = pb_grpc.RulesServiceStub(self.channel)
        self.links = [ActLink(self.stub, address) for _ in range(LINKS_PER_REPLICA)]
        self.down_until = 0.0

    def link(self, match: str) -> ActLink:
        """The stream a match's actions use (one per match keeps them in order)."""
        return self.links[zlib.crc32(match.encode()) % len(self.links)]

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
    if timeout <= 0:
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


class Router:
    """Knows every game's replicas and calls the right one."""

    def __init__(
        self,
        routes: dict[str, list[str]],
        cooldown: float = 2.0,
        tls: InternalTls | None = None,
        failover_seconds: float = 10.0,
    ) -> None:
        self.replicas = {game: [Replica(a, tls) for a in addrs] for game, addrs in routes.items()}
        self.cooldown = cooldown
        self.failover_seconds = failover_seconds
        self.infos: dict[str, pb.GameInfo] = {}

    async def describe_all(self) -> dict[str, pb.GameInfo]:
        """Every game's facts (asked once, then remembered)."""
        for game in self.replicas:
            if game not in self.infos:
                response = await self.call(
                    game, game, lambda r: r.stub.DescribeGame(pb.DescribeGameRequest(), timeout=10)
                )
                self.infos[game] = response.game
        return self.infos

    async def call(self, game: str, match: str, send: Callable[[Replica], Awaitable[T]]) -> T:
        """Call the match's preferred replica, moving on to the next while one is unavailable.

        When every replica refused, wait (up to `failover_seconds` in all) for any to
        reconnect and go round again: while one replica serves, callers see no outage.
        """
        replicas = self.replicas.get(game)
        if not replicas:
            raise not_found("game", game)
        deadline = time.monotonic() + self.failover_seconds
        while True:
            now = time.monotonic()
            ordered = rank(match, replicas)
            ordered = [r for r in ordered if r.down_until <= now] + [
                r for r in ordered if r.down_until > now
            ]
            last: ServiceError | None = None
            for replica in ordered:
                try:
                    return await send(replica)
                except grpc.aio.AioRpcError as error:
                    if error.code() not in RETRYABLE:
                        raise ServiceError.from_rpc_error(error) from None
                    last = replica_unavailable(replica, ServiceError.from_rpc_error(error))
                except ServiceError as error:
                    if error.code not in RETRYABLE:
                        raise
                    last = replica_unavailable(replica, error)
                replica.down_until = time.monotonic() + self.cooldown
            if not await any_ready(replicas, deadline - time.monotonic()):
                raise last or unavailable(f"no replica of {game} answered")

    async def act(self, game: str, request: pb.ActRequest) -> pb.ActResponse:
        """Forward an Act over the replica's open stream (safe to retry: it has a request id)."""
        match = request.match_id
        return await self.call(game, match, lambda r: r.link(match).act(request))

    async def close(self) -> None:
        """Close every channel."""
        for replicas in self.replicas.values():
            for replica in replicas:
                await replica.close()
