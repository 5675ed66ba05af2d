"""Issue 40 item 1: with replicas, a write is acknowledged only once a replica has it; one
not confirmed in time is refused NOT_REPLICATED, its events stay hidden from readers, and a
retry with the same request id is answered from its record, exactly once, once confirmed.
A real primary and replica (the shipped replicated.conf), the replica frozen by SIGSTOP."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import time
from pathlib import Path

import grpc
import pytest
import redis
from topologies import REPLICATED_CONF

from parlour.rpc.errors import classify
from parlour.settings import BadSetting
from parlour.store import connection, keys
from parlour.store.matchstore import MatchStore
from parlour.store.replication import NotReplicated, Replication, mark_key
from parlour.store.server import free_port, server_binary


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    """(primary port, replica port, replica process) of a replicated pair."""
    workdir = tmp_path_factory.mktemp("pair")
    ports = free_port(), free_port()
    procs = []
    for port, extra in zip(ports, ([], ["--replicaof", "127.0.0.1", str(ports[0])]), strict=True):
        config = workdir / f"node-{port}.conf"
        config.write_text(Path(REPLICATED_CONF).read_text())
        procs.append(subprocess.Popen(
            [server_binary(), str(config), "--port", str(port), "--dir", str(workdir),
             "--appenddirname", f"aof-{port}", "--save", "", *extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        ))  # fmt: skip
    replica = redis.Redis(port=ports[1])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if replica.info("replication").get("master_link_status") == "up":
                break
        except redis.RedisError:
            pass
        time.sleep(0.05)
    yield ports[0], ports[1], procs[1]
    for proc in procs:
        proc.kill()
        proc.wait()


def frozen_store(port: int) -> MatchStore:
    return MatchStore(
        connection.connect(f"redis://127.0.0.1:{port}/0"),
        replication=Replication(replicas=1, timeout_ms=300),
    )


async def test_unconfirmed_commit_is_refused_hidden_then_retried_once(pair):
    """A commit whose replica is frozen: NotReplicated (UNAVAILABLE NOT_REPLICATED), its
    events and progress not handed to readers; the replica back, the same request id gets
    the first answer (one action in the log) and readers see the events."""
    port, _, replica = pair
    store = frozen_store(port)
    match = "m" + str(time.monotonic_ns())
    try:
        assert await store.create_state(match, b"s1", b"p1", {"game": "g", "seats": "2"})
        first = await store.commit_action(
            match, 1, b"s2", [(b"e1", b"*", 0)], "r1", b"record-1", b"p2", logged_action=b"a1"
        )
        assert first.version == 2
        replica.send_signal(signal.SIGSTOP)
        try:
            with pytest.raises(NotReplicated) as refused:
                await store.commit_action(
                    match, 2, b"s3", [(b"e2", b"*", 1)], "r2", b"record-2", b"p3",
                    logged_action=b"a2",
                )  # fmt: skip
            refusal = classify(refused.value)
            assert (refusal.code, refusal.reason) == (grpc.StatusCode.UNAVAILABLE, "NOT_REPLICATED")
            assert [e.sequence for e in await store.events_after(match, 0)] == [1]
            assert await store.confirmed_progress(match) == (None, 2)
        finally:
            replica.send_signal(signal.SIGCONT)
        again = await store.commit_action(
            match, 2, b"s3", [(b"e2", b"*", 1)], "r2", b"record-2", b"p3", logged_action=b"a2"
        )
        assert (again.version, again.earlier, again.confirms) == (0, b"record-2", 3)
        assert [e.sequence for e in await store.events_after(match, 0)] == [1, 2]
        assert await store.confirmed_progress(match) == (b"p3", 2)
        assert (await store.match_log(match)).actions == [b"a1", b"a2"]
    finally:
        await store.close()


async def test_stored_but_unconfirmed_events_are_confirmed_by_a_reader(pair):
    """A commit whose confirmation never came (its committer gone): a reader holds its
    events back, then confirms them itself after the replication timeout."""
    port, _, _ = pair
    store = frozen_store(port)
    match = "m" + str(time.monotonic_ns())
    try:
        await store.create_state(match, b"s1", b"p1", {"game": "g", "seats": "2"})
        await store.commit_action(match, 1, b"s2", [(b"e1", b"*", 0)], "r1", b"x", b"p2")
        # what a committer that died between its WAIT and confirm.lua leaves behind
        await store.redis.hset(keys.state(match), "c", 1)
        assert await store.events_after(match, 0) == []
        deadline = time.monotonic() + 30
        while not await store.events_after(match, 0):
            assert time.monotonic() < deadline, "the reader never confirmed the events"
            await asyncio.sleep(0.05)
        assert int(await store.redis.hget(keys.state(match), "c")) == 2
    finally:
        await store.close()


async def test_an_unconfirmed_state_is_confirmed_before_it_is_loaded(pair):
    """A state whose commit is not confirmed (the replica frozen) is never loaded for a
    view: NotReplicated while the replica cannot have it, then loaded once confirmed."""
    port, _, replica = pair
    store = frozen_store(port)
    match = "m" + str(time.monotonic_ns())
    try:
        await store.create_state(match, b"s1", b"p1", {"game": "g", "seats": "2"})
        replica.send_signal(signal.SIGSTOP)
        try:
            with pytest.raises(NotReplicated):
                await store.commit_action(match, 1, b"s2", [(b"e1", b"*", 0)], "r1", b"x", b"p2")
            with pytest.raises(NotReplicated):
                await store.load(match)
        finally:
            replica.send_signal(signal.SIGCONT)
        loaded = await store.load(match)
        assert (loaded.version, loaded.data) == (2, b"s2")
        assert int(await store.redis.hget(keys.state(match), "c")) == 2
    finally:
        await store.close()


def test_replicas_default_by_topology_and_mark_keys_share_the_slot():
    """One replica through Sentinel or Cluster, none on one server, unless set; the mark
    key of any key lies in that key's Cluster slot."""
    assert Replication.from_env("standalone", {}).replicas == 0
    assert Replication.from_env("sentinel", {}).replicas == 1
    assert Replication.from_env("cluster", {}).replicas == 1
    given = {"PARLOUR_REDIS_REPLICAS_ACK": "2", "PARLOUR_REDIS_REPLICAS_FSYNC": "1"}
    assert Replication.from_env("standalone", given).wait == ("WAITAOF", 0, 2, 2000)
    with pytest.raises(BadSetting, match="PARLOUR_REDIS_REPLICAS_ACK"):
        Replication.from_env("cluster", {"PARLOUR_REDIS_REPLICAS_ACK": "-1"})
    from redis.crc import key_slot

    for key in (keys.state("abc"), keys.lobby(), keys.players("g", "v"), "plain"):
        assert key_slot(mark_key(key).encode()) == key_slot(key.encode())


async def test_a_replica_refusing_writes_is_unavailable_never_internal(pair):
    """Commits sent to a replica (a demoted primary): whether the script writes (READONLY) or
    not (a stale version: WAIT then refused on a replica), the call is UNAVAILABLE
    STORAGE_UNAVAILABLE, so clients retry."""
    port, replica_port, _ = pair
    primary = frozen_store(port)
    demoted = frozen_store(replica_port)
    match = "m" + str(time.monotonic_ns())
    try:
        await primary.create_state(match, b"s1", b"p1", {"game": "g", "seats": "2"})
        for expected_version in (1, 7):  # 1 writes; 7 is stale and writes nothing
            with pytest.raises(Exception) as refused:
                await demoted.commit_action(
                    match, expected_version, b"s", [(b"e", b"*", 0)], f"r{expected_version}",
                    b"x", b"p",
                )  # fmt: skip
            refusal = classify(refused.value)
            assert (refusal.code, refusal.reason) == (
                grpc.StatusCode.UNAVAILABLE, "STORAGE_UNAVAILABLE"
            ), refused.value
    finally:
        await primary.close()
        await demoted.close()
