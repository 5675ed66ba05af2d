"""Issue 43 item 4, in a real browser (Debian's chromium through Playwright, as
tests/test_table_browser.py): a seat re-opened in a second tab leaves the first tab saying
so, with a button that re-opens it there (no uncaught seat-token error); the name box of a
new tab agrees with the name the person sits under; a player's view shows no match id, no
bot strategy key and no developer wording; the status says bots are sitting down while
they are; the leaderboards open on the way to play last played to the end."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from playwright.async_api import TimeoutError as PlaywrightTimeout
from test_board_browser import targets
from test_table_browser import CHROMIUM, WAIT_S, Browser, sit_down

from parlour.engine.rng import Rng
from stack import running_stack

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")
LOST = "Your seat was opened in another tab or window"


async def test_a_replaced_seat_says_so_and_reopens_and_names_agree(redis_url):
    """Issue 43 item 4: two tabs of one browser on one seat: the older says the seat moved
    and re-opens it on a click (then the other tab says so); a new tab's name box says
    "Ada"; the table shows "Random bot 1", never "matches/…", "random-bot-1" or "for
    developers"; no uncaught error reaches the console."""
    async with running_stack(redis_url, games=("tinycards",), heartbeat_seconds=0.2) as (
        address, _):
        async with Browser(address) as browser:
            mine = await browser.browser.new_context(viewport={"width": 1024, "height": 768})
            uncaught: list[str] = []
            first = await mine.new_page()
            first.on("pageerror", lambda e: uncaught.append(str(e)))
            await first.goto(browser.url)
            await sit_down(first, "tinycards-standard")
            await first.get_by_text("At the table: Ada (you) · Random bot 1").wait_for()
            body = await first.locator("body").inner_text()
            for word in ("matches/", "random-bot", "for developers", "JSON"):
                assert word not in body, word
            link = first.url.split("#")[1]
            second = await mine.new_page()
            second.on("pageerror", lambda e: uncaught.append(str(e)))
            await second.goto(browser.url + "#" + link)
            await second.get_by_text("At the table: Ada (you)").wait_for()
            await first.get_by_text(LOST).wait_for(timeout=WAIT_S * 1000)
            assert await first.get_by_role("region", name="Your choices").count() == 0 or (
                await first.get_by_role("region", name="Your choices").is_hidden())
            await first.get_by_role("button", name="Re-open your seat here").click()
            await second.get_by_text(LOST).wait_for(timeout=WAIT_S * 1000)
            await first.get_by_text("At the table: Ada (you)").wait_for()
            assert LOST not in await first.locator("body").inner_text()
            lobby = await mine.new_page()
            await lobby.goto(browser.url)
            await lobby.get_by_role("heading", name="New match").wait_for()
            assert await lobby.get_by_label("Your name").input_value() == "Ada"
            assert not uncaught, uncaught


#: Records every text the match status (#status) shows, in order, from before the match
#: is created: a MutationObserver in the page, so no text is missed between two polls.
RECORD_STATUS = """() => {
  window.statuses = [];
  const box = document.getElementById("status");
  new MutationObserver(() => window.statuses.push(box.textContent))
    .observe(box, { childList: true, characterData: true, subtree: true });
}"""


async def test_the_status_says_bots_are_sitting_down_while_they_are(redis_url):
    """Issue 43 item 4: between creating a match with a bot and the bot's seat being taken,
    the status says "A bot is sitting down", never "waiting for 1 more player: share this
    page's address". The bot's start is held (the page's POST /api/bots answered here, then
    sent to the server once the status was read), so the moment is always seen."""
    async with running_stack(redis_url, games=("tinycards",), heartbeat_seconds=0.2) as (
        address, _):
        async with Browser(address) as browser:
            page = await browser.page()
            held: list[str] = []

            async def hold(route):
                held.append(route.request.post_data)
                body = json.loads(route.request.post_data)
                await route.fulfill(status=200, content_type="application/json",
                                    body=json.dumps(body))

            await page.route("**/api/bots", hold)
            await page.evaluate(RECORD_STATUS)
            await sit_down(page, "tinycards-standard")
            await page.wait_for_function(
                "() => window.statuses.some(s => s.includes('sitting down'))",
                timeout=60_000)
            assert len(held) == 1
            await page.unroute("**/api/bots")
            sent = await page.request.post(browser.url + "api/bots", data=held[0],
                                           headers={"content-type": "application/json"})
            assert sent.ok
            await page.get_by_text("At the table: Ada (you) · Random bot 1").wait_for(
                timeout=WAIT_S * 1000)
            await page.wait_for_function(
                "() => !document.getElementById('status').textContent.includes('sitting')",
                timeout=WAIT_S * 1000)
            statuses = await page.evaluate("window.statuses")
            assert any("a bot is sitting down" in s.lower() for s in statuses), statuses
            assert not [s for s in statuses if "more player" in s or "share" in s], statuses


async def test_the_leaderboard_opens_on_the_way_to_play_just_played(redis_url):
    """Issue 43 item 4: after a rated match of Clash of Minds' "Agent Cards Included"
    played to the end against a bot, the lobby's Clash of Minds leaderboard opens on that
    way to play, where the person's row is, not on the base game (as Murder Castle's opened
    on the standard game after an Automa win: "Nobody has finished a rated match here
    yet")."""
    async with running_stack(redis_url, games=("clashofminds",), heartbeat_seconds=0.2) as (
        address, _):
        async with Browser(address) as browser:
            page = await browser.page()
            await sit_down(page, "clashofminds-agents")
            rng = Rng.from_seed(5)
            while (names := await targets(page, time.monotonic() + WAIT_S)) is not None:
                try:  # a highlighted target on the board, as a person picks one
                    await page.locator("[data-legal]").nth(rng.below(len(names))).click(
                        timeout=5_000)
                except PlaywrightTimeout:
                    continue  # the table moved on under the pointer: look again
                await asyncio.sleep(0.05)
            rating = page.get_by_role("region", name="Your rating")
            await rating.get_by_text("Your rating in ").wait_for(timeout=WAIT_S * 1000)
            await page.get_by_role("button", name="Leave the table").click()
            boards = page.get_by_role("region", name="Leaderboards")
            label = "Clash of Minds: Holmes vs Moriarty leaderboard"
            picker = boards.get_by_label(label)
            await picker.wait_for()
            chosen = await picker.evaluate("p => p.selectedOptions[0].textContent")
            assert chosen == "Agent Cards Included"
            board = boards.locator("section", has=page.get_by_label(label))
            await board.get_by_text("Ada (you)").wait_for()
            assert "Random bot" in await board.inner_text()
