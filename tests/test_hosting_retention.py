"""Issue 10 item 5: retention. Finished matches are kept for a set time, abandoned ones expire
after a set idle time, every key of a match goes together, a host can delete a match, Redis
memory returns to its baseline, and a match in play never expires."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time

import pytest
import redis.asyncio as aioredis

from parlour.client import GatewayClient
from parlour.client.bots import play_random_match
from parlour.settings import BadSetting
from parlour.store import keys
from parlour.store.matchstore import MatchStore, retained_keys
from parlour.store.retention import Retention
from parlour.store.server import EmbeddedRedis
from stack import running_stack

pytestmark = pytest.mark.xdist_group("retention")
GAME = "tinycards"
SEEDS = range(10)
META = {"game": GAME, "seats": "2"}
TOLERANCE = 8 * 1024  # bytes; ten finished matches hold about ten times that


@pytest.fixture
def own_redis():
    """A Redis of this test's own, so its memory and key count are this test's alone."""
    with EmbeddedRedis() as server:
        yield server.url


def match_id(match) -> str:
    return match.name.removeprefix("matches/")


async def wait_until(condition, what: str, timeout: float = 30.0) -> None:
    """Poll an async condition until true (expiry is Redis's clock, not ours)."""
    deadline = time.monotonic() + timeout
    while not await condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def used_memory(client) -> int:
    """Bytes Redis holds for data (used_memory less client buffers and fixed overhead), so
    the measuring connection's own replies do not count."""
    return int((await client.info("memory"))["used_memory_dataset"])


def test_retention_settings_are_checked():
    """Item 5: the settings are read from the environment and refused when malformed."""
    env = {"PARLOUR_FINISHED_RETENTION_SECONDS": "60", "PARLOUR_ABANDONED_AFTER_SECONDS": "0"}
    assert Retention.from_env(env) == Retention(finished_seconds=60, abandoned_seconds=0)
    assert Retention.from_env({}) == Retention(86_400, 604_800)
    with pytest.raises(BadSetting, match="PARLOUR_FINISHED_RETENTION_SECONDS: .*integer"):
        Retention.from_env({"PARLOUR_FINISHED_RETENTION_SECONDS": "soon"})
    with pytest.raises(BadSetting, match="PARLOUR_ABANDONED_AFTER_SECONDS: .*greater than"):
        Retention.from_env({"PARLOUR_ABANDONED_AFTER_SECONDS": "-5"})


async def test_finished_matches_expire_and_memory_returns_to_baseline(own_redis, monkeypatch):
    """Item 5: after matches finish and their retention passes, every key of theirs is gone
    (the players' ratings stay, issue 36) and Redis's used memory is back at the baseline
    measured before them."""
    monkeypatch.setenv("PARLOUR_FINISHED_RETENTION_SECONDS", "2")
    redis = aioredis.from_url(own_redis)
    try:
        async with running_stack(own_redis, games=(GAME,)) as (address, _gateway):
            async with GatewayClient(address) as client:
                # warm-up, as many at once: scripts loaded, connections and buffers made
                await asyncio.gather(*(play_random_match(client, GAME, 2, seed=s) for s in SEEDS))
                await wait_until(lambda: _empty(redis), "the warm-up matches to expire")
                await wait_until(lambda: _freed(redis), "Redis to free the expired keys")
                baseline = await used_memory(redis)
                reports = await asyncio.gather(
                    *(play_random_match(client, GAME, 2, seed=100 + s) for s in SEEDS)
                )
                assert all(r.progress.HasField("outcome") for r in reports)
                held, stored = await used_memory(redis), await redis.dbsize()
                await wait_until(lambda: _empty(redis), "finished matches to expire")
                await wait_until(lambda: _freed(redis), "Redis to free the expired keys")
                # transient allocations (a blocked read, a reply in flight) come and go:
                # wait until the data memory is back, or fail with what it stayed at
                readings: list[int] = []

                async def back_at_baseline() -> bool:
                    readings.append(await used_memory(redis))
                    return readings[-1] <= baseline + TOLERANCE

                try:
                    await wait_until(back_at_baseline, "memory back at the baseline", 30)
                except AssertionError:
                    pass
                after = min(readings)
    finally:
        await redis.aclose()
    assert stored > 0 and held > baseline + TOLERANCE  # finished matches were really held
    assert after <= baseline + TOLERANCE, (baseline, held, after)


def _durable(key: bytes) -> bool:
    """Players' ratings stay (issue 36: they are people's, not a match's); a match's
    `rated` marker expires with it."""
    name = key.decode()
    return name.startswith("parlour:played:") or (
        name.startswith("parlour:{rate:") and ":rated:" not in name
    )


async def _empty(redis) -> bool:
    """Every key of every match gone (the players' ratings aside): DBSIZE also counts keys
    past their expiry that Redis has not reclaimed yet, SCAN does not list them."""
    durable = [key async for key in redis.scan_iter("*") if _durable(key)]
    return await redis.dbsize() == len(durable)


async def _freed(redis) -> bool:
    """No expired object still waiting for the background free (lazyfree)."""
    return int((await redis.info("memory"))["lazyfree_pending_objects"]) == 0


async def test_abandoned_match_expires_but_a_match_in_play_never_does(own_redis):
    """Item 5: a match with no activity for the abandoned time expires whole; one whose
    actions keep coming has its expiry pushed out by every action and survives."""
    retention = Retention(finished_seconds=0, abandoned_seconds=2)
    store = MatchStore.from_url(own_redis, retention=retention)
    try:
        for match in ("idle", "busy"):
            assert await store.create_state(match, b"state", b"progress", META)
        for match in ("idle", "busy"):
            for key in (keys.meta(match), keys.state(match)):
                assert 0 < await store.redis.ttl(key) <= 2
        version = 1
        # "busy" commits an action more often than the abandoned time, across more than two
        # abandoned times in all; "idle" does nothing
        deadline = time.monotonic() + 4.5
        while time.monotonic() < deadline:
            await asyncio.sleep(0.2)  # the pace of play, not a wait for a result
            before = await store.redis.pttl(keys.state("busy"))
            version, _ = await store.commit("busy", version, b"s", [(b"e", b"*", 0)], "", b"", b"p")
            assert await store.redis.pttl(keys.state("busy")) > before
        assert await store.redis.exists(*keys.all_for("idle")) == 0
        assert await store.redis.exists(*retained_keys("busy")[:3]) == 3
        # finishing with finished retention 0 keeps the match for good
        await store.commit("busy", version, b"s", [(b"e", b"*", 0)], "", b"", b"p", "finished")
        for key in retained_keys("busy")[:3]:
            assert await store.redis.ttl(key) == -1
    finally:
        await store.close()


async def test_finishing_sets_the_finished_retention_on_every_key(redis_url, match_id):
    """Item 5: the commit that finishes a match sets every key of the match to the finished
    retention (request records keep their shorter time)."""
    retention = Retention(finished_seconds=600, abandoned_seconds=60)
    store = MatchStore.from_url(redis_url, retention=retention, finished_request_ttl=30)
    try:
        await store.create_state(match_id, b"state", b"progress", META)
        await store.commit(match_id, 1, b"s", [(b"e", b"*", 0)], "r1", b"rec", b"p", "finished")
        for key in retained_keys(match_id)[:3]:
            assert 590 < await store.redis.ttl(key) <= 600
        assert 0 < await store.redis.ttl(keys.requests(match_id)) <= 30
        # later activity (a seat left) does not extend a finished match
        await store.keep(match_id)
        assert 590 < await store.redis.ttl(keys.state(match_id)) <= 600
    finally:
        await store.close()


async def test_host_deletes_a_match_from_the_cli(redis_url, match_id):
    """Item 5: `parlour match delete` removes every key of a match; `show` then finds none.
    (The public player API has no delete call.)"""
    store = MatchStore.from_url(redis_url)
    try:
        await store.create_state(match_id, b"state", b"progress", META)
        shown = _cli("match", "show", match_id, redis_url=redis_url)
        assert shown.returncode == 0 and f"game={GAME}" in shown.stdout
        deleted = _cli("match", "delete", match_id, redis_url=redis_url)
        assert deleted.returncode == 0 and "deleted" in deleted.stdout
        assert await store.redis.exists(*keys.all_for(match_id)) == 0
        again = _cli("match", "delete", match_id, redis_url=redis_url)
        assert again.returncode == 1 and "not found" in again.stdout
    finally:
        await store.close()


def _cli(*args: str, redis_url: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "parlour.cli", *args],
        capture_output=True,
        text=True,
        env={"PARLOUR_REDIS_URL": redis_url, "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
