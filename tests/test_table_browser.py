"""Issues 12 and 24: a person plays whole matches in a real browser against bots.

Debian's chromium (no browser download) is driven by Playwright through the web client,
which talks Connect to `parlour serve-web`'s relay in front of a real gateway; bots are
`parlour bots` processes started by the page's request. The test acts as a person: it
reads only visible text and clicks buttons and fields by their visible label (never ids or
data attributes), and fails when two choices of one decision read the same or the page
shows an internal id. Screenshots of every case mid-match and at the end go to
.parlour/screenshots/ (docs/pictures/ holds the boards' pictures: tests/test_board_browser.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import socket
import time
from pathlib import Path

import pytest
import uvicorn
from playwright.async_api import TimeoutError as PlaywrightTimeout
from table_cases import ACTOR_TWICE, CASES, FULL, QUICK, SHORTER, choice_problems, screen_problems

from parlour.client import GatewayClient
from parlour.client.seating import way_label
from parlour.engine.registry import get_game
from parlour.engine.rng import Rng
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.web.server import web_app
from stack import running_stack

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / ".parlour/screenshots"
#: Where the board tests' pictures go (`make pictures`: docs/pictures/).
PICTURES = ROOT / "docs/pictures" if os.environ.get("PARLOUR_PICTURES") else SCREENSHOTS
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
WAIT_S = 180

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")


async def web_server(gateway: str):
    """The web app on a socket bound here (so it is reachable before serve() runs)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    server = uvicorn.Server(uvicorn.Config(web_app(gateway), log_level="warning", lifespan="on"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    return server, task, f"http://127.0.0.1:{sock.getsockname()[1]}/"


class Browser:
    """A served web client and a chromium page on it."""

    def __init__(self, address: str) -> None:
        self.address = address

    async def __aenter__(self):
        from playwright.async_api import async_playwright

        self.server, self.task, self.url = await web_server(self.address)
        self.pw = await async_playwright().start()
        self.browser = await self.pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        return self

    async def page(self, hash_: str = ""):
        page = await self.browser.new_page(viewport={"width": 1024, "height": 768})
        await page.goto(self.url + hash_)
        return page

    async def __aexit__(self, *exc):
        await self.browser.close()
        await self.pw.stop()
        self.server.should_exit = True
        await self.task


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(w.capitalize() for w in rest)


async def sit_down(page, case: str) -> None:
    """In the lobby: the game, its way to play, seats and bots as offered, the name."""
    game, title, seats, most, _options = CASES[case]
    await page.get_by_role("heading", name="New match").wait_for()
    await page.get_by_label("Game", exact=True).select_option(label=get_game(game).display_name)
    way = way_label(title, seats, most)
    await page.get_by_label("Way to play").select_option(label=way)
    assert await page.get_by_label("Seats").input_value() == str(seats)
    assert await page.get_by_label("Bots", exact=True).input_value() == str(seats - 1)
    await page.get_by_label("Bots play").select_option(label="random")
    await page.get_by_label("Your name").fill("Ada")
    if SHORTER.get(game):
        await page.get_by_text("Advanced: change the rules' settings").click()
        box = page.get_by_label("Rules settings")
        typed = json.loads(await box.input_value() or "{}")
        typed.update({camel(k): v for k, v in SHORTER[game].items()})
        await box.fill(json.dumps(typed))
    await page.get_by_role("button", name="Create and sit down").click()


#: What the person can press: the choices' buttons, or the targets a game's board highlights.
LEGAL = "[data-legal], #actions-box button:not(.back)"


async def turn(page, deadline: float) -> list[str] | None:
    """Wait for the person's turn: the choices' words (a board target's accessible name)
    once they can be pressed, or None once the game is over."""
    choices = page.locator(LEGAL)
    while time.monotonic() < deadline:
        if "Game over." in await page.locator("body").inner_text():
            return None
        if await page.evaluate("document.body.dataset.state") != "your-turn":
            await asyncio.sleep(0.05)
            continue
        shown = await choices.evaluate_all(
            "bs => bs.map(b => [b.getAttribute('aria-label') || b.innerText, !!b.disabled])")
        if shown and not any(disabled for _, disabled in shown):
            return [label for label, _ in shown]
        await asyncio.sleep(0.05)
    raise TimeoutError("the page never offered a choice")


async def play_in_browser(redis_url: str, case: str) -> dict:
    """Play `case` as Ada to the end, then watch it; what the person and watcher read."""
    game = CASES[case][0]
    problems: list[str] = []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    async with running_stack(redis_url, games=(game,), heartbeat_seconds=0.2) as (address, _):
        async with Browser(address) as browser:
            page = await browser.page()
            await sit_down(page, case)
            rng = Rng.from_seed(7)
            moves = 0
            while (labels := await turn(page, time.monotonic() + WAIT_S)) is not None:
                text = await page.locator("body").inner_text()
                # two copies of one card in a hand are one choice, named alike
                problems += choice_problems(sorted(set(labels)))
                problems += screen_problems(text.splitlines())
                assert re.search(r"^Your turn", text, re.MULTILINE)
                pick = rng.below(len(labels))
                moves += 1
                if moves == 6:
                    await page.screenshot(path=str(SCREENSHOTS / f"{case}-during.png"))
                try:
                    await page.locator(LEGAL).nth(pick).click(timeout=5_000)
                except PlaywrightTimeout:
                    continue  # the table moved on under the pointer: look again
            text = await page.locator("body").inner_text()
            problems += screen_problems(text.splitlines())
            await page.screenshot(path=str(SCREENSHOTS / f"{case}-end.png"))
            feed = await page.get_by_role("region", name="What happened").inner_text()
            watcher = await browser.page("#" + page.url.split("#")[1].replace("join", "watch"))
            deadline = time.monotonic() + WAIT_S
            while "Game over." not in (watched := await watcher.locator("body").inner_text()):
                assert time.monotonic() < deadline
                await asyncio.sleep(0.1)
            spectator_choices = await watcher.get_by_role("region", name="Your choices").count()
            problems += screen_problems(watched.splitlines())
    return {"moves": moves, "text": text, "feed": feed, "watched": watched,
            "spectator_choices": spectator_choices, "problems": sorted(set(problems))}


def status_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("Game over."))


async def check_case(redis_url: str, case: str) -> None:
    seen = await play_in_browser(redis_url, case)
    assert seen["moves"] > 0
    assert not seen["problems"], "\n".join(seen["problems"][:40])
    assert re.search(r"^You ", seen["feed"], re.MULTILINE), "the person's moves read 'You …'"
    assert not re.search(ACTOR_TWICE, seen["feed"], re.MULTILINE)
    assert not re.search(r"^\d+\. #\d+", seen["feed"], re.MULTILINE), "numbered twice"
    assert seen["spectator_choices"] == 0
    mine, watched = status_line(seen["text"]), status_line(seen["watched"])
    assert watched.split("Final scores:")[1] == re.sub(r"\bYou\b", "Ada",
                                                        mine.split("Final scores:")[1])


@pytest.mark.parametrize("case", QUICK)
async def test_a_person_plays_a_match_in_the_browser(redis_url, case):
    """Issues 12 items 3-4, 24: create with bots, pick choices by their words, to the end;
    the table in the rulebook's words, the feed in the viewer's terms; then watch it."""
    await check_case(redis_url, case)


@pytest.mark.table_full
@pytest.mark.parametrize("case", FULL)
async def test_every_game_and_variant_plays_to_the_end_in_the_browser(redis_url, case):
    """Issue 24: every game and variant, end to end in chromium, with screenshots."""
    await check_case(redis_url, case)


async def test_bad_choices_are_told_before_the_match_exists(redis_url):
    """Issue 24: a seat count outside the variant's range is refused in words and Create is
    disabled; seats nobody fills are pointed out and the page offers bots for them."""
    async with running_stack(redis_url, games=("tinycards",)) as (address, _):
        async with GatewayClient(address) as client:
            before = len((await client.matches()).matches)
        async with Browser(address) as browser:
            page = await browser.page()
            await page.get_by_role("heading", name="New match").wait_for()
            await page.get_by_label("Seats").fill("1")
            body = await page.locator("body").inner_text()
            assert "Tiny Cards (test game) takes 2 to 4 seats, not 1." in body
            create = page.get_by_role("button", name="Create and sit down")
            assert await create.is_disabled()
            await page.get_by_label("Seats").fill("3")
            await page.get_by_label("Bots", exact=True).fill("1")
            assert "1 seat would stay empty" in await page.locator("body").inner_text()
            await page.get_by_role("button", name="Fill the empty seats with bots").click()
            assert await page.get_by_label("Bots", exact=True).input_value() == "2"
            assert "would stay empty" not in await page.locator("body").inner_text()
            assert await create.is_enabled()
        async with GatewayClient(address) as client:
            assert len((await client.matches()).matches) == before, "no match was created"


async def test_time_banks_run_and_an_undo_request_is_answered(redis_url):
    """Issue 24 item 5: every seat's time bank counts down while it owes a decision, and an
    open undo request shows who asks, what, and Accept/Refuse to the seat asked."""
    lifecycle = gw.LifecycleOptions(time_bank_ms=600_000, allow_undo=True,
                                    undo_needs_agreement=True)
    async with running_stack(redis_url, games=("murdercastle",), heartbeat_seconds=0.2) as (
        address, _):
        async with GatewayClient(address) as client:
            request = gw.CreateMatchRequest(game="murdercastle", seats=3, seed=5,
                                            allow_spectators=True, request_id="m1",
                                            lifecycle=lifecycle)
            match = (await client.stub.CreateMatch(request)).match.name
            bob = await client.join(match, "Bob", 0)
            cy = await client.join(match, "Cy", 2)
            async with Browser(address) as browser:
                page = await browser.page()
                await page.get_by_label("Match", exact=True).fill(match)
                await page.get_by_label("Your name").fill("Ada")
                await page.get_by_role("button", name="Join").click()
                await page.get_by_text("Waiting for Bob").wait_for()
                clocks = page.get_by_text("Bob: 9:5")
                await clocks.wait_for()
                first = await clocks.inner_text()
                await asyncio.sleep(1.2)
                assert await page.get_by_text("Bob: 9:5").inner_text() != first
                assert "You: 10:00 in the bank" in await page.locator("body").inner_text()
                action, _label = (await bob.legal_actions())[0]
                await bob.submit(action)
                await bob.undo()
                ask = page.get_by_text("Bob asks to take back")
                await ask.wait_for()
                assert "waiting for you and Cy" in await ask.inner_text()
                await page.get_by_role("button", name="Accept").click()
                await page.get_by_text("waiting for Cy.").wait_for()
                assert await page.get_by_role("button", name="Accept").is_hidden()
                await cy.answer_undo(True)
                await ask.wait_for(state="hidden")


async def test_a_match_link_reopens_your_seat_or_offers_to_watch(redis_url):
    """Issue 33 item 2: the link of a full match offers someone else to watch it (one
    sentence, a Watch button); after the match ends, the same link in a new tab of the
    player's browser re-opens their seat (the join secret kept in localStorage), and
    offers the others to watch the finished match. Issue 42: the table's heading names the
    rules version the match is played under, for the player and the watcher alike."""
    async with running_stack(redis_url, games=("tinycards",), heartbeat_seconds=0.2) as (
        address, _):
        async with Browser(address) as browser:
            mine = await browser.browser.new_context(viewport={"width": 1024, "height": 768})
            page = await mine.new_page()
            await page.goto(browser.url)
            await sit_down(page, "tinycards-standard")
            await page.get_by_text("At the table: Ada (you) · Random bot 1").wait_for()
            version = f"rules version {get_game('tinycards').rules_version}"
            assert await page.locator("h2", has_text=version).count() == 1
            link = page.url.split("#")[1]
            assert link.startswith("join=matches/")

            async def stranger():
                other = await browser.page("#" + link)
                offer = other.get_by_text("Every seat of this match is taken: you can watch it")
                await offer.wait_for()
                body = await other.locator("body").inner_text()
                assert "MATCH_FULL" not in body and "Error" not in body
                await other.get_by_role("button", name="Watch this match").click()
                await other.get_by_role("region", name="What happened").wait_for()
                return other

            watcher = await stranger()
            assert await watcher.get_by_role("region", name="Your choices").count() == 0
            rng = Rng.from_seed(3)
            while (labels := await turn(page, time.monotonic() + WAIT_S)) is not None:
                label = labels[rng.below(len(labels))]  # a card or the deck, on the board
                try:
                    await page.get_by_role("button", name=label, exact=True).click(timeout=5_000)
                except PlaywrightTimeout:
                    continue  # the table moved on under the pointer: look again
            again = await mine.new_page()
            await again.goto(browser.url + "#" + link)
            await again.get_by_text("Game over.").wait_for()
            assert "Ada (you)" in await again.locator("body").inner_text()
            late = await stranger()
            await late.get_by_text("Game over.").wait_for()
            assert "(you)" not in await late.locator("body").inner_text()
            # the finished match's page (its feed replayed) names its rules version too
            assert await late.locator("h2", has_text=version).count() == 1


async def test_a_simultaneous_vote_is_not_bounced_by_another_seats_vote(redis_url):
    """Issue 33 item 3: in Play as Holmes the investigators vote at once, each vote a new
    version; a vote cast on buttons drawn before another seat's vote is the same choice
    still, so the page sends it again at the new version instead of a 409 (ABORTED,
    VERSION_MISMATCH) the person must answer by voting again."""
    from parlour.games.murdercastle.v1 import murdercastle_pb2

    options = murdercastle_pb2.Options(play_as_holmes=murdercastle_pb2.PlayAsHolmes(seat=0))
    secret = "s" * 24
    async with running_stack(redis_url, games=("murdercastle",)) as (address, _):
        async with GatewayClient(address) as client:
            created = await client.stub.CreateMatch(gw.CreateMatchRequest(
                game="murdercastle", seats=4, seed=11, allow_spectators=True,
                request_id="vote", options=pack(options)))
            match = created.match.name
            seats = [await client.join(match, name, n, join_secret=secret if n == 1 else "")
                     for n, name in enumerate(("Holmes", "Ada", "Ben", "Cy"))]
            voters = await drive_to_a_vote(seats)
            async with Browser(address) as browser:
                context = await browser.browser.new_context()
                kept = json.dumps({"match": match, "seat": 1, "joinSecret": secret})
                await context.add_init_script(
                    f"localStorage.setItem('parlour:seat:{match}', {json.dumps(kept)})")
                page = await context.new_page()
                await page.goto(browser.url + "#join=" + match)
                choices = page.get_by_role("region", name="Your choices")
                await choices.get_by_role("button", name=re.compile("^vote to keep")).wait_for()
                other = seats[voters[0]]
                await other.submit((await other.legal_actions())[0][0])
                await choices.get_by_role("button", name=re.compile("^vote to keep")).click()
                await page.get_by_text("Your vote: keep").wait_for()
                body = await page.locator("body").inner_text()
                assert "moved on" not in body and "VERSION_MISMATCH" not in body


def pack(message):
    from google.protobuf import any_pb2

    out = any_pb2.Any()
    out.Pack(message)
    return out


async def drive_to_a_vote(seats) -> list[int]:
    """Play the seats through the API (proposing discards when offered) until seat 1 and
    another investigator both owe a vote; the others who owe one."""
    rng = Rng.from_seed(1)
    for _ in range(3000):
        progress = await seats[0].progress()
        voting = [d.seat for d in progress.pending if d.kind == "junction_vote"]
        if 1 in voting and len(voting) > 1:
            return [s for s in voting if s != 1]
        seat = seats[progress.pending[rng.below(len(progress.pending))].seat]
        legal = await seat.legal_actions()
        proposals = [a for a, label in legal if label.startswith("propose")]
        await seat.submit(proposals[0] if proposals else legal[rng.below(len(legal))][0])
    raise AssertionError("no vote came up")


async def test_refusals_read_as_sentences(redis_url):
    """Issue 33 item 3: options that are not JSON, options the game refuses (BAD_OPTIONS)
    and a link to no match read as one sentence each: no error class, no raw reason (and
    the link opens the lobby, not a blank page)."""
    async with running_stack(redis_url, games=("isayholmes",)) as (address, _):
        async with Browser(address) as browser:
            page = await browser.page()
            await page.get_by_role("heading", name="New match").wait_for()
            await page.get_by_label("Bots", exact=True).fill("2")
            await page.get_by_text("Advanced: change the rules' settings").click()
            shown = page.get_by_role("alert")
            for typed, said in (
                ('{"rounds": ', "The options are not valid JSON: check their brackets, quotes "
                                "and commas."),
                ('{"rounds": 99}', "The game cannot be set up with these options: check them "
                                   "and try again."),
            ):
                await page.get_by_label("Rules settings").fill(typed)
                await page.get_by_role("button", name="Create and sit down").click()
                await page.get_by_text(said).wait_for()
                assert await shown.first.inner_text() == said
            lost = await browser.page("#join=matches/0123456789abcdef")
            await lost.get_by_role("heading", name="New match").wait_for()
            said = "There is no match of that name: check the link or the code."
            assert await lost.get_by_role("alert").first.inner_text() == said
