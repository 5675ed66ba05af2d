"""Whether a seat may take back its last action: only if it revealed nothing and drew nothing;
and how undo requests and answers sit in a match log.

The check is by non-interference, with the game's own `resample_hidden`: for every other
viewer, the action must be legal and look the same in states that differ only in what that
viewer cannot see. Otherwise taking it back would let the seat replay knowing more.
"""

from __future__ import annotations

from google.protobuf.message import Message

from parlour.engine import runtime
from parlour.engine.game import Emitted, Game
from parlour.engine.rng import Rng
from parlour.engine.text import owner
from parlour.engine.text import seat as seat_ref
from parlour.engine.v1 import platform_pb2

#: Twins tried per viewer; deterministic (drawn from the state's RNG, not advancing it).
RESAMPLES = 4
_SALT = int.from_bytes(b"undo-chk", "big")


def seen_by(game: Game, state: Message, emitted: list[Emitted], viewer: int | None) -> list:
    """What a viewer sees of an action: its visible events and its view afterwards."""
    events = [runtime.serialize(e.event) for e in emitted if e.visible_to(viewer)]
    return [*events, runtime.serialize(game.view(state, viewer))]


def refusal(game: Game, before: Message, seat: int, action: Message) -> str | None:
    """Why `seat` may not take back `action` played on `before` (a reason), or None."""
    after, emitted = runtime.apply(game, before, seat, action)
    if after.rng != before.rng:
        return "UNDO_AFTER_RANDOMNESS"
    if any(e.to is not None or e.hidden_from for e in emitted):
        return "UNDO_AFTER_REVEAL"
    rng = Rng.from_seed(before.rng ^ _SALT)
    viewers = [w for w in range(game.seat_count(before)) if w != seat] + [None]
    for viewer in viewers:
        seen = seen_by(game, after, emitted, viewer)
        for _ in range(RESAMPLES):
            twin = game.resample_hidden(before, viewer, rng)
            try:
                twin_after, twin_emitted = runtime.apply(game, twin, seat, action)
            except Exception:  # noqa: BLE001 - illegal in a twin: the action told something
                return "UNDO_AFTER_REVEAL"
            if seen_by(game, twin_after, twin_emitted, viewer) != seen:
                return "UNDO_AFTER_REVEAL"
    return None


def is_step(entry) -> bool:
    """Whether a logged entry is an undo request or an answer to one (not a seat's move)."""
    return bool(entry.undo_requested or entry.undo_answer)


def keeps_state(entry) -> bool:
    """Whether a logged entry leaves the state as it was: a request, an answer that did
    not complete the agreement, or a seat's pause (engine.away)."""
    return (is_step(entry) and not entry.undoes) or entry.HasField("away")


def last_move(entries: list) -> tuple[object | None, list]:
    """The newest entry that changed the state, and the undo steps logged after it."""
    for index in range(len(entries) - 1, -1, -1):
        if not keeps_state(entries[index]):
            return entries[index], entries[index + 1 :]
    return None, list(entries)


def describe_requested(event: platform_pb2.UndoRequested) -> str:
    """The feed line for an undo request."""
    awaiting = ", ".join(seat_ref(s) for s in event.awaiting)
    return f"{seat_ref(event.seat)} asked to take back: {event.took_back} ({awaiting} to answer)"


def describe_answered(event: platform_pb2.UndoAnswered) -> str:
    """The feed line for an answer to an undo request."""
    verb = "accepted" if event.accepted else "refused"
    return f"{seat_ref(event.seat)} {verb} {owner(event.requester)} undo request"


def describe_expired(event: platform_pb2.UndoExpired) -> str:
    """The feed line for an undo request that lapsed."""
    return f"{owner(event.seat)} undo request lapsed: a seat acted first"
