"""Game messages in words for people: labels, events, clocks and undo requests in the
viewer's terms; the raw View as labelled lines (the developers' "details")."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from importlib import resources

from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from parlour.engine.away import date_words
from parlour.engine.game import Game
from parlour.engine.text import render, seat, subject

#: A catalogue id's name for a view field holding such ids (None: show the number).
Namer = Callable[[str, int], str | None]


def naming_table(game: Game) -> dict:
    """The game folder's names.json (the web page bundles the same file): `named`, which
    View fields hold ids of which catalogue list; `places`, the catalogue `list` of rooms
    and the `fields` holding place ids (a room: its tile * 2 + which room of a two-room
    tile). {} for a game without one."""
    try:
        table = resources.files(f"parlour.games.{game.name}").joinpath("names.json")
        return json.loads(table.read_text())
    except FileNotFoundError:
        return {}


def catalogue_namer(game: Game) -> Namer:
    """Names of catalogue ids in the game's view fields (from its published catalogue)."""
    table = naming_table(game)
    fields = table.get("named", {})
    places = table.get("places", {})
    catalogue = json_format.MessageToDict(game.catalogue()) if table else {}
    lists = {
        key: {e.get("number", e.get("card", e.get("id"))): e.get("name") for e in entries}
        for key, entries in catalogue.items()
        if isinstance(entries, list) and entries and isinstance(entries[0], dict)
    }

    place_list, place_fields = places.get("list", ""), frozenset(places.get("fields", ()))
    halves = {e.get("number"): len(e.get("halves", ())) for e in catalogue.get(place_list, ())}

    def name(field: str, number: int) -> str | None:
        if field in place_fields:
            room = lists.get(place_list, {}).get(number // 2)
            if room and halves.get(number // 2, 1) > 1:
                return f"{room} ({'north-west' if number % 2 == 0 else 'south-east'})"
            return room
        return lists.get(fields.get(field, ""), {}).get(number)

    return name


def enum_words(field: FieldDescriptor, number: int) -> str:
    """CARD_MORIARTY -> 'Moriarty' (the enum's own prefix dropped)."""
    enum = field.enum_type
    value = enum.values_by_number.get(number)
    if value is None:
        return str(number)
    prefix = "".join(f"_{c}" if c.isupper() else c.upper() for c in enum.name).lstrip("_") + "_"
    name = value.name.removeprefix(prefix)
    return "none" if name == "UNSPECIFIED" else name.replace("_", " ").capitalize()


def field_words(name: str) -> str:
    return name.replace("_", " ").capitalize()


def scalar_words(field: FieldDescriptor, value, namer: Namer | None = None) -> str:
    if namer is not None and isinstance(value, int) and not isinstance(value, bool):
        name = namer(field.name, value)
        if name:
            return name
    if field.type == FieldDescriptor.TYPE_ENUM:
        return enum_words(field, value)
    if field.type == FieldDescriptor.TYPE_BOOL:
        return "yes" if value else "no"
    return str(value)


def one_line(message: Message, namer: Namer | None = None) -> str:
    """A short message on one line: 'Seat 2, card Moriarty'."""
    parts = []
    for field, value in message.ListFields():
        parts.append(f"{field_words(field.name).lower()} {value_words(field, value, namer)}")
    return ", ".join(parts) or "-"


def value_words(field: FieldDescriptor, value, namer: Namer | None = None) -> str:
    if field.type == FieldDescriptor.TYPE_MESSAGE:
        if field.is_repeated:
            items = (f"[{i}] {one_line(item, namer)}" for i, item in enumerate(value))
            return "; ".join(items) or "none"
        return one_line(value, namer)
    if field.is_repeated:
        return ", ".join(scalar_words(field, v, namer) for v in value) or "none"
    return scalar_words(field, value, namer)


def view_lines(view: Message, namer: Namer | None = None, width: int = 2) -> list[str]:
    """A View as 'Label: value' lines; nested messages indented under their label."""
    lines: list[str] = []
    for field, value in view.ListFields():
        label = field_words(field.name)
        nested = field.type == FieldDescriptor.TYPE_MESSAGE
        if nested and field.is_repeated:
            lines.append(f"{label}:")
            for i, item in enumerate(value):
                lines.append(f"{' ' * width}{i}: {one_line(item, namer)}")
        elif nested:
            if not value.ByteSize():
                continue
            lines.append(f"{label}:")
            lines.extend(" " * width + line for line in view_lines(value, namer, width))
        else:
            lines.append(f"{label}: {value_words(field, value, namer)}")
    return lines


def action_label(game: Game, action: Message, label: str = "", viewer: int | None = None,
                 names: Sequence[str] = ()) -> str:
    """The API's label when given, else the game's own description of the action; seat
    references written out for the viewer."""
    return render(label or game.describe_action(action), viewer, names)


def type_words(type_url: str) -> str:
    """A platform event without text, by its message name: 'Undo requested'."""
    name = type_url.rsplit(".", 1)[-1]
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: " " + m.group(1).lower(), name)


def event_text(game: Game, event: Message | None, text: str = "", viewer: int | None = None,
               names: Sequence[str] = ()) -> str:
    """The API's text when given, else the game's own description of the event, in the
    viewer's terms ("You drew a card", "Ada played the 7"), as a sentence."""
    line = text or game.describe_event(event)
    return render(line[:1].upper() + line[1:], viewer, names)


def plural(n: int, word: str) -> str:
    """'1 more player', '2 more players'."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def and_list(items: Sequence[str]) -> str:
    """'Ada', 'Ada and Ben', 'Ada, Ben and Cleo'."""
    return " and ".join(filter(None, [", ".join(items[:-1]), *items[-1:]]))


def seat_word(seat: int, viewer: int | None, names: Sequence[str]) -> str:
    """A seat as the viewer reads it: "You" for their own, else the player's name."""
    return render(f"{{seat:{seat}}}", viewer, names)


def clock_text(ms: int) -> str:
    """Milliseconds as m:ss (h:mm:ss past an hour), never below 0:00."""
    seconds = max(0, ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def clock_lines(progress, now_ms: int, viewer: int | None, names: Sequence[str]) -> list[str]:
    """Each seat's time bank and each pending decision's deadline, as of `now_ms`."""
    lines = []
    for clock in progress.clocks:
        runs = clock.bank_runs_from_unix_ms
        left = clock.bank_ms - max(0, now_ms - runs) if runs else clock.bank_ms
        state = " (running)" if runs and now_ms >= runs else ""
        who = seat_word(clock.seat, viewer, names)
        lines.append(f"{who}: {clock_text(left)} in the bank{state}")
    for decision in progress.pending:
        if decision.deadline_unix_ms:
            left = clock_text(decision.deadline_unix_ms - now_ms)
            who = subject(decision.seat, "has", "have")
            lines.append(render(f"{who} {left} to decide", viewer, names))
    return lines + away_lines(progress, now_ms, viewer, names)


def away_lines(progress, now_ms: int, viewer: int | None, names: Sequence[str]) -> list[str]:
    """Who is away until when (a correspondence match's pauses still running at `now_ms`):
    "Ada is away until Tue 8 Dec 18:00 UTC"."""
    return [
        render(f"{subject(a.seat, 'is', 'are')} away until {date_words(a.until_unix_ms)}",
               viewer, names)
        for a in progress.away
        if a.until_unix_ms > now_ms
    ]


def undo_text(progress, viewer: int | None, names: Sequence[str]) -> str:
    """The open undo request in words ("" when none is open)."""
    if not progress.HasField("undo_request"):
        return ""
    ask = progress.undo_request
    waiting = [seat(s) for s in ask.awaiting if s not in ask.accepted]
    took_back = render(ask.took_back, viewer, names)
    return render(f"{subject(ask.seat, 'asks', 'ask')} to take back “{took_back}”; waiting "
                  f"for {and_list(waiting) or 'nobody'}.", viewer, names)


def owes_undo_answer(progress, viewer: int | None) -> bool:
    """Whether the viewer's seat is asked to accept or refuse an open undo request."""
    if viewer is None or not progress.HasField("undo_request"):
        return False
    ask = progress.undo_request
    return viewer in ask.awaiting and viewer not in ask.accepted
