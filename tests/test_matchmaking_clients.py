"""Issue 45 item 3, matchmaking in the clients: `parlour play GAME --match` in a terminal
waits (saying so) and meets a player who pressed "Play now" from the SDK, in one match
(real processes, real gRPC and Redis)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from parlour.client import GatewayClient
from parlour.client.matchmaking import play_now
from parlour.gateway.config import Matchmaking
from stack import running_stack

FAST = Matchmaking(pass_seconds=0.05, poll_seconds=0.2)


async def test_terminal_match_meets_an_sdk_player(redis_url):
    async with running_stack(redis_url, games=("tinycards",), matchmaking=FAST) as (
        address, _):
        master, slave = os.openpty()
        play = subprocess.Popen(
            [str(Path(sys.executable).parent / "parlour"), "play", "tinycards", "--match",
             "--name", "Termi", "--gateway", address],
            stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
            env={**os.environ, "TERM": "xterm"},
        )
        os.close(slave)
        seen = bytearray()
        loop = asyncio.get_running_loop()
        loop.add_reader(master, lambda: seen.extend(os.read(master, 65536)))
        try:
            async with asyncio.timeout(90):
                while b"looking for players" not in seen:
                    await asyncio.sleep(0.1)
                async with GatewayClient(address) as client:
                    (me,) = await play_now(client, "tinycards", name="Sid")
                    names = {s.display_name for s in (await client.match(me.match)).seats}
            assert names == {"Termi", "Sid"}
            async with asyncio.timeout(60):
                while b"matched: " + me.match.encode() not in seen:
                    await asyncio.sleep(0.1)
        finally:
            loop.remove_reader(master)
            os.killpg(play.pid, signal.SIGKILL)
            play.wait()
            os.close(master)
