"""Issue 12 items 3 and 4: a person plays whole matches in a real browser against bots.

Debian's chromium (no browser download) is driven by Playwright through the web client,
which talks Connect to `parlour serve-web`'s relay in front of a real gateway; bots are
`parlour bots` processes started by the page's request. One screenshot per game is kept
under .parlour/screenshots/ (<game>.png at the end, <game>-during.png after six moves).
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import socket
from pathlib import Path

import pytest
import uvicorn

from parlour.engine.rng import Rng
from parlour.web.server import web_app
from stack import running_stack

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parent.parent / ".parlour" / "screenshots"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
#: (seats, options JSON as a person would type it) per game: short matches.
GAMES = {
    "tinycards": (2, ""),
    "isayholmes": (3, '{"rounds": 1}'),
    "houseofhorrors": (3, ""),
    "clashofminds": (2, ""),
    "murdercastle": (2, '{"roundLimit": 3}'),
    # issue 15: the person (seat 0) plays Holmes against three bot investigators
    "murdercastle-play-as-holmes": (4, '{"playAsHolmes": {"seat": 0}}'),
}
WAIT_MS = 180_000

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")


async def web_server(gateway: str):
    """The web app on a socket bound here (so it is reachable before serve() runs)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    server = uvicorn.Server(uvicorn.Config(web_app(gateway), log_level="warning", lifespan="on"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    return server, task, f"http://127.0.0.1:{sock.getsockname()[1]}/"


async def play_in_browser(redis_url: str, case: str) -> Path:
    from playwright.async_api import async_playwright

    seats, options = GAMES[case]
    game = case.split("-")[0]
    async with running_stack(redis_url, games=(game,), heartbeat_seconds=0.2) as (address, _):
        server, task, url = await web_server(address)
        try:
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
                page = await browser.new_page(viewport={"width": 1400, "height": 1000})
                await page.goto(url)
                await page.wait_for_function("document.body.dataset.ready === '1'")
                await page.select_option("#game", game)
                await page.fill("#seats", str(seats))
                await page.fill("#bots", str(seats - 1))
                await page.select_option("#strategy", "random")
                await page.fill("#name", "Ada")
                if options:
                    await page.click("summary")
                    await page.fill("#options", options)
                await page.click("#create")
                moves = 0
                rng = Rng.from_seed(7)
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                while True:
                    await page.wait_for_function(
                        "['your-turn', 'over'].includes(document.body.dataset.state)",
                        timeout=WAIT_MS,
                    )
                    if await page.evaluate("document.body.dataset.state") == "over":
                        break
                    assert "You decide" in await page.inner_text("#status")
                    version = await page.evaluate("document.body.dataset.version")
                    count = await page.locator("#actions button").count()
                    await page.click(f"#actions button >> nth={rng.below(count)}")
                    moves += 1
                    if moves == 6:
                        await page.screenshot(path=str(SCREENSHOTS / f"{case}-during.png"))
                    await page.wait_for_function(
                        f"document.body.dataset.version !== {json.dumps(version)} "
                        "&& document.body.dataset.state !== 'acting'",
                        timeout=WAIT_MS,
                    )
                status = await page.inner_text("#status")
                view_text = await page.inner_text("#view")
                feed = await page.inner_text("#feed")
                match = (await page.inner_text("#match-name")).strip()
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                shot = SCREENSHOTS / f"{case}.png"
                await page.screenshot(path=str(shot), full_page=True)
                print(f"screenshot: {shot}")
                watcher = await browser.new_page()
                await watcher.goto(f"{url}#watch={match}")
                await watcher.wait_for_function("document.body.dataset.state === 'over'")
                watched = await watcher.inner_text("#status")
                spectator_buttons = await watcher.locator("#actions button").count()
                await browser.close()
        finally:
            server.should_exit = True
            await task
    assert moves > 0
    assert status.startswith("Game over.")
    assert "You:" in feed
    assert watched.startswith("Game over.") and spectator_buttons == 0
    assert watched.split("Scores")[1] == status.split("Scores")[1]
    if case == "murdercastle-play-as-holmes":  # Holmes' own parts are in his view
        assert "Holmes tracker: " in view_text and "Junction:" in view_text
    if case == "murdercastle":  # rooms by name, not by place id
        assert "Holmes: " in view_text and not re.search(r"(Holmes:|place) \d", view_text)
    return shot


async def test_a_person_plays_a_match_in_the_browser(redis_url):
    """Issue 12 items 3-4: create with bots, pick from the legal list, to the end; watch."""
    shot = await play_in_browser(redis_url, "tinycards")
    assert shot.stat().st_size > 0


@pytest.mark.table_full
@pytest.mark.parametrize("case", [g for g in GAMES if g != "tinycards"])
async def test_every_game_plays_to_the_end_in_the_browser(redis_url, case):
    """Issue 12 items 3-4: every game, end to end in chromium, with a screenshot."""
    shot = await play_in_browser(redis_url, case)
    assert shot.stat().st_size > 0
