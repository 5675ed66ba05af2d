"""Issue 36 item 4: players' records in the Python SDK, the terminal and the `parlour`
commands, against a real gateway and rules service over Redis (the ratings are the rules
service's own; these tests check what the clients send, keep and show).

The test Redis is shared by the worker's tests, so names are fresh per test and counts are
checked as "at least"."""

from __future__ import annotations

import asyncio
import re
import sys
import uuid

from lifecycle_support import own_redis

from parlour.client import GatewayClient, SyncClient
from parlour.client.records import finished_record, name_player, player_name
from parlour.client.seatbot import play_seat, run_bots
from parlour.client.table import Table
from parlour.client.terminal import PlayApp
from parlour.engine.registry import get_game
from parlour.engine.text import bot_name
from parlour.gateway.v1 import gateway_pb2 as gw
from stack import running_stack

GAME = "tinycards"


def fresh(name: str) -> str:
    return f"{name} {uuid.uuid4().hex[:8]}"


async def play_out(client: GatewayClient, match: str, seats) -> None:
    """Play the held seats to the end with the random strategy."""
    game = get_game(GAME)
    await asyncio.gather(*(play_seat(s, game, "random", 5 + s.seat) for s in seats))


async def parlour(*args: str) -> tuple[int, str, str]:
    """The `parlour` command in its own process, while this loop serves the stack."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "parlour.cli", *args,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 120)
    return process.returncode, out.decode(), err.decode()


async def test_the_sdk_joins_as_a_name_or_a_bot_and_reads_records_and_leaderboards(redis_url):
    """Issue 36 item 4.1: a seat keeps the record its join answer names (a name's key; a
    bot's strategy); after the match the record lists it, also read by the name (letter
    case and spaces aside), and the leaderboard ranks both; a match created with
    rated=False changes no record."""
    ada = fresh("Ada")
    async with running_stack(redis_url, games=(GAME,)) as (address, _):
        async with GatewayClient(address) as client:
            match = await client.create_match(GAME, 2, seed=11)
            assert match.rated
            mine = await client.join(match.name, ada)
            bot = await client.join(match.name, "anybody", bot="greedy")
            assert re.fullmatch(r"players/n[0-9a-f]{32}", mine.player)
            assert bot.player == "players/bot:greedy"
            await play_out(client, match.name, [mine, bot])
            record, played = await finished_record(client, mine.player, GAME, match.name)
            assert (record.game, record.variant, record.matches) == (GAME, "standard", 1)
            assert played.sides == 2 and played.place in (1, 2) and played.seat == 0
            assert played.change == record.rating.display  # a newcomer's first match, from 0
            board = await client.leaderboard(GAME, around=mine.player, neighbours=1)
            assert board.variant == "standard" and board.players >= 2
            assert [e.player for e in board.around].count(mine.player) == 1
            by_name = await client.player_record(name_player(f"  {ada.upper()} "), GAME)
            assert by_name.player == mine.player and by_name.display_name == ada
            whole = await client.player_record(bot.player)
            assert whole.kind == gw.PLAYER_KIND_BOT and whole.records[0].matches >= 1

            friendly = await client.create_match(GAME, 2, seed=12, rated=False)
            assert not friendly.rated
            seats = [await client.join(friendly.name, ada), await client.join(friendly.name, "Ben")]
            assert seats[0].player == mine.player
            await play_out(client, friendly.name, seats)
            assert await finished_record(client, mine.player, GAME, friendly.name, times=5) is None
            after = await client.player_record(mine.player, GAME)
            assert after.records[0].matches == 1


async def test_bots_join_as_their_strategy(redis_url):
    """Issue 36 item 4.1: `parlour bots` (run_bots, which the terminal's --bots and the web
    page's bots start) seats bots whose results count toward their strategy's record (two
    of one strategy in a match: the record counts the match once). Issue 43: the record
    and the leaderboard name the bots as their seats do, without the seat's number
    ("Random bot 1" plays for "Random bot"), from one function (engine.text.bot_name)."""
    async with running_stack(redis_url, games=(GAME,)) as (address, _):
        async with GatewayClient(address) as client:
            match = await client.create_match(GAME, 2, seed=13)
            await run_bots(address, match.name, 2, "random", seed=3)
            record, _ = await finished_record(client, "players/bot:random", GAME, match.name)
            assert record.matches >= 1
            seats = [s.display_name for s in (await client.match(match.name)).seats]
            assert seats == ["Random bot 1", "Random bot 2"]
            whole = await client.player_record("players/bot:random", GAME)
            assert whole.display_name == bot_name("random") == "Random bot"
            board = await client.leaderboard(GAME, around="players/bot:random", neighbours=0)
            shown = [e for e in [*board.top, *board.around] if e.player == "players/bot:random"]
            assert shown and {e.display_name for e in shown} == {"Random bot"}
            assert player_name(shown[0].kind, shown[0].player, shown[0].display_name) == (
                "Random bot")


async def until_record(app: PlayApp) -> str:
    """The record box's text once the finished match's record was read."""
    async with app.updated:
        await asyncio.wait_for(app.updated.wait_for(
            lambda: app.snapshot is not None and app.snapshot.progress.HasField("outcome")), 120)
    await asyncio.wait_for(app.workers.wait_for_complete(), 30)
    return str(app.query_one("#record").render())


async def play_in_terminal(client, address: str, table: Table) -> tuple[PlayApp, str]:
    """Play the table's seat 0 in the terminal app (the first button each turn) against a
    greedy bot to the end; the app and its record box's text."""
    bots = asyncio.create_task(run_bots(address, table.match, 1, "greedy", seed=4))
    app = PlayApp(table)
    async with app.run_test(size=(140, 45)) as pilot:
        while not (await client.match(table.match)).progress.HasField("outcome"):
            await app.ready.wait()
            if app.snapshot.labels:
                await pilot.press("1", "enter")
            await pilot.pause(0.05)
        text = await until_record(app)
        shown = app.query_one("#record").display
    await bots
    return app, text if shown else ""


async def test_the_terminal_shows_the_rating_and_leaderboard_when_a_match_ends():
    """Issue 36 item 4.2: below the result, "Your rating in <Game>: 27.3 (+3.1) — 1 rated
    match, …, #r of n" and the leaderboard with the person's row marked; nothing about
    ratings for an unrated match. A Redis of its own: the leaderboard shown is the top of the
    game's, which other tests' bots fill on the worker's Redis."""
    ada = fresh("Ada")
    with own_redis() as redis_url:
        await _rating_and_leaderboard_in_terminal(redis_url, ada)


async def _rating_and_leaderboard_in_terminal(redis_url: str, ada: str) -> None:
    async with running_stack(redis_url, games=(GAME,), heartbeat_seconds=0.2) as (address, _):
        async with GatewayClient(address) as client:
            app, text = await play_in_terminal(client, address,
                                               await Table.create(client, GAME, 2, ada))
            assert text.startswith("Your rating in Tiny Cards (test game): ")
            assert " — 1 rated match, " in text and "#" in text
            assert "Greedy bot" in text and "greedy (bot)" not in text
            marked = [line for line in text.splitlines() if line.endswith("← you")]
            assert len(marked) == 1 and ada in marked[0]
            assert app.record_lines and app.record_lines[0] in text

            # what `parlour play --unrated` creates
            table = await Table.create(client, GAME, 2, ada, rated=False)
            assert not (await client.match(table.match)).rated
            app, text = await play_in_terminal(client, address, table)
            assert text == "" and app.record_lines == []


async def test_the_leaderboard_and_record_commands(redis_url):
    """Issue 36 item 4.2: `parlour leaderboard GAME` lists the variant's best, `parlour
    record --name NAME` a name's ratings and matches with a replay command for each; an
    unknown variant and a name without a record read as sentences. (SyncClient's blocking
    calls read the same.)"""
    ada = fresh("Ada")
    async with running_stack(redis_url, games=(GAME,)) as (address, _):
        async with GatewayClient(address) as client:
            match = await client.create_match(GAME, 2, seed=14)
            seats = [await client.join(match.name, ada), await client.join(match.name, "Ben")]
            await play_out(client, match.name, seats)
            await finished_record(client, seats[0].player, GAME, match.name)

        def blocking():
            with SyncClient(address) as sync:
                return (sync.player_record(seats[0].player, GAME),
                        sync.leaderboard(GAME, top=1, around=seats[0].player))

        record, board = await asyncio.to_thread(blocking)
        assert record.records[0].recent[0].match == match.name
        assert len(board.top) == 1 and seats[0].player in [e.player for e in board.around]
        code, out, err = await parlour("leaderboard", GAME, "--top", "100", "--gateway", address)
        assert code == 0, err
        assert out.startswith("Leaderboard of Tiny Cards (test game) (")
        assert ada in out and "players/" not in out
        code, out, err = await parlour("record", "--name", ada.upper(), "--gateway", address)
        assert code == 0, err
        assert out.startswith(f"The record of {ada}:")
        assert "Tiny Cards (test game): " in out
        assert f"parlour replay {match.name} --gateway {address}" in out
        code, _, err = await parlour("leaderboard", GAME, "--variant", "nope", "--gateway", address)
        assert code == 2 and "This game has no way to play of that name." in err
        code, _, err = await parlour("record", "--name", fresh("Nobody"), "--gateway", address)
        assert code == 2 and "Nobody of that name has finished a rated match here yet." in err
