"""Issue 43 item 4, in a real browser (Debian's chromium through Playwright, as
tests/test_table_browser.py): a seat re-opened in a second tab leaves the first tab saying
so, with a button that re-opens it there (no uncaught seat-token error); the name box of a
new tab agrees with the name the person sits under; a player's view shows no match id, no
bot strategy key and no developer wording."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_table_browser import CHROMIUM, WAIT_S, Browser, sit_down

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
