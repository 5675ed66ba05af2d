"""Real Redis Cluster and Sentinel setups on loopback, from the project's own valkey-server."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis

from parlour.store.server import free_port, server_binary

SLOTS = 16384


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

    def spawn(self, port: int, *args: str) -> subprocess.Popen:
        argv = [server_binary(), *args, "--port", str(port), "--bind", "127.0.0.1"]
        argv += ["--dir", str(self.workdir), "--save", "", "--appendonly", "no"]
        argv += ["--loglevel", "warning"]
        proc = subprocess.Popen(
            argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        self.processes.append(proc)
        _wait(lambda: _answers(port), f"valkey on port {port}")
        return proc

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
class LocalCluster(_Servers):
    """A Redis Cluster of `masters` primaries, slots split evenly, no replicas."""

    masters: int = 3
    ports: list[int] = field(default_factory=list)
    bus_ports: list[int] = field(default_factory=list)

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def start(self) -> LocalCluster:
        try:
            for index in range(self.masters):
                port, bus = free_port(), free_port()
                self.ports.append(port)
                self.bus_ports.append(bus)
                self.spawn(
                    port,
                    "--cluster-enabled", "yes",
                    "--cluster-config-file", f"nodes-{port}.conf",
                    "--cluster-node-timeout", "2000",
                    "--cluster-port", str(bus),
                )  # fmt: skip
                first = index * SLOTS // self.masters
                last = (index + 1) * SLOTS // self.masters - 1
                redis.Redis(port=port).execute_command("CLUSTER ADDSLOTSRANGE", first, last)
            head = redis.Redis(port=self.ports[0])
            for port, bus in zip(self.ports[1:], self.bus_ports[1:], strict=True):
                head.execute_command("CLUSTER MEET", "127.0.0.1", port, bus)
            _wait(self._ready, "cluster_state:ok on every node")
        except BaseException:
            self.stop()
            raise
        return self

    def _ready(self) -> bool:
        for port in self.ports:
            info = redis.Redis(port=port).cluster("INFO")
            if info["cluster_state"] != "ok" or int(info["cluster_known_nodes"]) != self.masters:
                return False
        return True

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
                    f"sentinel down-after-milliseconds {self.service} 1000\n"
                    f"sentinel failover-timeout {self.service} 5000\n"
                )
                self.sentinel_ports.append(port)
                self.spawn(port, str(config), "--sentinel")
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

    def primary(self) -> int:
        """The port the sentinels name as primary now."""
        sentinel = redis.Redis(port=self.sentinel_ports[0])
        return int(sentinel.sentinel_get_master_addr_by_name(self.service)[1])

    def fail_over(self) -> int:
        """Promote the replica (once it has every write) and wait until all agree; its port."""
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
