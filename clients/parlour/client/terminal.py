"""`parlour play`: a match in the terminal (textual) - the table, a numbered menu, the feed.

Type the number of an action and press Enter (or pick it in the menu). The status line
says whose turn it is; the clock line shows turn timers and time banks; an open undo
request shows Accept and Refuse. `?` and Enter (or F1) shows the rules text behind the
table's lines; `details` and Enter (or F2) the raw View, for developers. Above the menu,
what the decision is for. A decision with one choice is played for you when the app is
told to (`parlour play` does, unless --ask-every-choice); F3 turns that on and off. In a
correspondence match that takes pauses, `away 2` (days) or `away 2026-12-08 18:00` and
Enter pauses your clock until then (F4 starts the line), `back` ends the pause. Ctrl+Q
quits.
"""

from __future__ import annotations

import asyncio
import time

import grpc
from google.protobuf.message import Message
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Footer, Header, Input, OptionList, RichLog, Static

from parlour.client.away import TYPED, said, typed_until
from parlour.client.refusals import error_text
from parlour.client.table import Snapshot, Table, whose_turn
from parlour.client.words import (
    catalogue_namer,
    clock_lines,
    owes_undo_answer,
    render,
    undo_text,
    view_lines,
)


def table_text(snapshot: Snapshot, me: int | None, rules: bool) -> list[str]:
    """The table's sections as lines; with `rules`, each item's rules text under it."""
    lines: list[str] = []
    for part in snapshot.table.sections:
        lines.append(render(part.title, me, snapshot.names))
        for entry in part.items:
            mark = " (?)" if entry.detail and not rules else ""
            lines.append(f"  {render(entry.text, me, snapshot.names)}{mark}")
            if rules and entry.detail:
                lines.extend(f"      {line}" for line in
                             render(entry.detail, me, snapshot.names).splitlines())
    return lines


class PlayApp(App):
    """One seat (or a spectator) at one match."""

    CSS = """
    #status { height: auto; padding: 0 1; background: $boost; text-style: bold; }
    #clocks { height: auto; padding: 0 1; color: $warning; }
    #record { height: auto; max-height: 14; padding: 0 1; border: round $success; }
    #undo { height: auto; padding: 0 1; background: $warning-muted; }
    #undo Static { width: 1fr; padding: 1 0; }
    #main { height: 1fr; }
    #view { width: 1fr; border: round $primary; padding: 0 1; }
    #feed { width: 1fr; border: round $secondary; }
    #prompt { height: auto; padding: 0 1; color: $accent; }
    #menu { height: auto; max-height: 12; border: round $accent; }
    #choice { dock: bottom; }
    """
    BINDINGS = [("ctrl+q", "quit", "Quit"), ("f1", "rules", "Rules text (?)"),
                ("f2", "details", "Details (raw view)"),
                ("f3", "forced", "Play one-choice decisions for me"),
                ("f4", "away", "Away until…")]

    def __init__(self, table: Table, play_forced: bool = False) -> None:
        super().__init__()
        self.table = table
        #: Whether a decision with one legal choice is played without asking.
        self.play_forced = play_forced
        self._forced_at = -1
        self.snapshot: Snapshot | None = None
        self.namer = catalogue_namer(table.game)
        self.show_rules = False
        self.show_details = False
        self.ready = asyncio.Event()
        self.updated = asyncio.Condition()
        #: What the finished match did to the viewer's record (empty: nothing to say).
        self.record_lines: list[str] = []
        self._record_asked = False
        self._refreshing = asyncio.Lock()

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("connecting…", id="status")
        yield Static("", id="clocks")
        yield Static("", id="record")
        with Horizontal(id="undo"):
            yield Static("", id="undo-text")
            yield Button("Accept", id="undo-accept", variant="success")
            yield Button("Refuse", id="undo-refuse", variant="error")
        with Horizontal(id="main"):
            with VerticalScroll(id="view"):
                yield Static("", id="view-text")
            yield RichLog(id="feed", wrap=True, markup=False)
        yield Static("", id="prompt")
        yield OptionList(id="menu")
        yield Input(placeholder="the number of your choice and Enter (? rules text, "
                    "details: raw view)", id="choice")
        yield Footer()

    async def on_mount(self) -> None:
        who = "spectator" if self.table.seat is None else "player"
        variant = self.table.variant
        game = self.table.game.display_name
        title = f"{game} — {variant}" if variant and variant != game else game
        self.title = f"{title} — {self.table.match} — you: {who}"
        self.query_one("#view").border_title = "The table"
        self.query_one("#feed").border_title = "What happened"
        self.query_one("#menu").border_title = "Your choices"
        self.query_one("#undo").display = False
        self.query_one("#clocks").display = False
        self.query_one("#record").display = False
        self.run_worker(self.follow(), exclusive=True)
        self.set_interval(1.0, self.draw_clocks)
        await self.refresh_table()
        self.query_one("#choice", Input).focus()

    async def follow(self) -> None:
        feed = self.query_one("#feed", RichLog)
        async for sequence, line in self.table.feed():
            if line is not None:
                feed.write(Text(line))
            # Progress or a heartbeat: look again (an action may change the match without any
            # event).
            stale = self.snapshot is None or sequence > self.snapshot.progress.last_sequence
            if line is None or stale:
                await self.refresh_table()

    def draw_clocks(self) -> None:
        if self.snapshot is None:
            return
        lines = clock_lines(self.snapshot.progress, int(time.time() * 1000), self.table.me,
                            self.snapshot.names)
        clocks = self.query_one("#clocks", Static)
        clocks.display = bool(lines)
        clocks.update(Text(" · ".join(lines)))

    def draw_view(self) -> None:
        snapshot = self.snapshot
        if snapshot is None:
            return
        lines = table_text(snapshot, self.table.me, self.show_rules)
        if self.show_details or not lines:
            lines += ["", "Details (the raw View):"] if lines else []
            lines += view_lines(snapshot.view, self.namer)
        self.query_one("#view-text", Static).update(Text("\n".join(lines)))

    async def refresh_table(self) -> None:
        async with self._refreshing:
            snapshot = await self.table.snapshot()
            if self.snapshot and snapshot.progress.version < self.snapshot.progress.version:
                return
            self.snapshot = snapshot
            me = self.table.me
            self.query_one("#status", Static).update(Text(whose_turn(snapshot, me)))
            self.draw_clocks()
            self.draw_view()
            undo = undo_text(snapshot.progress, me, snapshot.names)
            self.query_one("#undo").display = bool(undo)
            self.query_one("#undo-text", Static).update(Text(undo))
            answer = owes_undo_answer(snapshot.progress, me)
            for button in ("#undo-accept", "#undo-refuse"):
                self.query_one(button).display = answer
            menu = self.query_one("#menu", OptionList)
            menu.clear_options()
            menu.add_options([Text(f"{i}. {label}") for i, label in
                              enumerate(snapshot.labels, 1)])
            menu.display = bool(snapshot.labels)
            prompt = self.query_one("#prompt", Static)
            prompt.update(Text(snapshot.prompt))
            prompt.display = bool(snapshot.labels and snapshot.prompt)
            self.refresh_bindings()  # F4 shows while the match takes your pause
            if snapshot.progress.HasField("outcome") and not self._record_asked:
                self._record_asked = True
                self.run_worker(self.show_record(), group="record")
            forced = (self.play_forced and len(snapshot.legal) == 1 and not answer
                      and not snapshot.progress.HasField("outcome"))
            if (snapshot.labels or snapshot.progress.HasField("outcome") or answer) and not forced:
                self.ready.set()
            else:
                self.ready.clear()
            if forced and self._forced_at < snapshot.progress.version:
                self._forced_at = snapshot.progress.version
                self.run_worker(self.play_only_choice(snapshot), group="forced")
        async with self.updated:
            self.updated.notify_all()

    async def play_only_choice(self, snapshot: Snapshot) -> None:
        """A decision with one legal choice: played for the person, said in the feed."""
        self.query_one("#feed", RichLog).write(
            Text(f"(Played for you, your only choice: {snapshot.labels[0]}. F3: ask instead.)"))
        try:
            await self.table.act(snapshot.legal[0], snapshot.progress.version)
        except grpc.aio.AioRpcError as error:
            self.notify(error_text(error), severity="error")
        await self.refresh_table()

    def action_forced(self) -> None:
        self.play_forced = not self.play_forced
        self.notify("A decision with one choice is " + (
            "played for you" if self.play_forced else "asked, like any other"))
        self.run_worker(self.refresh_table())

    async def show_record(self) -> None:
        """Below the result: the viewer's rating, its change and the leaderboard."""
        try:
            self.record_lines = await self.table.record_at_end()
        except grpc.aio.AioRpcError as error:
            self.record_lines = [f"Your rating cannot be read now: {error_text(error)}"]
        box = self.query_one("#record", Static)
        box.border_title = "Your record"
        box.update(Text("\n".join(self.record_lines)))
        box.display = bool(self.record_lines)

    async def choose(self, number: int) -> None:
        snapshot = self.snapshot
        if snapshot is None or not 1 <= number <= len(snapshot.legal):
            self.notify(f"{number} is not on the menu", severity="warning")
            return
        self.ready.clear()
        try:
            await self.table.act(snapshot.legal[number - 1], snapshot.progress.version)
        except grpc.aio.AioRpcError as error:
            self.notify(error_text(error), severity="error")
        await self.refresh_table()

    def pausable(self) -> bool:
        """Whether the viewer's seat may pause its clock now: a correspondence match that
        takes pauses, not over."""
        snapshot = self.snapshot
        return (self.table.seat is not None and snapshot is not None
                and snapshot.match.max_pause_days > 0
                and not snapshot.progress.HasField("outcome"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.pausable() if action == "away" else True

    def action_away(self) -> None:
        """Start the away line in the input, and say how it is typed."""
        choice = self.query_one("#choice", Input)
        choice.value = "away "
        choice.cursor_position = len(choice.value)
        choice.focus()
        days = self.snapshot.match.max_pause_days if self.snapshot else 0
        self.notify(f"Type {TYPED}; at most {days} days at once.")

    async def away(self, text: str) -> None:
        """Away until the typed date (the seat's clock waits), or back; refusals in words."""
        if not self.pausable():
            self.notify("This match takes no pauses.", severity="warning")
            return
        try:
            until = typed_until(text)
        except ValueError as error:
            self.notify(str(error), severity="warning")
            return
        try:
            await self.table.set_away(until)
        except grpc.aio.AioRpcError as error:
            self.notify(error_text(error), severity="error")
        else:
            self.notify(said(until))
        await self.refresh_table()

    def action_rules(self) -> None:
        self.show_rules = not self.show_rules
        self.draw_view()

    def action_details(self) -> None:
        self.show_details = not self.show_details
        self.draw_view()

    async def on_input_submitted(self, message: Input.Submitted) -> None:
        text = message.value.strip()
        message.input.value = ""
        if text.isdigit():
            await self.choose(int(text))
        elif text == "?":
            self.action_rules()
        elif text.lower() == "details":
            self.action_details()
        elif text.lower().split(" ")[0] in ("away", "back"):
            await self.away(text)
        elif text:
            self.notify("type a number from the menu, ? or details", severity="warning")

    async def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        await self.choose(message.option_index + 1)

    async def on_button_pressed(self, message: Button.Pressed) -> None:
        if message.button.id not in ("undo-accept", "undo-refuse"):
            return
        try:
            await self.table.answer_undo(message.button.id == "undo-accept")
        except grpc.aio.AioRpcError as error:
            self.notify(error_text(error), severity="error")
        await self.refresh_table()


async def play(address: str, game: str | None, seats: int, bots: int, name: str,
               strategy: str, join: str | None = None, seat: int | None = None,
               watch: str | None = None, options: Message | None = None,
               rated: bool = True, play_forced: bool = True, find: str | None = None) -> None:
    """Create (or join, or watch) a match, or find one (`find`: the variant, "" the
    game's first; matchmaking), start the bots' process, and run the app (which plays
    one-choice decisions for the person when `play_forced`)."""
    from parlour.client.client import GatewayClient
    from parlour.client.seating import check_game_seating
    from parlour.client.table import start_bots
    from parlour.engine.registry import get_game

    if not (watch or join or find is not None):
        seating = check_game_seating(get_game(game), options, seats, bots)
        if seating.errors:
            raise SystemExit(" ".join(seating.errors))
    async with GatewayClient(address) as client:
        if find is not None:
            from parlour.client.matchmaking import matched_table

            table = await matched_table(client, game, name, variant=find, options=options,
                                        rated=rated)
        elif watch:
            table = await Table.watch(client, watch)
        elif join:
            table = await Table.join(client, join, name, seat)
        else:
            table = await Table.create(client, game, seats, name, options, rated)
        helpers = start_bots(address, table.match, bots, strategy) if bots else None
        app = PlayApp(table, play_forced)
        try:
            await app.run_async()
        finally:
            if helpers is not None:
                helpers.terminate()
                helpers.wait()
        print("\n".join([*app.record_lines, ""]) if app.record_lines else "", end="")
        print(f"match {table.match} on {address} (rules version {table.rules_version})")
