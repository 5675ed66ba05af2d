"""Issue 44, "away until ..." in a real browser (Debian's chromium through Playwright, as
tests/test_correspondence_browser.py): beside the clocks of a correspondence match that takes
pauses, the player picks the date they are back and sets it; the clocks line and the feed say
"You are away until …", the other seat (SDK) sees the pause; "I am back" ends it."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from test_table_browser import CHROMIUM, WAIT_S, Browser

from parlour.client import GatewayClient
from parlour.gateway.v1 import gateway_pb2 as gw
from stack import running_stack

WAIT_MS = WAIT_S * 1000

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")


async def test_a_player_sets_away_and_comes_back_from_the_page(redis_url):
    """Seat 0 in the browser, seat 1 through the SDK (Ben)."""
    async with running_stack(redis_url, games=("tinycards",), heartbeat_seconds=0.2) as (
        address, _):
        async with GatewayClient(address) as client, Browser(address) as browser:
            corr = gw.Correspondence(hours_per_move=72, max_pause_days=3)
            match = (await client.stub.CreateMatch(gw.CreateMatchRequest(
                game="tinycards", seats=2, allow_spectators=True,
                lifecycle=gw.LifecycleOptions(correspondence=corr)))).match
            ben = await client.join(match.name, "Ben", seat=1)
            page = await browser.browser.new_page(viewport={"width": 1024, "height": 768})
            await page.goto(f"{browser.url}#join={match.name}")
            await page.get_by_text("At the table: guest (you) · Ben").wait_for(timeout=WAIT_MS)
            local = await page.evaluate(
                "ms => new Date(ms - new Date(ms).getTimezoneOffset() * 60000)"
                ".toISOString().slice(0, 16)", int(time.time() * 1000) + 86_400_000)
            await page.get_by_label("Away until…").fill(local)
            await page.get_by_role("button", name="Set").click()
            clocks = page.locator("#clocks")
            await clocks.get_by_text("You are away until").wait_for(timeout=WAIT_MS)
            assert "You have 95:" in await clocks.inner_text()  # 3 days plus the day away
            feed = page.get_by_role("region", name="What happened")
            await feed.get_by_text("You are away until").wait_for(timeout=WAIT_MS)
            away = (await ben.progress()).away
            assert [a.seat for a in away] == [0] and away[0].until_unix_ms > time.time() * 1000
            await page.get_by_role("button", name="I am back").click()
            await feed.get_by_text("You are back").wait_for(timeout=WAIT_MS)
            assert (await ben.progress()).away[0].until_unix_ms == 0
            await clocks.get_by_text("away until").wait_for(state="detached", timeout=WAIT_MS)
            await page.close()
