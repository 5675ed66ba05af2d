"""Issue 9, items 4 and 15: idempotency that lasts the whole match, atomic match creation."""

from __future__ import annotations

import asyncio
import contextlib

import grpc

from parlour.client import GatewayClient
from parlour.engine import LocalMatch
from parlour.engine.registry import get_game
from parlour.gateway.config import GatewayConfig
from parlour.gateway.server import Gateway
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.rules import server as rules_server
from parlour.store import keys
from parlour.store.matchstore import MatchStore
from stack import running_stack

#: Redis bytes the request records of one match may cost per accepted action.
RECORD_BUDGET_BYTES = 100
GAME, SEATS, LONG = "isayholmes", 8, 1030


def long_match_seed() -> int:
    """A seed whose match, always playing the last legal action, outlasts LONG actions."""
    for seed in range(200):
        match, played = LocalMatch(GAME, SEATS, seed=seed), 0
        while match.outcome is None:
            seat = match.pending[0].seat
            match.act(seat, match.legal_actions(seat)[-1])
            played += 1
        if played > LONG:
            return seed
    raise AssertionError(f"no {GAME} seed plays more than {LONG} actions")


async def test_item4_a_retry_is_never_applied_twice_in_a_long_match(redis_url):
    """Item 4: after more than 1,024 later actions, retrying the first request id returns
    its first answer (replayed) and applies nothing; records stay within the budget."""
    seed = long_match_seed()
    async with running_stack(redis_url, games=(GAME,)) as (address, _):
        async with GatewayClient(address) as client:
            match = await client.create_match(GAME, SEATS, seed=seed)
            players = [await client.join(match.name, f"p{i}") for i in range(SEATS)]
            progress = await players[0].progress()
            answers: list[tuple[str, object, gw.SubmitActionResponse]] = []
            while not progress.HasField("outcome"):
                seat = progress.pending[0].seat
                action = (await players[seat].actions()).actions[-1]
                request_id = f"action-{len(answers)}"
                response = await players[seat].submit(action, request_id=request_id)
                answers.append((request_id, (seat, action), response))
                progress = response.result.progress
            assert len(answers) > LONG, "the match must outlast the old 1,024-record window"
            for request_id, (seat, action), first in answers[:3] + answers[-3:]:
                again = await players[seat].submit(action, request_id=request_id)
                assert again.replayed and again.result == first.result
            final = await client.match(match.name)
            assert final.progress.version == 1 + len(answers), "a retry was applied again"

            store = MatchStore.from_url(redis_url)
            try:
                match_id = match.name.removeprefix("matches/")
                used = await store.redis.memory_usage(keys.requests(match_id), samples=0)
            finally:
                await store.close()
            per_action = used / len(answers)
            print(f"request records: {per_action:.0f} B per action over {len(answers)} actions")
            assert per_action <= RECORD_BUDGET_BYTES, f"{per_action:.0f} B per action"


class FreezableProxy:
    """A TCP relay between the gateway and a rules service that can stop forwarding the
    gateway's bytes, and reports when the gateway then starts a new call (HTTP/2 HEADERS)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.frozen = False
        self.call_started = asyncio.Event()
        self.server: asyncio.Server | None = None
        self.tasks: set[asyncio.Task] = set()

    async def start(self) -> int:
        self.server = await asyncio.start_server(self.relay, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def relay(self, reader, writer) -> None:
        self.tasks.add(asyncio.current_task())
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        down = asyncio.create_task(self.pipe(up_reader, writer, watch=False))
        self.tasks.add(down)
        await self.pipe(reader, up_writer, watch=True)

    async def pipe(self, reader, writer, watch: bool) -> None:
        buffer, preface = b"", watch
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(65536):
                if watch:
                    buffer += data
                    if preface and len(buffer) >= 24:
                        buffer, preface = buffer[24:], False
                    while not preface and len(buffer) >= 9:
                        length = int.from_bytes(buffer[:3], "big")
                        if len(buffer) < 9 + length:
                            break
                        if self.frozen and buffer[3] == 0x1:
                            self.call_started.set()
                        buffer = buffer[9 + length :]
                if not (watch and self.frozen):
                    writer.write(data)
                    await writer.drain()
        writer.close()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def test_item15_a_create_cut_short_leaves_no_orphan(redis_url):
    """Item 15: a gateway that dies while creating a match leaves nothing half-made, so the
    retry (same request id, another gateway) gets a working match, not NOT_FOUND."""
    store = MatchStore.from_url(redis_url)
    server, port, _, watcher = await rules_server.start(get_game("tinycards"), store)
    proxy = FreezableProxy(port)
    proxy_port = await proxy.start()
    config = GatewayConfig(redis_url=redis_url, rules={"tinycards": [f"127.0.0.1:{proxy_port}"]})
    doomed = await Gateway(config).start()
    survivor = None
    try:
        request = gw.CreateMatchRequest(game="tinycards", seats=2, request_id="cut-short")
        async with GatewayClient(f"127.0.0.1:{doomed.port}") as client:
            await client.games()
            proxy.frozen = True
            create = asyncio.ensure_future(client.stub.CreateMatch(request))
            await proxy.call_started.wait()
            await doomed.stop(0)
            try:
                await create
            except grpc.aio.AioRpcError as error:
                assert error.code() in (grpc.StatusCode.CANCELLED, grpc.StatusCode.UNAVAILABLE)
        config.rules = {"tinycards": [f"127.0.0.1:{port}"]}
        survivor = await Gateway(config).start()
        async with GatewayClient(f"127.0.0.1:{survivor.port}") as client:
            match = (await client.stub.CreateMatch(request)).match
            fetched = await client.match(match.name)
            assert fetched.progress.version == 1 and len(fetched.seats) == 2
    finally:
        if survivor is not None:
            await survivor.stop(None)
        await proxy.close()
        watcher.cancel()
        await server.stop(None)
        await store.close()
