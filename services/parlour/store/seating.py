"""seat.lua's answers, decoded once: a seat taken, or why not (the gateway maps each
refusal to its status and reason)."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Refusal(enum.IntEnum):
    """Why seat.lua took no seat (its negative codes)."""

    NO_SUCH_SEAT = -1
    SEAT_TAKEN = -2
    MATCH_FULL = -3
    NO_MATCH = -4
    #: The request id was used before with another payload.
    REQUEST_REUSED = -5
    #: This request id already took a seat (`seat`); nothing changed.
    ALREADY_JOINED = -6
    #: The caller's proof holds another seat (`seat`).
    ALREADY_SEATED = -7


class SeatRefused(Exception):
    """No seat was taken: `refusal` says why; `seat` is the seat it names, if any."""

    def __init__(self, refusal: Refusal, seat: int | None = None) -> None:
        super().__init__(refusal.name if seat is None else f"{refusal.name} (seat {seat})")
        self.refusal = refusal
        self.seat = seat


@dataclass(frozen=True, slots=True)
class Taken:
    """A seat taken; `revoked`: the token hash it had, when a proof re-opened it."""

    seat: int
    revoked: str | None = None

    @property
    def reopened(self) -> bool:
        """Whether a proof re-opened a seat it held (its old token is revoked)."""
        return self.revoked is not None


def taken(reply: list) -> Taken:
    """seat.lua's 'take' answer as a Taken; SeatRefused for a negative code."""
    code = int(reply[0])
    if code < 0:
        raise SeatRefused(Refusal(code), int(reply[1]) if len(reply) > 1 else None)
    return Taken(code, reply[2].decode() if len(reply) > 2 else None)
