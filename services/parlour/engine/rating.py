"""How a finished match counts toward ratings: its sides, their places, and the variant.

A side is the seats that win or lose together (one seat in a free-for-all) or an opponent
the rules play, named by its display name ("Automa"). Places start at 1 (the winners);
equal places are ties. Pure functions of the Options and the Outcome: the platform rates
(parlour.rules.ratings), the games only say who played against whom.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from google.protobuf.message import Message


@dataclass(frozen=True, slots=True)
class Sides:
    """The sides of a finished match and their places (1 = first; equal = tie)."""

    sides: tuple[tuple[int | str, ...], ...]
    places: tuple[int, ...]


def free_for_all(scores: Sequence[int], winners: Sequence[int],
                 lowest_first: bool = False) -> Sides:
    """Every seat its own side: the winners share first place, the others follow by score
    (higher first, or lower first when `lowest_first`; equal scores tie)."""
    sign = -1 if lowest_first else 1
    keys = [(seat in winners, sign * score) for seat, score in enumerate(scores)]
    places = tuple(1 + sum(other > mine for other in keys) for mine in keys)
    return Sides(tuple((seat,) for seat in range(len(scores))), places)


Side = tuple[int | str, ...]


def one_against(first: Side, rest: Side, first_won: bool) -> Sides:
    """Two sides (one against all, or a seat against the rules' opponent): the winner first."""
    return Sides((first, rest), (1, 2) if first_won else (2, 1))


def matching_variant(variants: Sequence, options: Message) -> str | None:
    """The variant whose Options the match's contain: every scalar a variant sets has the
    same value, every message it sets is present (a mode that names a seat, whatever the
    seat); the one that sets the most wins. None when no variant matches."""
    best, most = None, -1
    for variant in variants:
        fields = variant.options.ListFields()
        if all(_holds(options, field, value) for field, value in fields) and len(fields) > most:
            best, most = variant.name, len(fields)
    return best


def _holds(options: Message, field, value) -> bool:
    if field.type == field.TYPE_MESSAGE and not field.is_repeated:
        return options.HasField(field.name)
    return getattr(options, field.name) == value
