"""Per-call request fields (match, seat, request id, game) carried to every log line of a call."""

from __future__ import annotations

import contextvars
import logging
from functools import lru_cache

_FIELDS: contextvars.ContextVar[dict | None] = contextvars.ContextVar("request", default=None)
#: Request message fields copied into a call's log fields, and the name they are logged as.
NAMED = {
    "match": "match",
    "match_id": "match",
    "request_id": "request_id",
    "seat": "seat",
    "game": "game",
}


def begin(defaults: dict) -> contextvars.Token:
    """Start a call's fields (from the server's defaults, e.g. its game)."""
    return _FIELDS.set(dict(defaults))


def end(token: contextvars.Token) -> None:
    """Forget the call's fields. A stream the client cancelled between two messages is
    closed later by the loop in another task, whose context never held them: nothing to
    forget there."""
    try:
        _FIELDS.reset(token)
    except ValueError:
        _FIELDS.set(None)


def note(**fields) -> None:
    """Add what the call has learnt (e.g. the seat a token resolved to)."""
    current = _FIELDS.get()
    if current is not None:
        current.update({k: v for k, v in fields.items() if v is not None})


def request_fields() -> dict:
    """The current call's fields ({} outside a call)."""
    return dict(_FIELDS.get() or {})


@lru_cache(maxsize=256)
def _named_fields(descriptor) -> tuple[tuple[str, bool], ...]:
    return tuple((f.name, f.has_presence) for f in descriptor.fields if f.name in NAMED)


def note_message(message) -> None:
    """Note the request message's match, seat, request id and game, where set."""
    current = _FIELDS.get()
    if current is None or not hasattr(message, "DESCRIPTOR"):
        return
    for name, has_presence in _named_fields(message.DESCRIPTOR):
        if has_presence and not message.HasField(name):
            continue
        value = getattr(message, name)
        if value != "":
            current[NAMED[name]] = value


class RequestFields(logging.Filter):
    """Adds the current call's fields to every record logged during it."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in (_FIELDS.get() or {}).items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True
