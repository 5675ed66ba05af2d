"""Acknowledge only what survives losing the primary (issue 40).

Redis replicates asynchronously: a primary's reply says nothing about its replicas, and a
fail-over promotes a replica that may lack the last writes. So, with
PARLOUR_REDIS_REPLICAS_ACK=n (by default 1 through Sentinel or Cluster, 0 on a single
server), every write a client is told succeeded is followed, on the same connection, by
`WAIT n timeout` (`WAITAOF 0 n timeout` with PARLOUR_REDIS_REPLICAS_FSYNC=1): fewer acks in
time raise NotReplicated, answered UNAVAILABLE NOT_REPLICATED. The write may or may not
survive; a retry with the same request id finds its record either way, and is confirmed
again before it is answered.

WAIT counts the replicas that have the connection's last write, and every write before it
on that server: `barrier` makes a write that changes nothing (the SET and DEL of a mark key
in the same slot) and waits for it, confirming whatever was written before it.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from redis.asyncio.cluster import PipelineCommand, RedisCluster
from redis.asyncio.sentinel import SentinelConnectionPool
from redis.exceptions import (
    BusyLoadingError,
    ClusterDownError,
    MovedError,
    ReadOnlyError,
    RedisClusterException,
    ResponseError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from parlour.settings import ReplicationSettings, load

#: Refusals from a server that is not (or no longer) a primary able to take writes (at the
#: start of the message, or after "…of pipeline caused error: "), and WAIT sent to a replica.
DEMOTED = re.compile(
    r"(^|error: )(READONLY|NOREPLICAS|MASTERDOWN|LOADING|CLUSTERDOWN|TRYAGAIN|MOVED|ASK) "
    r"|^(ERR )?WAIT(AOF)? cannot be used with replica"
)
#: SET then DEL a mark key: a replicated write that leaves nothing behind.
MARK = "redis.call('SET', KEYS[1], 1) redis.call('DEL', KEYS[1]) return 1"


class NotReplicated(Exception):
    """Fewer replicas than asked confirmed a write in time: it may be lost in a fail-over."""

    def __init__(self, acks: int, wanted: int) -> None:
        super().__init__(f"{acks} of {wanted} replicas confirmed the write in time")
        self.acks = acks


@dataclass(frozen=True, slots=True)
class Replication:
    """How many replicas must confirm a write before it is acknowledged, and how long to
    wait for them (milliseconds)."""

    replicas: int = 0
    timeout_ms: int = 2000
    fsync: bool = False

    @classmethod
    def from_env(
        cls, topology: str, environ: Mapping[str, str] | None = None
    ) -> Replication:
        """The environment's setting; replicas default to 1 except on a single server."""
        settings = load(ReplicationSettings, environ)
        replicas = settings.redis_replicas_ack
        if replicas is None:
            replicas = 0 if topology == "standalone" else 1
        return cls(replicas, settings.redis_replication_timeout_ms, settings.redis_replicas_fsync)

    @property
    def wait(self) -> tuple:
        """The command that waits for the replicas."""
        if self.fsync:
            return ("WAITAOF", 0, self.replicas, self.timeout_ms)
        return ("WAIT", self.replicas, self.timeout_ms)

    def check(self, reply) -> None:
        """Raise NotReplicated (or the reply's own error) unless `reply` to `wait` has
        enough acks."""
        if isinstance(reply, Exception):
            raise reply
        acks = int(reply[1] if isinstance(reply, list) else reply)
        if acks < self.replicas:
            raise NotReplicated(acks, self.replicas)


def mark_key(key: str) -> str:
    """A key in the same Cluster slot as `key`."""
    if "{" in key and "}" in key[key.index("{") :]:
        tag = key[key.index("{") + 1 : key.index("}", key.index("{"))]
        if tag:
            return f"parlour:{{{tag}}}:mark"
    return f"parlour:{{{key}}}:mark"


async def on_one_connection(client, key: str, commands: Sequence[tuple]) -> list:
    """Send `commands` in one pipeline on one connection of the server owning `key`'s slot;
    their replies in order, errors as values."""
    if isinstance(client, RedisCluster):
        if client._initialize:  # noqa: SLF001 - the topology is read lazily, as commands do
            await client.initialize()
        node = client.get_node_from_key(key)
        queued = [PipelineCommand(i, *command) for i, command in enumerate(commands)]
        try:
            await node.execute_pipeline(queued)
        except Exception:
            await forget_primary(client)
            raise
        return [command.result for command in queued]
    pipe = client.pipeline(transaction=False)
    for command in commands:
        pipe.execute_command(*command)
    return await pipe.execute(raise_on_error=False)


def demoted(error: BaseException) -> bool:
    """Whether `error` says the server is no longer a writable primary (or unreachable)."""
    if isinstance(
        error,
        ReadOnlyError | BusyLoadingError | ClusterDownError | MovedError | TryAgainError
        | RedisClusterException | RedisConnectionError | RedisTimeoutError,
    ):
        return True
    return isinstance(error, ResponseError) and DEMOTED.search(str(error)) is not None


async def forget_primary(client) -> None:
    """Ask Sentinel (or the Cluster's slots) which server is primary now, so that no
    further command goes to a demoted one."""
    with contextlib.suppress(Exception):
        if isinstance(client, RedisCluster):
            client._initialize = True  # noqa: SLF001 - redis-py's own "refresh the slots" flag
            return
        pool = getattr(client, "connection_pool", None)
        if isinstance(pool, SentinelConnectionPool):
            # a new primary named: idle connections close now, busy ones when released
            await pool.get_master_address()
