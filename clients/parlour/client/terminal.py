"""`parlour play`: a match in the terminal (textual) - your view, a numbered menu, the feed.

Type the number of an action and press Enter (or pick it in the menu). The status line
says whose turn it is and what they are deciding; Ctrl+Q quits.
"""

from __future__ import annotations

import asyncio

import grpc
from google.protobuf.message import Message
from textual.app import App, ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Header, Input, OptionList, RichLog, Static

from parlour.client.table import Snapshot, Table, whose_turn
from parlour.client.words import catalogue_namer, view_lines


class PlayApp(App):
    """One seat (or a spectator) at one match."""

    CSS = """
    #status { height: auto; padding: 0 1; background: $boost; text-style: bold; }
    #main { height: 1fr; }
    #view { width: 1fr; border: round $primary; padding: 0 1; }
    #feed { width: 1fr; border: round $secondary; }
    #menu { height: auto; max-height: 12; border: round $accent; }
    #choice { dock: bottom; }
    """
    BINDINGS = [("ctrl+q", "quit", "Quit")]

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table
        self.snapshot: Snapshot | None = None
        self.namer = catalogue_namer(table.game)
        self.ready = asyncio.Event()
        self.updated = asyncio.Condition()
        self._refreshing = asyncio.Lock()

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("connecting…", id="status")
        with Horizontal(id="main"):
            with VerticalScroll(id="view"):
                yield Static("", id="view-text")
            yield RichLog(id="feed", wrap=True, markup=False)
        yield OptionList(id="menu")
        yield Input(placeholder="type the number of your choice and press Enter", id="choice")
        yield Footer()

    async def on_mount(self) -> None:
        who = f"seat {self.table.me}" if self.table.seat else "spectator"
        self.title = f"{self.table.game.display_name} — {self.table.match} — you: {who}"
        self.query_one("#view").border_title = "What you see"
        self.query_one("#feed").border_title = "Events"
        self.query_one("#menu").border_title = "Your choices"
        self.run_worker(self.follow(), exclusive=True)
        await self.refresh_table()
        self.query_one("#choice", Input).focus()

    async def follow(self) -> None:
        feed = self.query_one("#feed", RichLog)
        async for sequence, line in self.table.feed():
            if line is not None:
                feed.write(f"#{sequence} {line}")
            # A heartbeat: look again (an action may change the match without any event).
            stale = self.snapshot is None or sequence > self.snapshot.progress.last_sequence
            if line is None or stale:
                await self.refresh_table()

    async def refresh_table(self) -> None:
        async with self._refreshing:
            snapshot = await self.table.snapshot()
            if self.snapshot and snapshot.progress.version < self.snapshot.progress.version:
                return
            self.snapshot = snapshot
            self.query_one("#status", Static).update(whose_turn(snapshot, self.table.me))
            lines = view_lines(snapshot.view, self.namer)
            self.query_one("#view-text", Static).update("\n".join(lines))
            menu = self.query_one("#menu", OptionList)
            menu.clear_options()
            menu.add_options([f"{i}. {label}" for i, label in enumerate(snapshot.labels, 1)])
            menu.display = bool(snapshot.labels)
            if snapshot.labels or snapshot.progress.HasField("outcome"):
                self.ready.set()
            else:
                self.ready.clear()
        async with self.updated:
            self.updated.notify_all()

    async def choose(self, number: int) -> None:
        snapshot = self.snapshot
        if snapshot is None or not 1 <= number <= len(snapshot.legal):
            self.notify(f"{number} is not on the menu", severity="warning")
            return
        self.ready.clear()
        try:
            await self.table.act(snapshot.legal[number - 1], snapshot.progress.version)
        except grpc.aio.AioRpcError as error:
            self.notify(error.details() or error.code().name, severity="error")
        await self.refresh_table()

    async def on_input_submitted(self, message: Input.Submitted) -> None:
        text = message.value.strip()
        message.input.value = ""
        if text.isdigit():
            await self.choose(int(text))
        elif text:
            self.notify("type a number from the menu", severity="warning")

    async def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        await self.choose(message.option_index + 1)


async def play(address: str, game: str | None, seats: int, bots: int, name: str,
               strategy: str, join: str | None = None, seat: int | None = None,
               watch: str | None = None, options: Message | None = None) -> None:
    """Create (or join, or watch) a match, start the bots' process, and run the app."""
    from parlour.client.client import GatewayClient
    from parlour.client.table import start_bots

    async with GatewayClient(address) as client:
        if watch:
            table = await Table.watch(client, watch)
        elif join:
            table = await Table.join(client, join, name, seat)
        else:
            table = await Table.create(client, game, seats, name, options)
        helpers = start_bots(address, table.match, bots, strategy) if bots else None
        try:
            await PlayApp(table).run_async()
        finally:
            if helpers is not None:
                helpers.terminate()
                helpers.wait()
        print(f"match {table.match} on {address}")
