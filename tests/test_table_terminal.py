"""Issue 12 item 2: a person plays a whole match in the terminal client against bots.

The app is driven as a person would drive it (textual's pilot types the number of a menu
entry, chosen at random with a seed, and Enter); the bots run in their own `parlour bots`
process.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from parlour.client import GatewayClient
from parlour.client.table import Table, start_bots
from parlour.client.terminal import PlayApp
from parlour.engine.rng import Rng
from parlour.games.isayholmes.v1 import isayholmes_pb2 as isay
from parlour.games.murdercastle.v1 import murdercastle_pb2 as castle
from stack import running_stack

SCREENSHOTS = Path(__file__).resolve().parent.parent / ".parlour" / "screenshots"
#: (game, seats, options) per case; "Ada" (seat 0) is the person at the table.
GAMES = {
    "tinycards": ("tinycards", 2, None),
    "isayholmes": ("isayholmes", 3, isay.Options(rounds=1)),
    "houseofhorrors": ("houseofhorrors", 3, None),
    "clashofminds": ("clashofminds", 2, None),
    "murdercastle": ("murdercastle", 2, castle.Options(round_limit=3)),
    # issue 15: the person plays Holmes against three bot investigators
    "murdercastle-play-as-holmes": (
        "murdercastle", 4, castle.Options(play_as_holmes=castle.PlayAsHolmes(seat=0))
    ),
}


async def play_through(
    address: str, game: str, seats: int, options, case: str | None = None
) -> PlayApp:
    async with GatewayClient(address) as client:
        table = await Table.create(client, game, seats, "Ada", options)
        bots = start_bots(address, table.match, seats - 1, "random")
        app = PlayApp(table)
        rng = Rng.from_seed(7)
        try:
            async with app.run_test(size=(140, 45)) as pilot:
                while True:
                    await app.ready.wait()
                    snapshot = app.snapshot
                    if snapshot.progress.HasField("outcome"):
                        break
                    assert str(app.query_one("#menu").get_option_at_index(0).prompt).startswith(
                        f"1. {snapshot.labels[0]}"
                    )
                    assert "You decide" in str(app.query_one("#status").render())
                    number = str(rng.below(len(snapshot.labels)) + 1)
                    await pilot.press(*number, "enter")
                    async with app.updated:
                        await app.updated.wait_for(
                            lambda v=snapshot.progress.version: app.snapshot.progress.version > v
                        )
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                app.save_screenshot(f"terminal-{case or game}.svg", str(SCREENSHOTS))
                status = str(app.query_one("#status").render())
                feed = "\n".join(str(line.text) for line in app.query_one("#feed").lines)
        finally:
            if bots.poll() is None:
                bots.terminate()
            bots.wait()
    assert status.startswith("Game over.")
    assert "You:" in feed
    return app


@pytest.fixture
async def gateway(redis_url, request):
    games = request.param
    async with running_stack(redis_url, games=games, heartbeat_seconds=0.2) as (address, _):
        yield address


@pytest.mark.parametrize("gateway", [("tinycards",)], indirect=True)
async def test_a_person_plays_a_whole_match_in_the_terminal(gateway):
    """Issue 12 item 2: menu with labels, whose turn, the feed, to the end of the match."""
    await play_through(gateway, *GAMES["tinycards"])


@pytest.mark.table_full
@pytest.mark.parametrize("case", [g for g in GAMES if g != "tinycards"])
async def test_every_game_plays_to_the_end_in_the_terminal(redis_url, case):
    """Issue 12 item 2: every game and mode works in the terminal client."""
    game = GAMES[case][0]
    async with running_stack(redis_url, games=(game,), heartbeat_seconds=0.2) as (address, _):
        await asyncio.wait_for(play_through(address, *GAMES[case], case=case), 600)


@pytest.mark.parametrize("gateway", [("tinycards",)], indirect=True)
async def test_a_spectator_watches_bots_to_the_end_in_the_terminal(gateway):
    """Issue 12 item 2: --watch mode shows the feed and the end, with no menu."""
    async with GatewayClient(gateway) as client:
        match = await client.create_match("tinycards", 2, seed=3, spectators=True)
        table = await Table.watch(client, match.name)
        bots = start_bots(gateway, match.name, 2, "greedy")
        app = PlayApp(table)
        try:
            async with app.run_test(size=(140, 45)):
                async with app.updated:
                    await app.updated.wait_for(
                        lambda: app.snapshot is not None
                        and app.snapshot.progress.HasField("outcome")
                    )
                assert not app.query_one("#menu").display
                assert "spectator" in app.title
                status = str(app.query_one("#status").render())
        finally:
            bots.wait()
    assert status.startswith("Game over.")
