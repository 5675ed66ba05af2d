"""The decision stack: the top frame is the decision owed now; automatic frames run themselves."""

from __future__ import annotations

from parlour.engine.game import Emitted
from parlour.games.murdercastle.hooks import MODES
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

Out = list[Emitted]
#: No seat (a frame nobody decides, or no current target).
NOBODY = 99


def top(state: pb.State) -> pb.Frame | None:
    """The frame on top of the stack, if any."""
    return state.frames[-1] if state.frames else None


def push(state: pb.State, kind: int, seat: int, **fields: object) -> pb.Frame:
    """Push a frame and return it."""
    frame = state.frames.add(kind=kind, seat=seat)
    for name, value in fields.items():
        if isinstance(value, list | tuple):
            getattr(frame, name).extend(value)
        else:
            setattr(frame, name, value)
    return frame


def pop(state: pb.State) -> None:
    """Remove the top frame."""
    del state.frames[-1]


def below(state: pb.State, kind: int) -> pb.Frame | None:
    """The nearest frame of a kind under the top one."""
    for frame in reversed(state.frames[:-1]):
        if frame.kind == kind:
            return frame
    return None


def public(event: pb.Event) -> Emitted:
    """An event everyone sees."""
    return Emitted(event)


def private(seats: set[int], secret: pb.Event, twin: pb.Event) -> list[Emitted]:
    """A secret event for some seats and its public twin for everyone else (spectators too)."""
    return [Emitted(twin, hidden_from=frozenset(seats)), Emitted(secret, to=frozenset(seats))]


def holmes_seat(state: pb.State) -> int:
    """The seat playing Holmes, if a mode gives him one (`hooks.Points.holmes_seat_of`), else
    NOBODY."""
    found = MODES.rules(state.options).holmes_seat_of(state.options)
    return NOBODY if found is None else found


def investigators(state: pb.State) -> list[int]:
    """The seats with a character on the castle: every seat but the Holmes seat."""
    holmes = holmes_seat(state)
    return [s for s in range(state.seats) if s != holmes]


def clockwise(state: pb.State, seat: int) -> list[int]:
    """Investigators clockwise starting from `seat` (Holmes is not a "player")."""
    holmes = holmes_seat(state)
    order = [(seat + i) % state.seats for i in range(state.seats)]
    return [s for s in order if s != holmes]


def key_order(state: pb.State) -> list[int]:
    """Investigators in clockwise order starting from the Skeleton Key."""
    return clockwise(state, state.key)
