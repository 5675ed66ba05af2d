"""The words a game shows people: seat references, the table's sections, and their checks.

Labels, event text and table text name seats as "{seat:N}" (`seat(N)`); each client writes
the seat's player name there, or "you" for its own seat (`render`). Event text is in the
past tense ("{seat:1} drew 3 cards"), so it reads right either way ("You drew 3 cards").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from parlour.engine.v1.table_pb2 import TableItem, TableSection, TableText

SEAT = re.compile(r"\{seat:(\d+)\}")
#: What a person should never read: a bare id ("card 3", "tile 91", "seat 2" instead of
#: a name), or an enum's wire name ("PHASE_TURN", "Kind act").
INTERNAL = re.compile(
    r"\b(?:card|tile|seat|placeholder|slot|id|kind)\s*#?\d+\b|\b[A-Z]{2,}_[A-Z_]+\b|\bKind \w",
    re.IGNORECASE,
)


def seat(n: int) -> str:
    """A seat reference for text: clients show the seat's name there, or "you"."""
    return f"{{seat:{n}}}"


def render(text: str, viewer: int | None = None, names: Sequence[str] = ()) -> str:
    """Text with its seat references written out for `viewer` (None: a spectator)."""

    def name(match: re.Match) -> str:
        n = int(match.group(1))
        if n == viewer:
            return "you"
        return names[n] if n < len(names) and names[n] else f"Player {n + 1}"

    out = SEAT.sub(name, text)
    return out[:1].upper() + out[1:] if out.startswith("you") else out


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
