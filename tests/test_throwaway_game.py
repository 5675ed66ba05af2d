"""Issue 46 item 1: a game is one folder. A throwaway game (Tiny Cards copied under a new
name, with its contract, into a temporary source root: no file of the tree changes) is
found by the registry and played to the end through the SDK, the terminal client and the
web page in chromium; the clients learn its message types from the gateway (ListGames
with_files), its words from its own folder."""

from __future__ import annotations

import asyncio
import re
import shutil
import sys
import time
from pathlib import Path

import pytest
from google.protobuf import descriptor_pb2
from grpc_tools import protoc
from table_cases import screen_problems
from test_table_browser import CHROMIUM, LEGAL, Browser, turn
from test_table_terminal import menu_labels, screen, shown

from parlour.client import GatewayClient
from parlour.client.bots import play_random_match
from parlour.client.seating import way_label
from parlour.client.table import Table, start_bots
from parlour.client.terminal import PlayApp
from parlour.engine.registry import game_modules, get_game, load_game
from parlour.engine.rng import Rng
from parlour.rules.core import json_names
from stack import running_stack

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "services" / "parlour" / "games" / "tinycards"
CONTRACT = ROOT / "protos" / "parlour" / "games" / "tinycards" / "v1" / "tinycards.proto"
NAME, TITLE = "scratchcards", "Scratch Cards"
RENAMES = (("tinycards", NAME), ("TinyCards", "ScratchCards"), ("Tiny Cards", TITLE))


def renamed(text: str) -> str:
    for old, new in RENAMES:
        text = text.replace(old, new)
    return text


def make_game(root: Path) -> Path:
    """The game folder and its contract under `root` (a source root, as services/ is), its
    Python code generated from the contract as `make gen` does."""
    folder = root / "parlour" / "games" / NAME
    shutil.copytree(SOURCE, folder, ignore=shutil.ignore_patterns("tests", "v1", "__pycache__"))
    for path in folder.rglob("*"):
        if path.is_file():
            path.write_text(renamed(path.read_text()))
    protos = root / "protos"
    contract = protos / "parlour" / "games" / NAME / "v1" / f"{NAME}.proto"
    contract.parent.mkdir(parents=True)
    contract.write_text(renamed(CONTRACT.read_text()))
    assert protoc.main(["protoc", f"-I{protos}", f"--python_out={root}", str(contract)]) == 0
    return folder


@pytest.fixture(scope="module")
def throwaway(tmp_path_factory):
    """The game's source root on sys.path and PYTHONPATH (for the bots' processes)."""
    root = tmp_path_factory.mktemp("source-root")
    folder = make_game(root)
    assert not folder.is_relative_to(ROOT)
    mp = pytest.MonkeyPatch()
    sys.path.insert(0, str(root))
    mp.setenv("PYTHONPATH", str(root), prepend=":")
    try:
        yield get_game(NAME)
    finally:
        sys.path.remove(str(root))
        mp.undo()
        load_game.cache_clear()


def test_the_registry_finds_the_folder(throwaway):
    assert NAME in game_modules()
    assert throwaway.display_name.startswith(TITLE)


def test_the_files_clients_learn_from_name_every_field_in_json(throwaway):
    """protoc leaves json_name out of generated Python (as here, and in images built by
    tools/gen_protos.py); DescribeGame's files fill it in, or protobuf-es reads ""."""
    file = throwaway.view_type.DESCRIPTOR.file
    proto = descriptor_pb2.FileDescriptorProto()
    file.CopyToProto(proto)
    view = next(m for m in proto.message_type if m.name == "View")
    assert not any(f.HasField("json_name") for f in view.field)
    json_names(proto.message_type, file.message_types_by_name)
    assert {f.name: f.json_name for f in view.field}["hand_sizes"] == "handSizes"
    assert all(f.json_name for m in proto.message_type for f in m.field)


async def test_the_sdk_plays_it(throwaway, redis_url):
    """The SDK: a bot match to the end, the feed in the game's words."""
    async with running_stack(redis_url, games=(NAME,)) as (address, _):
        async with GatewayClient(address) as client:
            infos = {g.info.game: g.info for g in await client.games()}
            assert infos[NAME].display_name == throwaway.display_name
            lines: list[str] = []
            report = await asyncio.wait_for(
                play_random_match(client, NAME, 2, 5, lambda e, m: lines.append(e.text)), 120)
    assert report.progress.HasField("outcome")
    assert any("drew" in line or "played" in line for line in lines), lines


async def test_the_terminal_plays_it(throwaway, redis_url):
    """The terminal client, as a person presses numbers, against a `parlour bots` process."""
    async with running_stack(redis_url, games=(NAME,), heartbeat_seconds=0.2) as (address, _):
        async with GatewayClient(address) as client:
            table = await Table.create(client, NAME, 2, "Ada", None)
            bots = start_bots(address, table.match, 1, "random")
            app = PlayApp(table)
            rng = Rng.from_seed(3)
            problems: list[str] = []
            try:
                async with app.run_test(size=(140, 45)) as pilot:
                    while True:
                        await app.ready.wait()
                        snapshot = app.snapshot
                        problems += screen_problems(screen(app))
                        if snapshot.progress.HasField("outcome"):
                            break
                        labels = menu_labels(app)
                        await pilot.press(*str(rng.below(len(labels)) + 1), "enter")
                        async with app.updated:
                            await asyncio.wait_for(app.updated.wait_for(
                                lambda v=snapshot.progress.version:
                                app.snapshot.progress.version > v), 60)
                    status = shown(app, "#status")
                    feed = "\n".join(str(line.text) for line in app.query_one("#feed").lines)
            finally:
                bots.terminate()
                bots.wait()
    assert status.startswith("Game over."), status
    assert re.search(r"^You ", feed, re.MULTILINE), feed
    assert not problems, problems[:20]


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium")
async def test_the_web_page_plays_it(throwaway, redis_url):
    """The web page (the committed bundle, built before this game existed) lists the game,
    creates a match with a bot, decodes its View and Actions and plays to the end."""
    low, high = throwaway.seat_range(throwaway.variants()[0].options)
    async with running_stack(redis_url, games=(NAME,), heartbeat_seconds=0.2) as (address, _):
        async with Browser(address) as browser:
            page = await browser.page()
            await page.get_by_role("heading", name="New match").wait_for()
            await page.get_by_label("Game", exact=True).select_option(label=throwaway.display_name)
            await page.get_by_label("Way to play").select_option(
                label=way_label(throwaway.variants()[0].display_name, low, high))
            await page.get_by_label("Bots play").select_option(label="random")
            await page.get_by_label("Your name").fill("Ada")
            await page.get_by_role("button", name="Create and sit down").click()
            rng = Rng.from_seed(3)
            seen_view = False
            while (labels := await turn(page, time.monotonic() + 120)) is not None:
                html = await page.content()
                assert "unknown" not in html and "type.googleapis.com" not in html
                view = await page.locator("#view").text_content() or ""
                seen_view = seen_view or view.startswith("Hand: ")
                await page.locator(LEGAL).nth(rng.below(len(labels))).click(timeout=5_000)
            text = await page.locator("body").inner_text()
    assert seen_view, "the View was decoded (its fields in words under Details)"
    assert "Game over." in text
    assert not screen_problems(text.splitlines())


def test_the_fixture_leaves_the_tree_alone():
    """The throwaway game is nowhere in the tree (its folder and contract live in tmp)."""
    assert not (ROOT / "services" / "parlour" / "games" / NAME).exists()
    assert not any((ROOT / "protos").rglob(f"{NAME}*"))
