"""What the platform plays for a seat whose turn timer ran out, and the event saying so."""

from __future__ import annotations

from google.protobuf.message import Message

from parlour.engine import runtime
from parlour.engine.game import Game
from parlour.engine.rng import Rng
from parlour.engine.text import seat as seat_ref
from parlour.engine.v1 import platform_pb2

#: Mixed into the state's RNG so the pick does not mirror the game's next draw.
_SALT = int.from_bytes(b"timedout", "big")


def default_action(game: Game, state: Message, seat: int, kind: str) -> Message:
    """The game's declared default for `kind`, else a legal action drawn from the state's RNG.

    The draw reads the state's RNG without advancing it, so the state the action is applied
    to, and so every replay of the log, is the one the seat would have acted on.
    """
    declared = game.timeout_action(state, seat, kind)
    if declared is not None:
        return declared
    return Rng.from_seed(state.rng ^ _SALT).choice(runtime.legal_actions(game, state, seat))


def timed_out_event(game: Game, seat: int, kind: str, action: Message) -> platform_pb2.TimedOut:
    """The event recorded before the default action's own events."""
    return platform_pb2.TimedOut(seat=seat, kind=kind, played=game.describe_action(action))


def describe(event: platform_pb2.TimedOut) -> str:
    """The feed line for a timeout."""
    return f"{seat_ref(event.seat)} ran out of time; the platform chose “{event.played}” instead"
