"""Abandonment: a seat that let its turn timer run out too many times in a row."""

from __future__ import annotations

from collections.abc import Iterable

from google.protobuf.message import Message

from parlour.engine.game import Game, Outcome
from parlour.engine.text import owner
from parlour.engine.text import seat as seat_ref
from parlour.engine.v1.platform_pb2 import Abandoned


def streak(entries: Iterable, seat: int) -> int:
    """How many of `seat`'s newest logged entries in a row were played by its timer."""
    count = 0
    for entry in reversed(list(entries)):
        if entry.seat != seat:
            continue
        if not entry.timed_out:
            break
        count += 1
    return count


def ended_outcome(game: Game, state: Message, seat: int) -> Outcome:
    """The host's policy ended the match: the abandoning seat scores 0, every other wins."""
    seats = game.seat_count(state)
    return Outcome(
        scores=tuple(0 for _ in range(seats)),
        winners=tuple(s for s in range(seats) if s != seat),
        summary=f"{seat_ref(seat)} abandoned the match, which the host's policy ended",
    )


def describe(event: Abandoned) -> str:
    """The feed line for an abandonment."""
    if event.ended:
        return f"{seat_ref(event.seat)} abandoned the match; the host's policy ended it"
    return (f"{seat_ref(event.seat)} abandoned the match; the platform plays in "
            f"{owner(event.seat)} place from now on")
