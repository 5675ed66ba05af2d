"""Issue 11 item 5: the Python SDK resumes streams cut mid-match with no gap and no duplicate,
unpacks game messages (generated or from reflection), passes request ids through, and has
a blocking facade (real gRPC and Redis; connections cut by a real TCP proxy)."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from pathlib import Path

import grpc
import pytest

import parlour.client as sdk
from parlour.client import GatewayClient, Update
from parlour.engine.registry import get_game
from stack import running_stack

ROOT = Path(__file__).resolve().parent.parent
FAST_RECONNECT = [("grpc.initial_reconnect_backoff_ms", 20), ("grpc.max_reconnect_backoff_ms", 100)]
CUTS = (15, 40, 80)


class CuttingProxy:
    """A TCP proxy to the gateway that can drop every open connection at once."""

    def __init__(self, target: str) -> None:
        self.host, port = target.rsplit(":", 1)
        self.port = int(port)
        self.writers: set[asyncio.StreamWriter] = set()
        self.connections = 0

    async def start(self) -> str:
        self.server = await asyncio.start_server(self.accept, "127.0.0.1", 0)
        return f"127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def accept(self, reader, writer) -> None:
        self.connections += 1
        up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        self.writers |= {writer, up_writer}

        async def pipe(src, dst):
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def cut(self) -> None:
        """Drop every connection (the peers see a reset link)."""
        for writer in list(self.writers):
            writer.transport.abort()
        self.writers.clear()

    async def close(self) -> None:
        self.cut()
        self.server.close()


@pytest.fixture
async def stack(redis_url):
    async with running_stack(
        redis_url, games=("tinycards", "houseofhorrors"), heartbeat_seconds=0.2
    ) as (address, _):
        proxy = CuttingProxy(address)
        proxied = await proxy.start()
        direct = GatewayClient(address)
        cut = GatewayClient(proxied, channel_options=FAST_RECONNECT)
        yield direct, cut, proxy
        await cut.close()
        await direct.close()
        await proxy.close()


async def read_all(items):
    return [item async for item in items]


async def test_streams_cut_mid_match_resume_with_no_gap_or_duplicate(stack):
    """Issue 11 "done when": StreamEvents cut three times mid-match (a spectator and a seat)
    still deliver every event once, in order: 0 gaps, 0 duplicates."""
    direct, cut, proxy = stack
    match = await direct.create_match("houseofhorrors", 3, seed=21, spectators=True)
    players = [await direct.join(match.name, f"p{i}", seat=i) for i in range(3)]
    watched = cut.spectate(match.name)
    cut_seat = sdk.Seat(cut, match.name, 1, players[1].token)
    streams = {"spectator": watched, "seat 1": cut_seat.events()}
    received = {name: [] for name in streams}

    async def reader(name, stream):
        async for item in stream:
            if item.HasField("event"):
                received[name].append(item.event.sequence)
                if name == "spectator" and len(received[name]) in CUTS:
                    proxy.cut()
            if item.HasField("finished"):
                return item.finished

    readers = [asyncio.create_task(reader(n, s)) for n, s in streams.items()]
    progress = await players[0].progress()
    step = 0
    while not progress.HasField("outcome"):
        seat = progress.pending[step % len(progress.pending)].seat
        legal = (await players[seat].actions()).actions
        progress = (await players[seat].submit(legal[step % len(legal)])).result.progress
        step += 1
    finals = await asyncio.wait_for(asyncio.gather(*readers), 120)
    assert all(f.progress.HasField("outcome") for f in finals)
    assert proxy.connections > len(CUTS), "the streams were not cut"
    expected = {
        "spectator": [
            i.event.sequence
            for i in await read_all(direct.spectate(match.name))
            if i.HasField("event")
        ],
        "seat 1": [
            i.event.sequence for i in await read_all(players[1].events()) if i.HasField("event")
        ],
    }
    for name, sequences in received.items():
        gaps = len(set(expected[name]) - set(sequences))
        duplicates = len(sequences) - len(set(sequences))
        assert (gaps, duplicates) == (0, 0), name
        assert sequences == expected[name]


async def test_play_session_cut_mid_match_applies_each_action_once(stack):
    """Issue 11 item 5: a Play session cut mid-match reopens, resends unacknowledged actions
    with their request ids, and receives each ack and each event exactly once."""
    direct, cut, proxy = stack
    match = await direct.create_match("houseofhorrors", 3, seed=5)
    players = [await direct.join(match.name, f"p{i}", seat=i) for i in range(3)]
    session = sdk.Seat(cut, match.name, 0, players[0].token).session()
    events, acks, sent = [], [], 0
    progress = await players[0].progress()
    while not progress.HasField("outcome"):
        seat = progress.pending[0].seat
        legal = (await players[seat].actions()).actions
        choice = legal[sent % len(legal)]
        if seat != 0:
            progress = (await players[seat].submit(choice)).result.progress
            continue
        request_id = session.send(choice)
        sent += 1
        if sent in (3, 9, 20):
            proxy.cut()
        while True:
            message = await session.receive()
            if message.HasField("event"):
                events.append(message.event.sequence)
            elif message.HasField("ack"):
                acks.append(message.ack.request_id)
                assert not message.ack.reason, message.ack.message
                if message.ack.request_id == request_id:
                    progress = message.ack.response.result.progress
                    break
    while True:
        message = await session.receive()
        if message.HasField("event"):
            events.append(message.event.sequence)
        if message.HasField("finished"):
            break
    session.cancel()
    expected = [
        i.event.sequence for i in await read_all(players[0].events()) if i.HasField("event")
    ]
    assert events == expected
    assert len(acks) == len(set(acks)) == sent
    assert progress.version == (await direct.match(match.name)).progress.version
    assert proxy.connections > 1


async def test_typed_helpers_unpack_views_events_and_actions(stack):
    """Issue 11 item 5: seat.view() is the game's View; feeds and legal actions come
    unpacked, with the game's words."""
    direct, _, _ = stack
    game = get_game("tinycards")
    match = await direct.create_match("tinycards", 2, seed=2)
    players = [await direct.join(match.name, f"p{i}", seat=i) for i in range(2)]
    view = await players[0].view()
    assert isinstance(view, game.view_type) and len(view.hand) == 2
    (action, label), *_ = await players[0].legal_actions()
    assert isinstance(action, game.action_type) and label == game.describe_action(action)
    await players[0].submit(action)
    update = await anext(players[1].feed())
    assert isinstance(update, Update) and isinstance(update.event, game.event_type)
    assert update.text == game.describe_event(update.event)


async def test_unknown_types_come_from_the_gateways_reflection(stack):
    """Issue 11 item 5: a type the client has no generated code for is built from the
    gateway's reflection."""
    direct, _, _ = stack
    message_class = await direct.message_class(
        "type.googleapis.com/grpc.reflection.v1.ServerReflectionRequest"
    )
    assert message_class.DESCRIPTOR.full_name == "grpc.reflection.v1.ServerReflectionRequest"
    with pytest.raises(KeyError):
        await direct.message_class("type.googleapis.com/no.such.Message")


async def test_request_ids_pass_through_every_mutating_call(stack):
    """Issue 11 item 5: the same request id returns the first answer (create, join, act)."""
    direct, _, _ = stack
    first = await direct.create_match("tinycards", 2, request_id="lobby-1")
    again = await direct.create_match("tinycards", 2, request_id="lobby-1")
    assert first.name == again.name
    seat = await direct.join(first.name, "a", request_id="join-1")
    action = (await seat.actions()).actions[0]
    done = await seat.submit(action, request_id="act-1")
    replay = await seat.submit(action, request_id="act-1")
    with pytest.raises(grpc.aio.AioRpcError) as retried:
        await direct.join(first.name, "a", request_id="join-1")
    assert retried.value.code() == grpc.StatusCode.ALREADY_EXISTS
    assert f"seat {seat.seat}" in retried.value.details()
    assert replay.replayed and replay.result == done.result


def test_sdk_exports_what_the_readme_names():
    """Issue 11 item 5: every SDK name the README and docs/sdk.md mention is exported."""
    text = (ROOT / "README.md").read_text() + (ROOT / "docs" / "sdk.md").read_text()
    named = set(
        re.findall(r"`(GatewayClient|Seat|Session|SyncClient|SyncSeat|Update|Finished)`", text)
    )
    assert named and all(name in sdk.__all__ and hasattr(sdk, name) for name in named)


def test_the_sdk_example_plays_a_real_game(tmp_path):
    """Issue 11 item 5: the 15-line example of docs/sdk.md plays I Say, Holmes! to the end
    through a gateway (the blocking facade, real processes)."""
    code = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "sdk.md").read_text(), re.S)[0]
    assert len(code.strip().splitlines()) <= 15
    from parlour.launcher import LocalStack

    with LocalStack(["isayholmes"]) as running:
        script = tmp_path / "example.py"
        script.write_text(code.replace("127.0.0.1:50051", running.address))
        result = subprocess.run(
            [sys.executable, str(script)], capture_output=True, text=True, timeout=300
        )
    assert result.returncode == 0, result.stderr
    assert "winner" in result.stdout
