"""Issue 40 item 3: history is never rewritten under a client. When the store lost events a
gateway had delivered (a fail-over despite the replication wait, simulated here by putting a
match's stored state and stream back to an earlier point), the gateway ends the streams past
it with OUT_OF_RANGE HISTORY_REWOUND (the stored last sequence in the details), counts the
lost events, and the SDK re-syncs from the stored history instead of being refused for ever."""

from __future__ import annotations

import asyncio

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from parlour.client import GatewayClient
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rpc import metrics
from parlour.store import keys
from parlour.store.matchstore import MatchStore
from stack import running_stack


def cursor_of(item: gw.StreamEventsResponse) -> int:
    """The last sequence a stream message stands for."""
    if item.HasField("heartbeat"):
        return item.heartbeat.last_sequence
    events = item.batch.events if item.HasField("batch") else [item.event]
    return max((e.sequence for e in events), default=0)


async def act(seats, times: int) -> None:
    """`times` first legal actions of whoever is to act."""
    for _ in range(times):
        progress = (await seats[0].get_view()).progress
        if progress.HasField("outcome"):
            return
        player = seats[progress.pending[0].seat]
        await player.submit((await player.actions()).actions[0])


async def test_lost_delivered_events_end_streams_rewound_and_the_sdk_resyncs(redis_url):
    """Events 1..n delivered, the store put back to k < n: the open stream ends
    HISTORY_REWOUND with last_sequence k, the metric counts n - k, and the SDK's stream goes
    on after k with the new history."""
    store = MatchStore.from_url(redis_url)
    async with running_stack(redis_url, heartbeat_seconds=0.3) as (address, _gateway):
        async with GatewayClient(address) as client:
            match = await client.create_match("tinycards", 2, seed=7, spectators=True)
            match_id = match.name.removeprefix("matches/")
            seats = [await client.join(match.name, f"p{i}", seat=i) for i in range(2)]
            await act(seats, 2)
            snapshot = await store.redis.hgetall(keys.state(match_id))
            kept = int(snapshot[b"q"])
            await act(seats, 3)
            delivered = (await seats[0].get_view()).progress.last_sequence
            assert delivered > kept

            raw = client.stub.StreamEvents(gw.StreamEventsRequest(match=match.name))
            sdk_seen: list[int] = []
            sdk_cursor = [0]

            async def follow_with_sdk():
                async for item in client.spectate(match.name):
                    if item.HasField("event"):
                        sdk_seen.append(item.event.sequence)
                    sdk_cursor[0] = cursor_of(item)

            sdk = asyncio.create_task(follow_with_sdk())
            last_raw = 0
            async with asyncio.timeout(30):
                async for item in raw:  # everything stored so far (some private), heartbeats
                    last_raw = max(last_raw, cursor_of(item))
                    if last_raw >= delivered:
                        break
                while sdk_cursor[0] < delivered:
                    await asyncio.sleep(0.05)
            before = metrics.EVENTS_REWOUND._value.get()

            # what a fail-over that lost commits leaves: the state and stream of version k
            await store.redis.hset(keys.state(match_id), mapping=snapshot)
            stream = keys.events(match_id)
            older = await store.redis.xrange(stream, max=f"{kept}-0")
            await store.redis.delete(stream)
            for entry_id, fields in older:
                await store.redis.xadd(stream, fields, id=entry_id)
            await store.confirm_stored(match_id)  # a commit notice to every gateway

            try:
                async with asyncio.timeout(30):
                    async for _ in raw:
                        pass
                raise AssertionError("the stream went on past lost events")
            except grpc.aio.AioRpcError as error:
                assert error.code() == grpc.StatusCode.OUT_OF_RANGE
                info = error_details_pb2.ErrorInfo()
                status = rpc_status.from_call(error)
                assert any(d.Unpack(info) for d in status.details)
                assert info.reason == "HISTORY_REWOUND"
                assert info.metadata["last_sequence"] == str(kept)
            assert metrics.EVENTS_REWOUND._value.get() - before == delivered - kept

            # the game goes on from version k; the SDK's stream shows the new history
            await act(seats, 1)
            now = (await seats[0].get_view()).progress.last_sequence
            async with asyncio.timeout(30):
                while sdk_cursor[0] != now or sdk_cursor[0] <= kept:
                    await asyncio.sleep(0.05)
            sdk.cancel()
            # after the rewind the SDK's stream starts again after `kept`, with what is stored
            again = [s for s in sdk_seen if s > kept]
            stored = await store.events_after(match_id, kept)
            assert again[-len([e for e in stored if e.visible_to(None)]):] == [
                e.sequence for e in stored if e.visible_to(None)
            ]
            assert len(again) > len(set(again)) or not stored
    await store.close()
