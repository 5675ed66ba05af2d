"""Issue 22 (several gateway processes on one port): `parlour serve-gateway --workers 2`
runs two gateways on one port (SO_REUSEPORT); connections spread across them, a match
whose seats sit on different workers plays to the end with each seat's events delivered
once and in order, a worker that dies comes back, and SIGTERM drains both. Real
processes: Redis, a tinycards rules service, the gateway parent and its workers."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
import urllib.error

import grpc
import pytest

from parlour.client import GatewayClient
from parlour.gateway.fanout import RESUME_TRAILER
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.launcher import LocalStack, Process

WORKERS = 2
#: Its own connection per client: channels to one target otherwise share one.
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="SO_REUSEPORT spreading")


def worker_metrics(stack: LocalStack) -> list[Process]:
    """One Process per worker, for reading its /metrics (metrics_port + i)."""
    gateway = stack.gateway
    return [
        Process(f"worker{i}", gateway.port, gateway.popen, metrics_port=gateway.metrics_port + i)
        for i in range(WORKERS)
    ]


def subscribers(workers: list[Process]) -> list[float]:
    return [w.metric("parlour_subscribers") for w in workers]


async def until(condition, timeout: float = 20.0):
    """Poll `condition` (a plain function) until it returns something true; that value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = await asyncio.to_thread(condition)
        except (OSError, urllib.error.URLError):
            value = None
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


@pytest.fixture
def stack():
    env = {"PARLOUR_GATEWAY_WORKERS": str(WORKERS), "PARLOUR_HEARTBEAT_SECONDS": "0.5"}
    with LocalStack(["tinycards"], env=env) as running:
        workers = worker_metrics(running)
        asyncio.run(until(lambda: all(w.metric("process_cpu_seconds_total") for w in workers),
                          timeout=60.0))  # every worker up: slow on a loaded machine
        yield running


class Stream:
    """A raw Play stream (no client-side de-duplication) and everything it delivered."""

    def __init__(self, client: GatewayClient, match: str, metadata=()) -> None:
        self.client = client
        self.outbox: asyncio.Queue = asyncio.Queue()
        self.outbox.put_nowait(gw.PlayRequest(open=gw.OpenSession(match=match)))
        self.call = client.stub.Play(self._requests(), metadata=metadata)
        self.events: list[gw.MatchEvent] = []
        self.acks: asyncio.Queue = asyncio.Queue()
        self.opened = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def _requests(self):
        while (item := await self.outbox.get()) is not None:
            yield item

    async def _read(self) -> bool:
        """Read to the end; True if the match finished on this stream."""
        async for message in self.call:
            items = message.batch.items if message.HasField("batch") else [message]
            for item in items:
                kind = item.WhichOneof("kind")
                if kind == "opened":
                    self.opened.set()
                elif kind == "event":
                    self.events.append(item.event)
                elif kind == "ack":
                    self.acks.put_nowait(item.ack)
                elif kind == "finished":
                    self.outbox.put_nowait(None)
                    return True
        return False

    async def act(self, action) -> gw.ActionAck:
        self.outbox.put_nowait(
            gw.PlayRequest(
                action=gw.SubmitActionRequest(action=action, request_id=f"r{time.monotonic_ns()}")
            )
        )
        return await asyncio.wait_for(self.acks.get(), 20)

    async def close(self) -> None:
        self.call.cancel()
        await asyncio.gather(self.reader, return_exceptions=True)
        await self.client.close()


async def open_on_worker(stack, workers, match, metadata, avoid: int | None) -> tuple[Stream, int]:
    """A Play stream on a new connection, on any worker but `avoid`; with the worker's index."""
    for _ in range(30):
        before = subscribers(workers)
        stream = Stream(
            GatewayClient(stack.address, channel_options=OWN_CONNECTION), match, metadata
        )
        await asyncio.wait_for(stream.opened.wait(), 20)
        after = await until(lambda b=before: (now := subscribers(workers)) != b and now)
        worker = next(i for i in range(WORKERS) if after[i] > before[i])
        if worker != avoid:
            return stream, worker
        await stream.close()
        await until(lambda b=before: subscribers(workers) == b)
    raise AssertionError("30 connections all landed on one worker")


async def test_play_sessions_spread_across_the_workers(stack):
    """Sixteen clients, each its own connection: both workers serve some of the sessions."""
    workers = worker_metrics(stack)
    async with GatewayClient(stack.address) as client:
        match = await client.create_match("tinycards", 2, seed=3, spectators=True)
    streams = [
        Stream(GatewayClient(stack.address, channel_options=OWN_CONNECTION), match.name)
        for _ in range(16)
    ]
    try:
        await asyncio.gather(*(asyncio.wait_for(s.opened.wait(), 20) for s in streams))
        counts = await until(lambda: now if sum(now := subscribers(workers)) == 16 else None)
        assert all(count > 0 for count in counts), counts
    finally:
        for stream in streams:
            await stream.close()


async def test_a_match_across_two_workers_delivers_each_event_once_in_order(stack):
    """Seat 0's session on one worker, seat 1's on the other (the fan-out between gateways
    carries each commit across); each seat's live events equal what a fresh session on the
    finished match replays for it: none lost, none repeated, in sequence order."""
    workers = worker_metrics(stack)
    async with GatewayClient(stack.address) as client:
        match = await client.create_match("tinycards", 2, seed=11)
        seats = [await client.join(match.name, f"p{i}", seat=i) for i in range(2)]
        first, on_first = await open_on_worker(stack, workers, match.name, seats[0].metadata, None)
        second, on_second = await open_on_worker(
            stack, workers, match.name, seats[1].metadata, on_first
        )
        assert on_first != on_second
        streams = [first, second]
        try:
            for _ in range(500):
                progress = await seats[0].progress()
                if not progress.pending:
                    break
                mover = progress.pending[0].seat
                action = (await seats[mover].actions()).actions[0]
                ack = await streams[mover].act(action)
                assert ack.code == 0 and ack.HasField("response"), ack
            assert not progress.pending and progress.outcome.ByteSize()
            finished = await asyncio.wait_for(asyncio.gather(*(s.reader for s in streams)), 20)
            assert finished == [True, True]
            for seat, stream in zip(seats, streams, strict=True):
                sequences = [e.sequence for e in stream.events]
                assert sequences == sorted(set(sequences)) and sequences, sequences
                replay = Stream(GatewayClient(stack.address), match.name, seat.metadata)
                assert await asyncio.wait_for(replay.reader, 20)
                assert [e.SerializeToString() for e in stream.events] == [
                    e.SerializeToString() for e in replay.events
                ]
                await replay.close()
        finally:
            for stream in streams:
                await stream.close()


def worker_pids(parent: int) -> dict[int, int]:
    """The parent's workers: {index: pid}, from /proc (each worker's last argument)."""
    pids = {}
    with open(f"/proc/{parent}/task/{parent}/children") as listing:
        for pid in map(int, listing.read().split()):
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                argv = cmdline.read().split(b"\0")[:-1]
            if b"parlour.gateway.worker" in argv:
                pids[int(argv[-1])] = pid
    return pids


async def test_a_dead_worker_is_restarted_and_sigterm_drains_every_worker(stack):
    """A worker killed outright is started again with the same index (its /metrics port
    answers again); SIGTERM on the parent drains every worker (each ends its streams with
    UNAVAILABLE and the resume point, as one gateway does) and the parent exits 0."""
    workers = worker_metrics(stack)
    parent = stack.gateway.popen.pid
    before = worker_pids(parent)
    assert sorted(before) == list(range(WORKERS))
    os.kill(before[1], signal.SIGKILL)
    after = await until(
        lambda: (now := worker_pids(parent)).get(1, before[1]) != before[1] and now, timeout=30
    )
    assert after[0] == before[0]
    await until(lambda: workers[1].metric("process_cpu_seconds_total"))
    async with GatewayClient(stack.address) as client:
        match = await client.create_match("tinycards", 2, seed=7, spectators=True)
    # a session on each worker, the restarted one included: each is ended by its drain
    first, on_first = await open_on_worker(stack, workers, match.name, (), None)
    second, _ = await open_on_worker(stack, workers, match.name, (), on_first)
    stack.gateway.popen.send_signal(signal.SIGTERM)
    for stream in (first, second):
        with pytest.raises(grpc.aio.AioRpcError) as ended:
            await asyncio.wait_for(stream.reader, 20)
        assert ended.value.code() == grpc.StatusCode.UNAVAILABLE
        assert RESUME_TRAILER in dict(ended.value.trailing_metadata() or ())
        await stream.close()
    assert await asyncio.to_thread(stack.gateway.popen.wait, 30) == 0
    for pid in after.values():
        assert not os.path.exists(f"/proc/{pid}") or _zombie(pid), pid


def _zombie(pid: int) -> bool:
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0] == "Z"


async def test_grpc_shares_the_port_only_when_asked():
    """Without SO_REUSEPORT a second server cannot bind a port in use; with it both can."""
    from parlour.rpc import serving

    first, port, _ = serving.make_server(lambda s: None, [], "127.0.0.1:0", reuse_port=True)
    with pytest.raises(RuntimeError):
        serving.make_server(lambda s: None, [], f"127.0.0.1:{port}")
    second, again, _ = serving.make_server(lambda s: None, [], f"127.0.0.1:{port}", reuse_port=True)
    assert again == port and first is not second
