"""Before a match is created: does the chosen way to play fit the seats and bots asked for?

The same rules as the browser's lobby (clients/web/src/seating.ts): the seat count must be
in the variant's range (GameInfo.variants), the person takes one seat, and seats nobody
fills leave the match waiting, so the person is told and offered bots for them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from google.protobuf.message import Message

from parlour.engine.game import Game


@dataclass
class Seating:
    """What is wrong with a choice (`errors`: do not create) and what to tell (`warnings`)."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: Seats left empty (the match waits for them): offer bots.
    empty: int = 0


def seats_phrase(low: int, high: int) -> str:
    return f"exactly {low} seat{'s' * (low != 1)}" if low == high else f"{low} to {high} seats"


def way_label(title: str, low: int, high: int) -> str:
    """A way to play as offered: 'Automa (Beginner) — 1 seat', 'Standard — 2 to 4 seats'."""
    seats = f"{low} seat{'s' * (low != 1)}" if low == high else f"{low} to {high} seats"
    return f"{title} — {seats}"


def check_seating(title: str, low: int, high: int, seats: int, bots: int) -> Seating:
    """A choice of `seats` seats and `bots` bots for a way to play taking low..high seats,
    the person sitting in one of them."""
    out = Seating()
    if not low <= seats <= high:
        out.errors.append(f"{title} takes {seats_phrase(low, high)}, not {seats}.")
    if bots < 0:
        out.errors.append("The number of bots cannot be negative.")
    elif bots > seats - 1:
        most = max(0, seats - 1)
        out.errors.append(f"At most {most} bot{'s' * (most != 1)}: you take one of the {seats} "
                          "seats.")
    if not out.errors:
        out.empty = seats - 1 - bots
        if out.empty:
            out.warnings.append(
                f"{out.empty} seat{'s' * (out.empty != 1)} would stay empty: the match waits "
                "until someone joins."
                " Fill them with bots?"
            )
    return out


def variant_for(game: Game, options: Message | None):
    """The game's variant whose options are `options` (None or unknown: the first one)."""
    variants = list(game.variants())
    if options is not None:
        for variant in variants:
            if variant.options == options:
                return variant
    return variants[0]


def check_game_seating(game: Game, options: Message | None, seats: int, bots: int) -> Seating:
    """`check_seating` for a game and its options, the seat range from the game's rules."""
    variant = variant_for(game, options)
    low, high = game.seat_range(options if options is not None else variant.options)
    title = variant.display_name if options is None or variant.options == options else \
        game.display_name
    return check_seating(title, low, high, seats, bots)
