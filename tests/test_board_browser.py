"""Issue 43 items 1, 2, 5: each game drawn as a board the person plays by clicking it.

A person plays a whole match in Debian's chromium against bots by clicking (or pressing
Enter on) the targets the page highlights, never a button found by its words. Every
decision has a prompt; no step offers more than 12 choices; every target has an accessible
name; axe-core (from the npm registry, clients/web/node_modules) finds no serious or
critical violation on the board. A screenshot per game goes to .parlour/screenshots/ (to
docs/pictures/ with PARLOUR_PICTURES=1: `make pictures`).
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import pytest
from playwright.async_api import TimeoutError as PlaywrightTimeout
from test_table_browser import CHROMIUM, PICTURES, ROOT, Browser, sit_down

from parlour.engine.rng import Rng
from parlour.engine.text import text_problems
from stack import running_stack

AXE = ROOT / "clients/web/node_modules/axe-core/axe.min.js"
WAIT_S = 180
#: The most buttons one step may show (issue 43: "never more than ~12 choices at once").
BUTTONS = 12
#: The most targets one step of a Clash of Minds decision may highlight: every card of yours
#: that can act (hand, in play, deck, Agent), never a card × thread × Action Card product;
#: elsewhere a hand or a castle offers what it holds.
MOST = 16

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")


async def state(page) -> str:
    return await page.evaluate("document.body.dataset.state || ''")


async def targets(page, deadline: float) -> list[str] | None:
    """The accessible names of the highlighted targets once the person may act, or None
    once the game is over."""
    legal = page.locator("[data-legal]")
    while time.monotonic() < deadline:
        now = await state(page)
        if now == "over":
            return None
        if now == "your-turn":
            names = await legal.evaluate_all(
                "ts => ts.filter(t => !t.disabled)"
                ".map(t => t.getAttribute('aria-label') || t.innerText)")
            if names:
                return names
        await asyncio.sleep(0.05)
    raise TimeoutError("the page never offered a target")


async def axe_problems(page) -> list[str]:
    """axe-core's serious and critical violations on the table."""
    await page.add_script_tag(path=str(AXE))
    found = await page.evaluate(
        "async () => (await axe.run(document.getElementById('table'))).violations"
        ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
        ".map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '))")
    return found


async def play_on_the_board(redis_url: str, case: str, picture: str, moves_before_shot: int = 8,
                            most: int | None = None):
    """Play `case` as Ada by clicking highlighted targets only; what the person met."""
    game = case.split("-")[0]
    problems: list[str] = []
    PICTURES.mkdir(parents=True, exist_ok=True)
    async with running_stack(redis_url, games=(game,), heartbeat_seconds=0.2) as (address, _):
        async with Browser(address) as browser:
            page = await browser.page()
            await page.set_viewport_size({"width": 1280, "height": 900})
            page.set_default_timeout(30_000)
            await page.evaluate("localStorage.setItem('parlour:auto-forced', 'on')")
            await sit_down(page, case)
            rng = Rng.from_seed(11)
            moves = 0
            axe: list[str] | None = None
            while (names := await targets(page, time.monotonic() + WAIT_S)) is not None:
                # the decision's purpose (the server's words) and the step's (the board's)
                for prompt_id in ("prompt", "step-prompt"):
                    if not (await page.locator(f"#{prompt_id}").inner_text()).strip():
                        problems.append(f"no {prompt_id} for {names}")
                if most and len(set(names)) > most:
                    problems.append(f"{len(set(names))} choices at once: {names[:5]}…")
                buttons = await page.locator("#actions-box button[data-legal]").count()
                if buttons > BUTTONS:
                    problems.append(f"{buttons} buttons at once")
                if any(not n.strip() for n in names):
                    problems.append("a target without a name")
                problems += text_problems(names)
                problems += [f"a target named by its key: {n}" for n in names
                             if re.search(r"\b[a-z-]+:[\w{]", n)]
                if axe is None and moves >= 2:
                    axe = await axe_problems(page)
                pick = rng.below(len(names))
                target = page.locator("[data-legal]").nth(pick)
                moves += 1
                if moves == moves_before_shot:
                    await page.screenshot(path=str(PICTURES / picture), full_page=True)
                try:
                    if moves % 3 == 0:
                        await target.focus(timeout=5_000)
                        await target.press("Enter", timeout=5_000)
                    else:
                        await target.click(timeout=5_000)
                except PlaywrightTimeout:
                    continue  # the table moved on under the pointer: look again
                # the click either narrows the choice (new targets) or sends it
                await asyncio.sleep(0.05)
            if moves < moves_before_shot:  # a short match: its end, then
                await page.screenshot(path=str(PICTURES / picture), full_page=True)
            text = await page.locator("body").inner_text()
    return {"moves": moves, "problems": problems, "axe": axe or [], "text": text}


async def test_clash_of_minds_is_played_on_its_board(redis_url):
    """Clash of Minds to the end by clicking: a card, then a thread, then an Action Card;
    never more than 12 targets at once."""
    seen = await play_on_the_board(redis_url, "clashofminds-standard", "clashofminds.png",
                                   most=MOST)
    assert seen["moves"] > 10
    assert not seen["problems"], "\n".join(seen["problems"][:20])
    assert not seen["axe"], "\n".join(seen["axe"])
    assert "Game over." in seen["text"]


async def test_i_say_holmes_is_played_with_cards(redis_url):
    """I Say, Holmes! (one round) to the end: the hand, the Draw Pile, the Story Sequence
    and the opponents' seats are what is clicked."""
    seen = await play_on_the_board(redis_url, "isayholmes-standard", "isayholmes.png", 4)
    assert seen["moves"] > 0  # a round can end at once, when another seat goes out
    assert not seen["problems"], "\n".join(seen["problems"][:20])
    assert not seen["axe"], "\n".join(seen["axe"])
    assert "Game over." in seen["text"]


@pytest.mark.parametrize("case", ["murdercastle-standard", "murdercastle-automa-beginner",
                                  "murdercastle-play-as-holmes", "murdercastle-second-story"])
async def test_murder_castle_is_played_on_its_castle(redis_url, case):
    """Murder Castle in each mode (three rounds) to the end by clicking rooms, doorways,
    tiles, cubes and cards; a new room's rotations are pictures of the room, clicked."""
    seen = await play_on_the_board(redis_url, case, f"{case}.png", 12)
    assert seen["moves"] > 2
    assert not seen["problems"], "\n".join(seen["problems"][:20])
    assert not seen["axe"], "\n".join(seen["axe"])
    assert "Game over." in seen["text"]


async def test_house_of_horrors_is_played_on_its_board(redis_url):
    """House of Horrors to the end: Rooms, battles, cards in hand and spoils clicked."""
    seen = await play_on_the_board(redis_url, "houseofhorrors-standard", "houseofhorrors.png")
    assert seen["moves"] > 2
    assert not seen["problems"], "\n".join(seen["problems"][:20])
    assert not seen["axe"], "\n".join(seen["axe"])
    assert "Game over." in seen["text"]


async def test_clash_of_minds_with_agents_is_played_on_its_board(redis_url):
    """Clash of Minds' Agent mode to the end: the Agents are clicked too."""
    seen = await play_on_the_board(redis_url, "clashofminds-agents", "clashofminds-agents.png",
                                   20, most=MOST)
    assert not seen["problems"], "\n".join(seen["problems"][:20])
    assert not seen["axe"], "\n".join(seen["axe"])
    assert "Game over." in seen["text"]


async def test_tiny_cards_is_played_with_cards(redis_url):
    """Tiny Cards to the end: the cards of your hand and the deck are what is clicked; a
    lone choice (your last card, the deck empty) is played for you."""
    seen = await play_on_the_board(redis_url, "tinycards-standard", "tinycards.png", 3)
    assert seen["moves"] > 2
    assert not seen["problems"], "\n".join(seen["problems"][:20])
    assert not seen["axe"], "\n".join(seen["axe"])
    assert "Game over." in seen["text"]
