"""Issue 45, "Play now" in the browser: two pages (two people) press "Play now" on the
same game, see the wait with its rating window, and meet in one match within seconds; a
reload and a second tab put a player back in their seat; a third page's Cancel stops its
search. Debian's chromium through Playwright, the web
client over `parlour serve-web`'s relay, a real gateway and Redis."""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from pathlib import Path

import grpc
import pytest
from test_table_browser import CHROMIUM, SCREENSHOTS, Browser

from parlour.client import GatewayClient
from parlour.client.matchmaking import cancel_ticket
from parlour.gateway.config import Matchmaking
from stack import running_stack

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")
FAST = Matchmaking(pass_seconds=0.1, poll_seconds=0.3, keep_seconds=2)


async def press_play_now(page, name: str) -> None:
    await page.get_by_role("heading", name="Play now").wait_for()
    await page.get_by_label("Your name").fill(name)
    row = page.locator(".play-now-row", has_text="Tiny Cards")
    await row.get_by_role("button", name="Play now").click()


async def forgotten(address: str, page, match: str) -> None:
    """Wait until the gateway forgot the ticket the page keeps for `match` (CancelTicket
    answers NOT_FOUND instead of TICKET_ALREADY_MATCHED; it changes nothing)."""
    ticket = await page.evaluate(
        f"JSON.parse(localStorage.getItem('parlour:seat:{match}')).ticket")
    async with GatewayClient(address) as client:
        async with asyncio.timeout(60):
            while True:
                try:
                    await cancel_ticket(client, ticket)
                except grpc.aio.AioRpcError as error:
                    if error.code() == grpc.StatusCode.NOT_FOUND:
                        return
                await asyncio.sleep(0.5)


async def test_two_pages_press_play_now_and_meet(redis_url):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    async with running_stack(redis_url, games=("tinycards",), matchmaking=FAST) as (
        address, _):
        async with Browser(address) as browser:
            ada, bea = await browser.page(), await browser.page()
            tag = uuid.uuid4().hex[:6]  # newcomers: other tests' Ada has a rating
            await press_play_now(ada, f"Ada {tag}")
            wait = ada.get_by_role("status").filter(has_text="Looking for players rated")
            await wait.wait_for(timeout=30_000)
            assert re.search(r"rated 25\.0 ± \d+\.\d", await wait.inner_text())
            await ada.screenshot(path=str(SCREENSHOTS / "play-now-waiting.png"))
            started = time.monotonic()
            await press_play_now(bea, f"Bea {tag}")
            for page in (ada, bea):
                await page.wait_for_url(re.compile(r"#join=matches/"), timeout=30_000)
            took = time.monotonic() - started
            names = [p.url.split("#join=")[1] for p in (ada, bea)]
            assert names[0] == names[1] and names[0].startswith("matches/")
            await ada.get_by_text(f"Bea {tag}").first.wait_for(timeout=30_000)  # seated together
            await ada.screenshot(path=str(SCREENSHOTS / "play-now-matched.png"))
            assert took < 30, f"meeting took {took:.1f} s"

            # a reload, then a later visit of the match's link in the same browser: back in
            # the matched seat (the page keeps the ticket), not a private table's refusal
            # (and once the gateway forgot the ticket, 2 s after the match here: by the
            # seat's last token)
            for visit in ("reload", "link", "forgotten"):
                if visit == "reload":
                    await ada.reload()
                else:
                    if visit == "forgotten":
                        await forgotten(address, ada, names[0])
                    await ada.goto("about:blank")
                    await ada.goto(browser.url + f"#join={names[0]}")
                await ada.locator("#you").filter(has_text=f"You are Ada {tag}").wait_for(
                    timeout=30_000)
                assert ada.url.endswith(f"#join={names[0]}"), visit
                assert "private table" not in await ada.locator("#error").inner_text()

            cy = await browser.page()
            await press_play_now(cy, f"Cy {tag}")
            await cy.get_by_role("status").filter(
                has_text="Looking for players rated").wait_for(timeout=30_000)
            await cy.get_by_role("button", name="Cancel").click()
            await cy.get_by_text("Stopped looking.").wait_for(timeout=30_000)
            assert await cy.get_by_role("button", name="Play now").first.is_enabled()
