"""Issue 36 item 4.3: players' records on the web page, in a real browser (Debian's
chromium through Playwright, as tests/test_table_browser.py): the rating and its change
under a finished match, then in the lobby "Your record" (its matches link to their pages)
and a leaderboard per game with a variant picker, your row highlighted. The test reads
only visible text and finds things by their visible labels; no record key is ever shown."""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from pathlib import Path

import pytest
from lifecycle_support import own_redis
from test_table_browser import CHROMIUM, SCREENSHOTS, WAIT_S, Browser, turn

from parlour.client import GatewayClient
from parlour.client.bots import play_random_match
from parlour.engine.registry import get_game
from stack import running_stack

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")
SHOTS = SCREENSHOTS
#: A record's key as the API names it ("players/n3f…", "players/bot:greedy").
KEY = re.compile(r"players/|\b[np][0-9a-f]{32}\b")


@pytest.fixture
def fresh_redis():
    """A Redis of the test's own: the worker's Redis holds every other test's rated Tiny Cards
    matches, which push this person and the bot off the top and around rows it checks."""
    with own_redis() as url:
        yield url


async def test_a_person_sees_their_rating_record_and_leaderboards_in_the_browser(fresh_redis):
    """Issue 36 item 4.3: after a rated match against a bot, "Your rating in Tiny Cards
    (test game): x (+c) — 1 rated match, …" with the leaderboard around the person; in the
    lobby, "Your record" lists the match (its link opens the finished match) and each game
    has a leaderboard, Clash of Minds with a picker for its two ways to play; after an
    unrated match nothing about ratings shows."""
    name = f"Ada {uuid.uuid4().hex[:6]}"
    SHOTS.mkdir(parents=True, exist_ok=True)
    async with running_stack(fresh_redis, games=("tinycards", "clashofminds"),
                             heartbeat_seconds=0.2) as (address, _):
        async with GatewayClient(address) as client:
            agents = next(v for v in get_game("clashofminds").variants() if v.name == "agents")
            await play_random_match(client, "clashofminds", 2, 21, options=agents.options)
        async with Browser(address) as browser:
            page = await browser.page()
            await page.get_by_role("heading", name="New match").wait_for()
            game = page.get_by_label("Game", exact=True)
            await game.select_option(label="Tiny Cards (test game)")
            await page.get_by_label("Bots play").select_option(label="greedy")
            await page.get_by_label("Your name").fill(name)
            await page.get_by_role("button", name="Create and sit down").click()
            while (labels := await turn(page, time.monotonic() + WAIT_S)) is not None:
                await page.get_by_role("button", name=labels[0], exact=True).first.click()
            rating = page.get_by_role("region", name="Your rating")
            await rating.get_by_text("Your rating in ").wait_for(timeout=WAIT_S * 1000)
            shown = await rating.inner_text()
            assert re.match(r"Your rating in Tiny Cards \(test game\): \u2212?\d+\.\d "
                            r"\([+\u2212]\d+\.\d\) — 1 rated match, [01] wins?, #\d+ of \d+", shown)
            assert f"{name} (you)" in shown and "Greedy bot" in shown
            assert not KEY.search(shown)
            match = page.url.split("=", 1)[1]
            await page.screenshot(path=str(SHOTS / "records-end.png"), full_page=True)

            await page.get_by_role("button", name="Leave the table").click()
            record = page.get_by_role("region", name="Your record")
            link = record.get_by_role("link", name=re.compile(r"UTC, .*of 2 \("))
            await link.wait_for()
            text = await record.inner_text()
            assert f"Playing as {name}." in text
            assert re.search(r"Tiny Cards \(test game\): \u2212?\d+\.\d — 1 rated match", text)
            boards = page.get_by_role("region", name="Leaderboards")
            await boards.get_by_text(f"{name} (you)").wait_for()
            mine = boards.locator("tr", has_text=f"{name} (you)")
            assert await mine.count() == 1
            assert await mine.evaluate("r => getComputedStyle(r).fontWeight") == "700"
            clash = boards.get_by_label("Clash of Minds: Holmes vs Moriarty leaderboard")
            await clash.select_option(label="Agent Cards Included")
            await boards.get_by_text("Random bot", exact=True).first.wait_for()
            await page.screenshot(path=str(SHOTS / "records-lobby.png"), full_page=True)
            lobby = await page.locator("body").inner_text()
            assert not KEY.search(lobby), KEY.search(lobby)

            await link.click()
            await page.get_by_text("Game over.").wait_for()
            assert page.url.endswith(f"#watch={match}")
            assert await page.get_by_role("region", name="Your rating").count() == 0

            # an unrated match (the "Rated" box unticked): nothing about ratings shows
            await page.get_by_role("button", name="Leave the table").click()
            await page.get_by_role("heading", name="New match").wait_for()
            await game.select_option(label="Tiny Cards (test game)")
            await page.get_by_label("Your name").fill(name)
            await page.get_by_label("Rated").uncheck()
            await page.get_by_role("button", name="Create and sit down").click()
            while (labels := await turn(page, time.monotonic() + WAIT_S)) is not None:
                await page.get_by_role("button", name=labels[0], exact=True).first.click()
            friendly = page.url.split("=", 1)[1]
            async with GatewayClient(address) as client:
                assert not (await client.match(friendly)).rated
            await asyncio.sleep(1)  # a rating box would have shown by now (it is not awaited)
            assert await page.get_by_role("region", name="Your rating").count() == 0
            assert "rating" not in (await page.locator("body").inner_text()).lower()
