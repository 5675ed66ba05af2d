"""What the rules service stores per event and per action, and reading it back.

An event or action of the game's own type is stored in an Any without its type URL
(the value alone): every one of them would repeat the same URL, about 50 bytes each, a
third of a stored event. Platform events (TimedOut, Undone, ...) keep their type URL.
Readers get the full Any back, and an action's request id as it was sent.
"""

from __future__ import annotations

import re

from google.protobuf import any_pb2
from google.protobuf.message import Message

from parlour.engine.game import Game
from parlour.rules.v1 import rules_pb2 as pb

TYPE_URL_PREFIX = "type.googleapis.com/"
#: A request id stored as its bytes (the SDK's: uuid4().hex).
HEX_ID = re.compile("[0-9a-f]{32}")


def type_url(message_type: type[Message]) -> str:
    return TYPE_URL_PREFIX + message_type.DESCRIPTOR.full_name


def recorded_event(game: Game, event: Message, text: str, packed) -> bytes:
    """The stored RecordedEvent of an event (`packed` makes its Any when one is needed)."""
    if isinstance(event, game.event_type):
        stored = any_pb2.Any(value=event.SerializeToString(deterministic=True))
    else:
        stored = packed(event)
    return pb.RecordedEvent(event=stored, text=text).SerializeToString(deterministic=True)


def complete(packed: any_pb2.Any, url: str) -> None:
    """Give a stored Any without a type URL the game's (`url`)."""
    if not packed.type_url:
        packed.type_url = url


def read_event(data: bytes, event_url: str) -> pb.RecordedEvent:
    """A stored RecordedEvent with its Any's type URL (`event_url` when stored without)."""
    recorded = pb.RecordedEvent.FromString(data)
    complete(recorded.event, event_url)
    return recorded


def compact_action(logged: pb.LoggedAction, game: Game) -> bytes:
    """The stored LoggedAction: a game Action without its type URL, a request id of 32
    lowercase hex digits as its 16 bytes (`request_id_hex`)."""
    if logged.action.value and logged.action.type_url == type_url(game.action_type):
        logged.action.type_url = ""
    if HEX_ID.fullmatch(logged.request_id):
        logged.request_id_hex = bytes.fromhex(logged.request_id)
        logged.request_id = ""
    return logged.SerializeToString(deterministic=True)


def read_actions(game: Game, raws: list[bytes]) -> list[pb.LoggedAction]:
    """Stored LoggedActions with their Any's type URL (an undo's record has no action)."""
    url = type_url(game.action_type)
    out = []
    for raw in raws:
        logged = pb.LoggedAction.FromString(raw)
        if logged.action.value:
            complete(logged.action, url)
        if logged.request_id_hex:
            logged.request_id = logged.request_id_hex.hex()
            logged.ClearField("request_id_hex")
        out.append(logged)
    return out
