"""Issue 44 item 3 in a real browser (Debian's chromium through Playwright, as
tests/test_table_browser.py): a person plays a turn of a 3-day match, closes the tab; the other
seat moves; the lobby of a new tab lists the match under "Your turn" with the days left, and
the page title counts it."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_table_browser import CHROMIUM, LEGAL, WAIT_S, Browser

from parlour.client import GatewayClient
from parlour.gateway.v1 import gateway_pb2 as gw
from stack import running_stack

WAIT_MS = WAIT_S * 1000

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")


async def test_the_lobby_lists_a_match_waiting_for_you(redis_url):
    """Seat 0 in the browser, seat 1 through the SDK (Ben)."""
    async with running_stack(redis_url, games=("tinycards",), heartbeat_seconds=0.2) as (
        address, _):
        async with GatewayClient(address) as client, Browser(address) as browser:
            lifecycle = gw.LifecycleOptions(correspondence=gw.Correspondence(hours_per_move=72))
            match = (await client.stub.CreateMatch(gw.CreateMatchRequest(
                game="tinycards", seats=2, allow_spectators=True, lifecycle=lifecycle))).match
            ben = await client.join(match.name, "Ben", seat=1)
            person = await browser.browser.new_context(viewport={"width": 1024, "height": 768})
            table = await person.new_page()
            await table.goto(f"{browser.url}#join={match.name}")
            await table.get_by_text("At the table: guest (you) · Ben").wait_for(
                timeout=WAIT_MS)
            choices = table.get_by_role("region", name="Your choices")
            await table.locator(LEGAL).first.click()  # a card or the deck, on the board
            await choices.wait_for(state="hidden", timeout=WAIT_MS)
            await table.close()

            lobby = await person.new_page()
            await lobby.goto(browser.url)
            waiting = lobby.get_by_role("list", name="Waiting for others")
            await waiting.get_by_role("button", name="with Ben").wait_for(
                timeout=WAIT_MS)
            await lobby.close()

            action = (await ben.legal_actions())[0][0]
            await ben.submit(action)
            lobby = await person.new_page()
            await lobby.goto(browser.url)
            yours = lobby.get_by_role("list", name="Your turn")
            entry = yours.get_by_role("button", name="with Ben")
            await entry.wait_for(timeout=WAIT_MS)
            assert "2 days left (until" in await entry.inner_text()
            assert await lobby.title() == "(1) Your turn · parlour"
            await entry.click()
            await lobby.get_by_text("At the table: guest (you) · Ben").wait_for(
                timeout=WAIT_MS)
            await lobby.get_by_role("region", name="Your choices").wait_for(
                timeout=WAIT_MS)
