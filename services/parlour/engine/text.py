"""The words a game shows people: seat references, the table's sections, and their checks.

Labels, event text, table text and summaries name seats by reference, in three forms, and
each client writes them out for its viewer (`render`; docs/reference.md "Seat references"):

- `{seat:N}` (`seat(N)`): the seat's player name, or "you" for the viewer's own seat;
- `{seat:N's}` (`owner(N)`): "Ada's", or "your";
- `{seat:N|holds|hold}` (`subject(N, "holds", "hold")`): the seat with its verb in the
  third and the second person: "Ada holds", or "you hold".

A reference that opens the text or a sentence is capitalised ("You hold", "Your hand").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from parlour.engine.v1.table_pb2 import TableItem, TableSection, TableText

#: Any seat reference: group 1 the seat, group 2 "'s" (possessive) or the two verb forms.
SEAT = re.compile(r"\{seat:(\d+)('s|\|[^|{}]*\|[^|{}]*)?\}")
#: What a person should never read: a bare id ("card 3", "room 0", "seat 2" instead of
#: a name), or an enum's wire name ("PHASE_TURN", "Kind act").
INTERNAL = re.compile(
    r"\b(?:card|tile|seat|room|placeholder|slot|id|kind)\s*#?\d+\b(?!°)"
    r"|\b[A-Z]{2,}_[A-Z_]+\b|\bKind \w",
    re.IGNORECASE,
)


#: How a bot of each strategy is called, at the table and on its record: a name a player
#: reads ("Clever bot 1"), not the strategy's key ("ismcts").
BOT_NAMES = {"ismcts": "Clever", "purposeful": "Purposeful", "greedy": "Greedy",
             "random": "Random"}


def bot_name(strategy: str, number: int = 0) -> str:
    """A bot as players read it: "Clever bot 1", the seat of a match's first IS-MCTS bot;
    "Clever bot" (no number), the record every IS-MCTS bot's results count toward."""
    name = f"{BOT_NAMES.get(strategy, strategy.capitalize())} bot"
    return f"{name} {number}" if number else name


def seat(n: int) -> str:
    """A seat reference for text: clients show the seat's name there, or "you"."""
    return f"{{seat:{n}}}"


def owner(n: int) -> str:
    """A possessive seat reference: "Ada's", or "your"."""
    return f"{{seat:{n}'s}}"


def subject(n: int, third: str, second: str) -> str:
    """A seat with its verb: "Ada holds" (`third`), or "you hold" (`second`)."""
    return f"{{seat:{n}|{third}|{second}}}"


def seats_named(text: str) -> list[int]:
    """The seats a text refers to, in order."""
    return [int(m.group(1)) for m in SEAT.finditer(text)]


#: Where a capital letter starts: the text's start, or after a sentence's end.
SENTENCE = re.compile(r"(?:^|[.!?]\s+)$")


def render(text: str, viewer: int | None = None, names: Sequence[str] = ()) -> str:
    """Text with its seat references written out for `viewer` (None: a spectator)."""

    def words(match: re.Match) -> str:
        n, form = int(match.group(1)), match.group(2) or ""
        mine = n == viewer
        name = "you" if mine else names[n] if n < len(names) and names[n] else f"Player {n + 1}"
        if form == "'s":
            out = "your" if mine else f"{name}'s"
        elif form:
            third, second = form[1:].split("|")
            out = f"{name} {second if mine else third}"
        else:
            out = name
        if mine and SENTENCE.search(text, 0, match.start()):
            return out[:1].upper() + out[1:]
        return out

    return SEAT.sub(words, text)


def item(text: str, detail: str = "") -> TableItem:
    """One line of a table section, with the rules text behind it."""
    return TableItem(text=text, detail=detail)


def section(title: str, items: Iterable[TableItem | str]) -> TableSection:
    """A titled part of the table; plain strings become items."""
    return TableSection(
        title=title, items=[i if isinstance(i, TableItem) else item(i) for i in items]
    )


def table(*sections: TableSection) -> TableText:
    """The whole table, leaving out sections with nothing in them."""
    return TableText(sections=[s for s in sections if s.items])


def table_lines(
    text: TableText, viewer: int | None = None, names: Sequence[str] = ()
) -> list[str]:
    """A table as indented lines, for terminals and playthroughs."""
    lines: list[str] = []
    for part in text.sections:
        lines.append(f"{render(part.title, viewer, names)}:")
        lines.extend(f"  {render(i.text, viewer, names)}" for i in part.items)
    return lines


def label_problems(labels: Sequence[str]) -> list[str]:
    """What is wrong with one decision's labels: repeats and internal ids (empty: fine)."""
    problems = [f"{n}x {label!r}" for label, n in Counter(labels).items() if n > 1]
    problems += [f"internal id in {label!r}" for label in labels if INTERNAL.search(
        SEAT.sub("", label))]
    return problems


def text_problems(lines: Iterable[str]) -> list[str]:
    """Internal ids or enum names in text a person reads (seat references allowed)."""
    return [f"internal id in {line!r}" for line in lines if INTERNAL.search(SEAT.sub("", line))]


#: What a person should never read in written-out text: a reference left unwritten, "you"
#: with a third-person verb ("you holds"), "(s)" plurals, a 0-based seat number, "you's".
UNREAD = re.compile(
    r"[{}]|\byou\s+(?:has|is|was|does|\w{2,}(?<!s)s)\b|\(s\)|\bseat\s+\d|\byou's\b|\bof you\b",
    re.IGNORECASE,
)


def person_problems(lines: Iterable[str]) -> list[str]:
    """What reads wrong in text already written out for a viewer (empty: fine)."""
    return [f"{line!r}" for line in lines if UNREAD.search(line)]
