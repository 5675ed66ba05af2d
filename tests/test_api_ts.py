"""Issue 11 item 4: the TypeScript client (clients/ts, built by `make ts`) plays a full
match of every game through a real gateway with random legal actions and prints the feed."""

from __future__ import annotations

import subprocess
from pathlib import Path

from parlour.engine.registry import game_modules, get_game
from parlour.launcher import LocalStack

TS = Path(__file__).resolve().parent.parent / "clients" / "ts"


def built() -> Path:
    script = TS / "dist" / "play.js"
    assert script.exists(), "the TypeScript client is not built: run `make ts`"
    return script


def test_typescript_unit_tests_pass():
    """The client's typed helpers (clients/ts/src/client.test.ts) under node --test."""
    built()
    result = subprocess.run(["npm", "test"], cwd=TS, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout


def test_typescript_client_plays_every_game_to_the_end():
    """Issue 11 "done when": the TypeScript example plays every game to the end; the feed
    shows each game's own words and ends with the match; issue 36 item 4: then the first
    seat's rating (getPlayerRecord, read until it lists the match) and its leaderboard
    (listLeaderboard), the other seats joined as bots (join's `bot`)."""
    script = built()
    with LocalStack(game_modules()) as stack:
        result = subprocess.run(
            ["node", str(script), stack.address, "11"], capture_output=True, text=True, timeout=600
        )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    out = result.stdout
    for name in game_modules():
        assert f"=== {get_game(name).display_name}:" in out
    assert out.count("feed ended: true") == len(game_modules())
    assert "every game played to the end" in out
    # issue 36 item 4: the seat playing under its name is rated, the others as bots
    assert out.count("ts0's rating in ") == len(game_modules()), out[-3000:]


def test_typescript_types_come_from_the_public_protos_alone():
    """Issue 11 items 1 and 4: `make ts` generates the client's types with buf from the
    .proto files (clients/ts/buf.gen.yaml, no Python) without the internal rules protos,
    and the client compiles against them."""
    built()
    gen = TS / "src" / "gen" / "parlour"
    assert (gen / "gateway" / "v1" / "gateway_pb.ts").exists()
    assert (gen / "games" / "isayholmes" / "v1" / "isayholmes_pb.ts").exists()
    assert not (gen / "rules").exists()
