"""Issue 40: no read shows a player what a fail-over could still take back. A commit stored on
the primary but not confirmed by its (frozen) replica is refused NOT_REPLICATED; until the
replica confirms it, GetMatch, GetView, ListActions and ListMyMatches show the version
before it or are refused UNAVAILABLE (retryable), never the unconfirmed one. Real primary
and replica from the shipped replicated.conf, real gateway and rules service."""

from __future__ import annotations

import signal

import grpc
import pytest
import redis
from failover_drill import reason_of
from identity_helpers import identity_stack
from topologies import LocalPair

from parlour.client import GatewayClient
from parlour.store import keys

pytestmark = pytest.mark.xdist_group("redis-topologies")
GAME = "tinycards"


async def shown_versions(seat, player: GatewayClient) -> dict[str, int | str]:
    """What each read shows of the match: its version, or the code and reason it was
    refused with."""
    reads = {
        "GetMatch": lambda: player.match(seat.match),
        "GetView": seat.get_view,
        "ListActions": seat.actions,
        "ListMyMatches": player.my_matches,
    }
    shown: dict[str, int | str] = {}
    for name, read in reads.items():
        try:
            answer = await read()
        except grpc.aio.AioRpcError as error:
            shown[name] = f"{error.code().name} {reason_of(error)}"
            continue
        if name == "ListMyMatches":
            answer = next(mine.match for mine in answer if mine.match.name == seat.match)
        shown[name] = answer.progress.version
    return shown


async def test_reads_never_show_a_commit_its_replica_has_not_confirmed(monkeypatch, provider):
    """The replica frozen: an action is refused NOT_REPLICATED though the primary stores
    it; every read then shows the version before it or is refused UNAVAILABLE; the replica
    back, the retried action is answered once and every read shows it."""
    monkeypatch.setenv("PARLOUR_REDIS_REPLICAS_ACK", "1")
    monkeypatch.setenv("PARLOUR_REDIS_REPLICATION_TIMEOUT_MS", "300")
    # the primary keeps taking writes while its replica is frozen (no NOREPLICAS)
    with LocalPair(extra=("--min-replicas-max-lag", "600")) as pair:
        primary = redis.Redis(port=pair.primary_port)
        async with identity_stack(pair.url, provider) as (address, gateway):
            # the gateway tries its rules replicas again for up to 10 s when they answer
            # UNAVAILABLE (as NOT_REPLICATED is): one second is enough here
            gateway.router.failover_seconds = 1.0
            async with (
                GatewayClient(address, identity_token=provider.token("alice")) as alice,
                GatewayClient(address, identity_token=provider.token("bob")) as bob,
            ):
                match = await alice.create_match(GAME, 2, seed=7)
                seats = [await alice.join(match.name, "Alice", seat=0),
                         await bob.join(match.name, "Bob", seat=1)]  # fmt: skip
                players = [alice, bob]
                before = (await seats[0].get_view()).progress
                mover = before.pending[0].seat
                action = (await seats[mover].actions()).actions[0]
                state = keys.state(match.name.removeprefix("matches/"))
                pair.signal(pair.replica_port, signal.SIGSTOP)
                try:
                    with pytest.raises(grpc.aio.AioRpcError) as refused:
                        await seats[mover].submit(action, request_id="r1", timeout=30)
                    assert (refused.value.code(), reason_of(refused.value)) == (
                        grpc.StatusCode.UNAVAILABLE, "NOT_REPLICATED"
                    )  # fmt: skip
                    stored, confirmed = map(int, primary.hmget(state, "v", "c"))
                    assert (stored, confirmed) == (before.version + 1, before.version)
                    for seat, player in zip(seats, players, strict=True):
                        for read, shown in (await shown_versions(seat, player)).items():
                            assert shown in (before.version, "UNAVAILABLE NOT_REPLICATED"), (
                                read, shown
                            )  # fmt: skip
                finally:
                    pair.signal(pair.replica_port, signal.SIGCONT)
                again = await seats[mover].submit(action, request_id="r1", timeout=30)
                assert again.result.progress.version == before.version + 1
                for seat, player in zip(seats, players, strict=True):
                    shown = await shown_versions(seat, player)
                    assert set(shown.values()) == {before.version + 1}, shown
