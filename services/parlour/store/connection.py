"""Connect to Redis standalone, Cluster or Sentinel from one URL (PARLOUR_REDIS_URL).

    redis://[:password@]host:port/db        standalone (rediss:// for TLS, unix:// a socket)
    redis+cluster://[:password@]host:port[,host:port…]
                                            Cluster: any reachable nodes; the rest are found
    redis+sentinel://[:password@]host:port[,host:port…]/service[/db]
                                            Sentinel: the sentinels and the monitored
                                            service name; the client follows fail-overs

`rediss+cluster://` and `rediss+sentinel://` use TLS to the data nodes. Every key of a
match carries the {match} hash tag, so a match's commit stays in one Cluster slot.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import MasterNotFoundError, Sentinel
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from parlour.store import deadlines

STANDALONE, CLUSTER, SENTINEL = "standalone", "cluster", "sentinel"
#: What a command raises when Redis cannot be reached, or does not answer in time.
UNREACHABLE = (RedisConnectionError, RedisTimeoutError)


@dataclass(frozen=True)
class Target:
    """A parsed PARLOUR_REDIS_URL."""

    topology: str
    url: str
    nodes: tuple[tuple[str, int], ...] = ()
    service: str = ""
    db: int = 0
    username: str | None = None
    password: str | None = None
    tls: bool = False


def parse(url: str) -> Target:
    """What `url` names; ValueError for a malformed Cluster or Sentinel URL."""
    scheme = url.split("://", 1)[0].lower()
    if scheme not in ("redis+cluster", "rediss+cluster", "redis+sentinel", "rediss+sentinel"):
        return Target(STANDALONE, url)
    topology = CLUSTER if scheme.endswith("cluster") else SENTINEL
    parts = urlsplit(url)
    credentials, _, hosts = parts.netloc.rpartition("@")
    username, _, password = credentials.partition(":")
    nodes = []
    for host in filter(None, hosts.split(",")):
        name, _, port = host.rpartition(":")
        if not name or not port.isdigit():
            raise ValueError(f"{scheme} URL: {host!r} is not host:port")
        nodes.append((name.strip("[]"), int(port)))
    if not nodes:
        raise ValueError(f"{scheme} URL names no host:port")
    path = [p for p in parts.path.split("/") if p]
    if topology == SENTINEL and not path:
        raise ValueError("redis+sentinel URL needs the service name: …/service[/db]")
    service = path[0] if topology == SENTINEL else ""
    db_text = path[1] if topology == SENTINEL and len(path) > 1 else "0"
    if not db_text.isdigit():
        raise ValueError(f"redis+sentinel URL: database {db_text!r} is not a number")
    return Target(
        topology,
        url,
        tuple(nodes),
        service,
        int(db_text),
        unquote(username) or None,
        unquote(password) or None,
        scheme.startswith("rediss"),
    )


class Sentinels(Sentinel):
    """redis-py's Sentinel client, with a master discovery that keeps each sentinel once.

    redis-py's own moves the sentinel that answered to the front by the index it had
    before its awaits: two discoveries at once (every new connection runs one, so a
    fail-over starts dozens) can put one sentinel in two places and drop another, whose
    connections are then never closed and which is never asked again (issue 40). Here the
    move is made by identity, with no await between finding and moving."""

    async def discover_master(self, service_name: str):
        errors = []
        for sentinel in list(self.sentinels):
            try:
                masters = await sentinel.sentinel_masters()
            except (RedisConnectionError, ResponseError, RedisTimeoutError) as error:
                errors.append(f"{sentinel} - {error!r}")
                continue
            state = masters.get(service_name)
            if state and self.check_master_state(state, service_name):
                self.sentinels.remove(sentinel)  # (by identity) asked first next time
                self.sentinels.insert(0, sentinel)
                ip = state["ip"] if self._force_master_ip is None else self._force_master_ip
                return ip, state["port"]
        raise MasterNotFoundError(f"No master found for {service_name!r}: {', '.join(errors)}")


def connect(url: str, timeout: float = 5.0, max_connections: int = 512):
    """A redis.asyncio client (Redis or RedisCluster) for `url`; a command not done within
    `timeout` seconds fails (standalone and Sentinel: kept by parlour.store.deadlines)."""
    target = parse(url)
    common = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    # a command meeting a connection broken since its last use goes once more on a new one
    once_more = {"retry": Retry(NoBackoff(), 1), "retry_on_error": [RedisConnectionError]}
    if target.topology == STANDALONE:
        client = aioredis.from_url(url, max_connections=max_connections, **common, **once_more)
        return deadlines.watched(client, timeout)
    auth = {"username": target.username, "password": target.password}
    if target.topology == CLUSTER:
        return RedisCluster(
            startup_nodes=[ClusterNode(host, port) for host, port in target.nodes],
            max_connections=max_connections,
            ssl=target.tls,
            **auth,
            **common,
        )
    sentinel = Sentinels(list(target.nodes), sentinel_kwargs={**auth, **common})
    client = sentinel.master_for(
        target.service,
        db=target.db,
        ssl=target.tls,
        max_connections=max_connections,
        **auth,
        **common,
        **once_more,
    )
    return deadlines.watched(client, timeout)


def is_cluster(client) -> bool:
    """Whether `client` talks to a Redis Cluster."""
    return isinstance(client, RedisCluster)
