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


async def test_two_typescript_clients_meet(redis_url):
    """The TypeScript client's playNow (clients/ts/src/playnow.ts, built by `make ts`):
    two node processes asking for the same game meet in one match."""
    script = Path(__file__).resolve().parent.parent / "clients" / "ts" / "dist" / "playnow.js"
    assert script.exists(), "the TypeScript client is not built: run `make ts`"
    async with running_stack(redis_url, games=("tinycards",), matchmaking=FAST) as (
        address, _):
        runs = [await asyncio.create_subprocess_exec(
            "node", str(script), address, "tinycards", name,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE) for name in ("Tia", "Tom")]
        outs = await asyncio.wait_for(asyncio.gather(*(r.communicate() for r in runs)), 90)
    lines = [out.decode().strip().splitlines() for out, _ in outs]
    assert all(r.returncode == 0 for r in runs), outs
    assert all(line.startswith("searching: rating 25.0 ± ") for ls in lines for line in ls[:-1])
    matched = [ls[-1].split() for ls in lines]
    assert matched[0][1] == matched[1][1] and {matched[0][3], matched[1][3]} == {"0", "1"}
