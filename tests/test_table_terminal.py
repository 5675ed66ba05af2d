"""Issues 12 and 24: a person plays whole matches in the terminal client against bots.

The app is driven as a person would drive it (textual's pilot types the number of a menu
entry, chosen at random with a seed, and Enter); the bots run in their own `parlour bots`
process. Every game and variant (issue 24): what the screen shows is checked at every
decision - no two choices alike, no internal ids, seats named ("You", the player's name).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import re
import select
import signal
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest
from table_cases import ACTOR_TWICE, CASES, FULL, QUICK, choice_problems, screen_problems
from textual.widgets import Button, Input, OptionList

from parlour.client import GatewayClient
from parlour.client.table import Table, start_bots
from parlour.client.terminal import PlayApp
from parlour.engine.rng import Rng
from parlour.gateway.v1 import gateway_pb2 as gw
from stack import running_stack

SCREENSHOTS = Path(__file__).resolve().parent.parent / ".parlour" / "screenshots"


def shown(app: PlayApp, widget: str) -> str:
    """The text a widget shows now."""
    return str(app.query_one(widget).render())


def screen(app: PlayApp) -> list[str]:
    """What the person reads: status, clocks, undo line, the table, the feed, the menu."""
    feed = [str(line.text) for line in app.query_one("#feed").lines]
    menu = app.query_one("#menu", OptionList)
    choices = [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]
    parts = [shown(app, w) for w in ("#status", "#clocks", "#undo-text", "#view-text")]
    return [line for part in parts for line in part.splitlines()] + feed + choices


def menu_labels(app: PlayApp) -> list[str]:
    menu = app.query_one("#menu", OptionList)
    prompts = [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]
    return [re.sub(r"^\d+\. ", "", p) for p in prompts]


async def play_through(address: str, case: str) -> tuple[str, str, list[str]]:
    """Play `case` as Ada in seat 0; (final status, feed, problems seen on the way)."""
    game, _title, seats, _most, options = CASES[case]
    problems: list[str] = []
    async with GatewayClient(address) as client:
        table = await Table.create(client, game, seats, "Ada", options)
        bots = start_bots(address, table.match, seats - 1, "random") if seats > 1 else None
        app = PlayApp(table)
        rng = Rng.from_seed(7)
        try:
            async with app.run_test(size=(140, 45)) as pilot:
                while True:
                    await app.ready.wait()
                    snapshot = app.snapshot
                    problems += screen_problems(screen(app))
                    if snapshot.progress.HasField("outcome"):
                        break
                    labels = menu_labels(app)
                    problems += choice_problems(labels)
                    assert shown(app, "#status").startswith("Your turn")
                    number = str(rng.below(len(labels)) + 1)
                    await pilot.press(*number, "enter")
                    async with app.updated:
                        await app.updated.wait_for(
                            lambda v=snapshot.progress.version: app.snapshot.progress.version > v
                        )
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                app.save_screenshot(f"terminal-{case}.svg", str(SCREENSHOTS))
                status = shown(app, "#status")
                feed = "\n".join(str(line.text) for line in app.query_one("#feed").lines)
        finally:
            if bots is not None:
                if bots.poll() is None:
                    bots.terminate()
                bots.wait()
    return status, feed, sorted(set(problems))


async def check_case(redis_url: str, case: str) -> None:
    game = CASES[case][0]
    async with running_stack(redis_url, games=(game,), heartbeat_seconds=0.2) as (address, _):
        status, feed, problems = await asyncio.wait_for(play_through(address, case), 900)
    assert status.startswith("Game over.")
    assert not problems, "\n".join(problems[:40])
    assert re.search(r"^You ", feed, re.MULTILINE), "the person's own moves read 'You …'"
    assert not re.search(ACTOR_TWICE, feed, re.MULTILINE), "who acted, twice"


@pytest.mark.parametrize("case", QUICK)
async def test_a_person_plays_a_whole_match_in_the_terminal(redis_url, case):
    """Issues 12 item 2, 24: menu of distinct labels, the table in words, the feed in the
    viewer's terms, to the end of the match."""
    await check_case(redis_url, case)


@pytest.mark.table_full
@pytest.mark.parametrize("case", FULL)
async def test_every_game_and_variant_plays_to_the_end_in_the_terminal(redis_url, case):
    """Issue 24: every game and variant, in the rulebook's words, in the terminal client."""
    await check_case(redis_url, case)


async def test_rules_text_and_details_are_behind_toggles(redis_url):
    """Issue 24 item 1: the table by default; `?` shows the rules text, `details` the raw
    View (a developer's dump), each toggled off again."""
    async with running_stack(redis_url, games=("tinycards",), heartbeat_seconds=0.2) as (
        address, _):
        async with GatewayClient(address) as client:
            table = await Table.create(client, "tinycards", 2, "Ada")
            app = PlayApp(table)
            async with app.run_test(size=(140, 45)) as pilot:
                await app.updated.acquire()
                await app.updated.wait_for(lambda: app.snapshot is not None)
                app.updated.release()
                first = shown(app, "#view-text")
                assert first.startswith("Your hand") and "Hand size" not in first
                await pilot.press(*"details", "enter")
                await pilot.pause()
                assert "Details (the raw View):" in shown(app, "#view-text")
                await pilot.press(*"details", "enter")
                await pilot.pause()
                assert shown(app, "#view-text") == first
                app.snapshot.table.Clear()  # a game that sends no table
                app.draw_view()
                assert shown(app, "#view-text").startswith("Hand: ")
                assert "waiting for 1 more player:" in shown(app, "#status")


async def test_a_spectator_watches_bots_to_the_end_in_the_terminal(redis_url):
    """Issue 12 item 2: --watch mode shows the feed and the end, with no menu."""
    async with running_stack(redis_url, games=("tinycards",), heartbeat_seconds=0.2) as (
        address, _):
        async with GatewayClient(address) as client:
            match = await client.create_match("tinycards", 2, seed=3, spectators=True)
            table = await Table.watch(client, match.name)
            bots = start_bots(address, match.name, 2, "greedy")
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
                    status = shown(app, "#status")
                    lines = screen(app)
            finally:
                # not bots.wait(): the bots' last calls need this loop, which serves the stack
                await asyncio.to_thread(bots.wait)
    assert status.startswith("Game over.")
    assert not screen_problems(lines)


async def until(app: PlayApp, ready) -> None:
    """Wait (at most a minute) for the app to show something."""
    async with app.updated:
        await asyncio.wait_for(app.updated.wait_for(ready), 60)


async def test_time_banks_and_an_undo_request_in_the_terminal(redis_url):
    """Issue 24 item 5: the clock line shows every seat's bank, counting down for the seat
    that owes; an undo request shows who asks and what, and Accept answers it."""
    lifecycle = gw.LifecycleOptions(time_bank_ms=600_000, allow_undo=True,
                                    undo_needs_agreement=True)
    async with running_stack(redis_url, games=("murdercastle",), heartbeat_seconds=0.2) as (
        address, _):
        async with GatewayClient(address) as client:
            request = gw.CreateMatchRequest(game="murdercastle", seats=3, seed=5,
                                            request_id="t1", lifecycle=lifecycle)
            match = (await client.stub.CreateMatch(request)).match.name
            bob = await client.join(match, "Bob", 0)
            cy = await client.join(match, "Cy", 2)
            app = PlayApp(await Table.join(client, match, "Ada", 1))
            async with app.run_test(size=(140, 45)) as pilot:
                await until(app, lambda: app.snapshot is not None)
                clocks = shown(app, "#clocks")
                assert "You: 10:00 in the bank" in clocks and "Bob: 9:5" in clocks
                assert "(running)" in clocks.split("·")[0]
                action, _label = (await bob.legal_actions())[0]
                await bob.submit(action)
                await bob.undo()
                await until(app, lambda: "Bob asks" in shown(app, "#undo-text"))
                assert "waiting for you and Cy." in shown(app, "#undo-text")
                accept = next(b for b in app.query(Button) if str(b.label) == "Accept")
                await pilot.pause()  # laid out now that it shows
                assert await pilot.click(accept)
                await until(app, lambda: "waiting for Cy." in shown(app, "#undo-text"))
                assert not accept.display
                await cy.answer_undo(True)
                await until(app, lambda: not app.query_one("#undo").display)


def _children(pid: int) -> list[int]:
    """The live processes whose parent is `pid` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_play_stops_its_stack_when_its_terminal_goes_away():
    """Issue 33 item 4: `parlour play` in a terminal that closes (SIGHUP from the kernel)
    stops Redis, the rules service and the gateway it started, as Ctrl+Q does."""
    master, slave = os.openpty()

    def own_terminal() -> None:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    play = subprocess.Popen(
        [str(Path(sys.executable).parent / "parlour"), "play", "tinycards", "--bots", "1"],
        stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
        preexec_fn=own_terminal, env={**os.environ, "TERM": "xterm"},
    )
    os.close(slave)
    close, children = threading.Event(), []
    terminal = threading.Thread(target=_terminal, args=(master, close), daemon=True)
    terminal.start()
    try:
        deadline = time.monotonic() + 120
        while len(children := _children(play.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert len(children) >= 3, f"the stack did not start: {children}"
        time.sleep(3)  # the app is up and playing
        close.set()  # the terminal goes away: the kernel sends SIGHUP
        terminal.join()
        play.wait(60)
        deadline = time.monotonic() + 30
        while any(map(_alive, children)) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not [c for c in children if _alive(c)], "the stack outlived its terminal"
    finally:
        close.set()
        if play.poll() is None:
            play.kill()
            play.wait()
        for child in filter(_alive, children):
            os.kill(child, signal.SIGKILL)


def _terminal(fd: int, close: threading.Event) -> None:
    """A terminal: read what the app writes until told to close, then close."""
    with contextlib.suppress(OSError):
        while not close.is_set():
            if select.select([fd], [], [], 0.2)[0]:
                os.read(fd, 65536)
    os.close(fd)


async def test_a_refusal_reads_as_a_sentence_in_the_terminal(redis_url):
    """Issue 33 item 3: `parlour play --join` on a full match ends with the refusal's
    sentence, not "FAILED_PRECONDITION: MATCH_FULL: …"."""
    async with running_stack(redis_url, games=("tinycards",)) as (address, _):
        async with GatewayClient(address) as client:
            match = (await client.stub.CreateMatch(gw.CreateMatchRequest(
                game="tinycards", seats=2, request_id="full"))).match.name
            for seat in range(2):
                await client.join(match, f"p{seat}", seat)
        play = await asyncio.create_subprocess_exec(
            str(Path(sys.executable).parent / "parlour"), "play", "--join", match,
            "--gateway", address, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        _out, err = await play.communicate()
    assert play.returncode == 2
    assert err.decode().strip() == (
        "parlour play: Every seat of this match is taken: you can watch it instead.")


async def test_one_choice_decisions_are_played_for_you_and_every_menu_has_a_prompt(redis_url):
    """Issue 43 items 2 and 5: with one-choice decisions played for the person (`parlour
    play`'s default), the menu never waits on a single choice, the feed says what was
    played for you, and every menu has a prompt saying what the decision is for."""
    game, _title, seats, _most, options = CASES["isayholmes-standard"]
    async with running_stack(redis_url, games=(game,), heartbeat_seconds=0.2) as (address, _):
        async with GatewayClient(address) as client:
            table = await Table.create(client, game, seats, "Ada", options)
            bots = start_bots(address, table.match, seats - 1, "random")
            app = PlayApp(table, play_forced=True)
            rng = Rng.from_seed(11)
            try:
                async with app.run_test(size=(140, 45)) as pilot:
                    while True:
                        await asyncio.wait_for(app.ready.wait(), 300)
                        snapshot = app.snapshot
                        if snapshot.progress.HasField("outcome"):
                            break
                        labels = menu_labels(app)
                        assert len(labels) > 1, labels
                        assert shown(app, "#prompt").strip(), labels
                        await pilot.press(*str(rng.below(len(labels)) + 1), "enter")
                        async with app.updated:
                            await app.updated.wait_for(
                                lambda v=snapshot.progress.version:
                                app.snapshot.progress.version > v)
                    feed = "\n".join(str(line.text) for line in app.query_one("#feed").lines)
            finally:
                if bots.poll() is None:
                    bots.terminate()
                bots.wait()
    assert "Played for you, your only choice:" in feed


async def test_away_and_back_in_the_terminal(redis_url):
    """Issue 44, "away until ...": in a correspondence match that takes pauses, F4 starts
    the away line, `away 1` and Enter pauses Ada's clock (the clock line and the other seat
    see it), a line that is no date is told how to type it, `back` ends the pause; in a
    match without pauses F4 does nothing."""
    corr = gw.Correspondence(hours_per_move=72, max_pause_days=3)
    async with running_stack(redis_url, games=("tinycards",), heartbeat_seconds=0.2) as (
        address, _):
        async with GatewayClient(address) as client:
            match = (await client.stub.CreateMatch(gw.CreateMatchRequest(
                game="tinycards", seats=2, lifecycle=gw.LifecycleOptions(
                    correspondence=corr)))).match.name
            ben = await client.join(match, "Ben", 1)
            app = PlayApp(await Table.join(client, match, "Ada", 0))
            async with app.run_test(size=(140, 45)) as pilot:
                await until(app, lambda: app.snapshot is not None)
                await pilot.press("f4")
                assert app.query_one("#choice", Input).value == "away "
                await pilot.press(*"soon", "enter")
                told = [n.message for n in app._notifications]
                assert any(m.startswith("“soon” is not a date: type away") for m in told), told
                assert not (await ben.progress()).away
                await pilot.press(*"away 1", "enter")
                await until(app, lambda: "You are away until" in shown(app, "#clocks"))
                away = (await ben.progress()).away
                assert [a.seat for a in away] == [0]
                assert away[0].until_unix_ms > time.time() * 1000 + 23 * 3_600_000
                await pilot.press(*"back", "enter")
                await until(app, lambda: "away until" not in shown(app, "#clocks"))
                assert (await ben.progress()).away[0].until_unix_ms == 0
            other = (await client.stub.CreateMatch(gw.CreateMatchRequest(
                game="tinycards", seats=2))).match.name
            app = PlayApp(await Table.join(client, other, "Ada", 0))
            async with app.run_test(size=(140, 45)) as pilot:
                await until(app, lambda: app.snapshot is not None)
                await pilot.press("f4")
                assert app.query_one("#choice", Input).value == ""
