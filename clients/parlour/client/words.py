"""Game messages in words for people: views as labelled lines, actions and events as text."""

from __future__ import annotations

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from parlour.engine.game import Game


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


def scalar_words(field: FieldDescriptor, value) -> str:
    if field.type == FieldDescriptor.TYPE_ENUM:
        return enum_words(field, value)
    if field.type == FieldDescriptor.TYPE_BOOL:
        return "yes" if value else "no"
    return str(value)


def one_line(message: Message) -> str:
    """A short message on one line: 'Seat 2, card Moriarty'."""
    parts = []
    for field, value in message.ListFields():
        parts.append(f"{field_words(field.name).lower()} {value_words(field, value)}")
    return ", ".join(parts) or "-"


def value_words(field: FieldDescriptor, value) -> str:
    if field.type == FieldDescriptor.TYPE_MESSAGE:
        if field.is_repeated:
            return "; ".join(f"[{i}] {one_line(item)}" for i, item in enumerate(value)) or "none"
        return one_line(value)
    if field.is_repeated:
        return ", ".join(scalar_words(field, v) for v in value) or "none"
    return scalar_words(field, value)


def view_lines(view: Message, width: int = 2) -> list[str]:
    """A View as 'Label: value' lines; nested messages indented under their label."""
    lines: list[str] = []
    for field, value in view.ListFields():
        label = field_words(field.name)
        nested = field.type == FieldDescriptor.TYPE_MESSAGE
        if nested and field.is_repeated:
            lines.append(f"{label}:")
            for i, item in enumerate(value):
                lines.append(f"{' ' * width}{i}: {one_line(item)}")
        elif nested:
            if not value.ByteSize():
                continue
            lines.append(f"{label}:")
            lines.extend(" " * width + line for line in view_lines(value, width))
        else:
            lines.append(f"{label}: {value_words(field, value)}")
    return lines


def action_label(game: Game, action: Message, label: str = "") -> str:
    """The API's label when given, else the game's own description of the action."""
    return label or game.describe_action(action)


def event_text(game: Game, event: Message, text: str = "") -> str:
    """The API's text when given, else the game's own description of the event."""
    return text or game.describe_event(event)
