"""Real Redis Cluster and Sentinel setups on loopback, from the project's own valkey-server,
their data nodes configured by the shipped deploy/redis/replicated.conf."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis

from parlour.store.server import free_port, server_binary

SLOTS = 16384
DEPLOY = Path(__file__).resolve().parent.parent / "deploy" / "redis"
#: What every replicated data node runs with (min-replicas-to-write 1 and the rest).
REPLICATED_CONF = str(DEPLOY / "replicated.conf")
#: The sentinels' silence before a primary counts as down: the shipped 5000 ms, shortened
#: for quick tests but not to the 1000 ms that flapped (issue 40).
DOWN_AFTER_MS = 3000


def _wait(condition, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _answers(port: int) -> bool:
    try:
        return bool(redis.Redis(port=port, socket_timeout=0.5).ping())
    except redis.RedisError:
        return False


@dataclass
class _Servers:
    """valkey-server processes in one scratch directory."""

    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="parlour-topo-")))
    processes: list[subprocess.Popen] = field(default_factory=list)
    #: The running process and the arguments of each port (to restart it).
    by_port: dict[int, subprocess.Popen] = field(default_factory=dict)
    argv: dict[int, list[str]] = field(default_factory=dict)

    def spawn(self, port: int, *args: str, data: bool = True) -> subprocess.Popen:
        """A server on `port`; a data node reads (a copy of) the shipped replicated.conf."""
        config = []
        if data:  # a copy: Sentinel has a node rewrite its file when it reconfigures it
            config = [str(self.workdir / f"node-{port}.conf")]
            shutil.copy(REPLICATED_CONF, config[0])
        argv = [server_binary(), *config, *args]
        argv += ["--port", str(port), "--bind", "127.0.0.1", "--dir", str(self.workdir)]
        argv += ["--save", "", "--loglevel", "warning"]
        if data:
            argv += ["--appendfilename", f"appendonly-{port}.aof"]
            argv += ["--appenddirname", f"aof-{port}"]
        self.argv[port] = argv
        return self._run(port, argv)

    def _run(self, port: int, argv: list[str]) -> subprocess.Popen:
        proc = subprocess.Popen(
            argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        self.processes.append(proc)
        self.by_port[port] = proc
        _wait(lambda: _answers(port), f"valkey on port {port}")
        return proc

    def signal(self, port: int, sig: int) -> None:
        """Send `sig` to the server on `port` (SIGKILL: and reap it)."""
        proc = self.by_port[port]
        os.kill(proc.pid, sig)
        if sig == signal.SIGKILL:
            proc.wait()

    def restart(self, port: int, *extra: str) -> None:
        """Start a killed server again on its port, with its arguments and `extra`."""
        self._run(port, [*self.argv[port], *extra])

    def stop(self) -> None:
        for proc in self.processes:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.processes:
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        shutil.rmtree(self.workdir, ignore_errors=True)


@dataclass
class LocalPair(_Servers):
    """A primary and its replica (no Sentinel: nothing fails over), each from the shipped
    replicated.conf plus `extra`; a replica to freeze."""

    extra: tuple[str, ...] = ()
    primary_port: int = 0
    replica_port: int = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.primary_port}/0"

    def start(self) -> LocalPair:
        try:
            self.primary_port, self.replica_port = free_port(), free_port()
            self.spawn(self.primary_port, *self.extra)
            self.spawn(
                self.replica_port, *self.extra, "--replicaof", "127.0.0.1", str(self.primary_port)
            )
            _wait(self._linked, "the replica to follow its primary")
        except BaseException:
            self.stop()
            raise
        return self

    def _linked(self) -> bool:
        link = redis.Redis(port=self.replica_port).info("replication")
        return link.get("master_link_status") == "up"

    def __enter__(self) -> LocalPair:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@dataclass
class LocalCluster(_Servers):
    """A Redis Cluster of `masters` primaries, slots split evenly, each with `replicas`
    replicas."""

    masters: int = 3
    replicas: int = 1
    ports: list[int] = field(default_factory=list)
    bus_ports: list[int] = field(default_factory=list)
    replica_ports: list[int] = field(default_factory=list)

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def start(self) -> LocalCluster:
        try:
            for index in range(self.masters):
                port, bus = free_port(), free_port()
                self.ports.append(port)
                self.bus_ports.append(bus)
                self._node(port, bus)
                first = index * SLOTS // self.masters
                last = (index + 1) * SLOTS // self.masters - 1
                redis.Redis(port=port).execute_command("CLUSTER ADDSLOTSRANGE", first, last)
            head = redis.Redis(port=self.ports[0])
            for port, bus in zip(self.ports[1:], self.bus_ports[1:], strict=True):
                head.execute_command("CLUSTER MEET", "127.0.0.1", port, bus)
            _wait(lambda: self._known(self.masters), "the masters to meet")
            for master in list(self.ports):
                master_id = redis.Redis(port=master).execute_command("CLUSTER MYID")
                for _ in range(self.replicas):
                    port, bus = free_port(), free_port()
                    self._node(port, bus)
                    head.execute_command("CLUSTER MEET", "127.0.0.1", port, bus)
                    self.replica_ports.append(port)
                    _wait(lambda p=port, m=master_id: self._knows(p, m), "a replica to meet")
                    redis.Redis(port=port).execute_command("CLUSTER REPLICATE", master_id)
            _wait(self._ready, "cluster_state:ok on every node")
        except BaseException:
            self.stop()
            raise
        return self

    def _node(self, port: int, bus: int) -> None:
        self.spawn(
            port,
            "--cluster-enabled", "yes",
            "--cluster-config-file", f"nodes-{port}.conf",
            "--cluster-node-timeout", "3000",
            "--cluster-port", str(bus),
            *([] if self.replicas else ["--min-replicas-to-write", "0"]),
        )  # fmt: skip

    @property
    def all_ports(self) -> list[int]:
        return self.ports + self.replica_ports

    @staticmethod
    def _knows(port: int, node_id) -> bool:
        nodes = redis.Redis(port=port, decode_responses=True).execute_command("CLUSTER NODES")
        name = node_id.decode() if isinstance(node_id, bytes) else node_id
        return name in str(nodes)

    def _known(self, count: int) -> bool:
        return all(
            int(redis.Redis(port=p).cluster("INFO")["cluster_known_nodes"]) >= count
            for p in self.all_ports
        )

    def _ready(self) -> bool:
        for port in self.all_ports:
            if not _answers(port):
                return False
            info = redis.Redis(port=port).cluster("INFO")
            if info["cluster_state"] != "ok" or int(info["cluster_known_nodes"]) != len(
                self.all_ports
            ):
                return False
            role = redis.Redis(port=port).info("replication")
            if role["role"] == "slave" and role.get("master_link_status") != "up":
                return False
        return True

    def primaries(self) -> list[int]:
        """The ports of the nodes serving slots as primaries now."""
        return [
            p for p in self.all_ports
            if _answers(p) and redis.Redis(port=p).info("replication")["role"] == "master"
        ]  # fmt: skip

    def primary_of(self, port: int) -> int | None:
        """The primary a replica follows (None: it is a primary)."""
        info = redis.Redis(port=port).info("replication")
        return None if info["role"] == "master" else int(info["master_port"])

    def wait_promoted(self, old: int, timeout: float = 60.0) -> int:
        """Until a replica of `old` (a primary gone or frozen) serves its slots; its port."""
        replicas = [p for p in self.all_ports if p != old and _answers(p)]
        followers = [p for p in replicas if self.primary_of(p) == old]

        def promoted() -> bool:
            return any(
                _answers(p) and redis.Redis(port=p).info("replication")["role"] == "master"
                for p in followers
            ) and all(
                redis.Redis(port=p).cluster("INFO")["cluster_state"] == "ok" for p in replicas
            )

        _wait(promoted, "a replica to take the slots over", timeout)
        return next(p for p in followers if self.primary_of(p) is None)

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until every slot is served and every replica is in sync."""
        _wait(self._ready, "the cluster to be whole again", timeout)

    def __enter__(self) -> LocalCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@dataclass
class LocalSentinel(_Servers):
    """A primary, one replica and three sentinels (quorum 2) watching service `service`."""

    service: str = "parlour"
    primary_port: int = 0
    replica_port: int = 0
    sentinel_ports: list[int] = field(default_factory=list)

    @property
    def url(self) -> str:
        hosts = ",".join(f"127.0.0.1:{p}" for p in self.sentinel_ports)
        return f"redis+sentinel://{hosts}/{self.service}/0"

    def start(self) -> LocalSentinel:
        try:
            self.primary_port, self.replica_port = free_port(), free_port()
            self.spawn(self.primary_port)
            self.spawn(self.replica_port, "--replicaof", "127.0.0.1", str(self.primary_port))
            for _ in range(3):
                port = free_port()
                config = self.workdir / f"sentinel-{port}.conf"
                config.write_text(
                    f"sentinel monitor {self.service} 127.0.0.1 {self.primary_port} 2\n"
                    f"sentinel down-after-milliseconds {self.service} {DOWN_AFTER_MS}\n"
                    f"sentinel failover-timeout {self.service} 10000\n"
                )
                self.sentinel_ports.append(port)
                self.spawn(port, str(config), "--sentinel", data=False)
            _wait(self._ready, "sentinels agreeing on a primary with a replica")
        except BaseException:
            self.stop()
            raise
        return self

    def _ready(self) -> bool:
        for port in self.sentinel_ports:
            state = redis.Redis(port=port).sentinel_master(self.service)
            if state["num-slaves"] < 1 or state["num-other-sentinels"] < 2:
                return False
        link = redis.Redis(port=self.replica_port).info("replication")
        return link.get("master_link_status") == "up"

    def _whole(self, primary: int) -> bool:
        other = self.replica_port if primary == self.primary_port else self.primary_port
        if not (_answers(other) and self._everyone_names(primary)):
            return False
        link = redis.Redis(port=other).info("replication")
        return link.get("master_link_status") == "up" and int(link["master_port"]) == primary

    def wait_whole(self, timeout: float = 60.0) -> int:
        """Until every sentinel names one primary and the other server replicates it; its
        port."""
        found: list[int] = []

        def whole() -> bool:
            found[:] = [self.primary()]
            return self._whole(found[0])

        _wait(whole, "a primary with an in-sync replica", timeout)
        return found[0]

    def wait_promoted(self, old: int, timeout: float = 60.0) -> int:
        """Until the sentinels name a primary other than `old`; its port."""
        _wait(lambda: self.primary() != old, "a fail-over", timeout)
        new = self.primary()
        _wait(lambda: redis.Redis(port=new).info("replication")["role"] == "master", "promotion")
        return new

    def primary(self) -> int:
        """The port the sentinels name as primary now."""
        sentinel = redis.Redis(port=self.sentinel_ports[0])
        return int(sentinel.sentinel_get_master_addr_by_name(self.service)[1])

    def fail_over(self) -> int:
        """Promote the replica (once it has every write) and wait until all agree and the old
        primary replicates it; its port."""
        old = self.primary()
        other = self.replica_port if old == self.primary_port else self.primary_port
        primary = redis.Redis(port=old)
        offset = primary.info("replication")["master_repl_offset"]
        replica = redis.Redis(port=other)
        _wait(
            lambda: replica.info("replication").get("slave_repl_offset", 0) >= offset,
            "the replica to catch up",
        )
        redis.Redis(port=self.sentinel_ports[0]).sentinel_failover(self.service)
        _wait(lambda: self._everyone_names(other), "the sentinels to name the new primary")
        _wait(lambda: redis.Redis(port=other).info("replication")["role"] == "master", "promotion")
        # writes are refused (NOREPLICAS) until the old primary replicates the new one
        _wait(lambda: self._whole(other), "the old primary to replicate the new one")
        return other

    def _everyone_names(self, port: int) -> bool:
        for sentinel_port in self.sentinel_ports:
            named = redis.Redis(port=sentinel_port).sentinel_get_master_addr_by_name(self.service)
            if int(named[1]) != port:
                return False
        return True

    def __enter__(self) -> LocalSentinel:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
