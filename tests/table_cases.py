"""Issue 24: the matches the table tests play as a person, and what a person must not read.

One case per game and variant (Game.variants, as GameInfo.variants publishes them), at
the variant's fewest seats, the person in seat 0 and bots in every other seat; a few games
are shortened by an option a person could type (fewer rounds) so a whole match fits a test.
"""

from __future__ import annotations

from collections.abc import Iterable

from google.protobuf.message import Message

from parlour.engine.registry import games
from parlour.engine.text import label_problems, person_problems, text_problems

#: Options fields set to shorten a match, per game (protobuf field name: value).
SHORTER = {"isayholmes": {"rounds": 1}, "murdercastle": {"round_limit": 3}}
#: A feed line naming who acted twice, as "random-bot-1: random-bot-1 drew …" once did.
ACTOR_TWICE = r"^(You|Ada|Random bot \d+): (You|Ada|Random bot \d+) "
#: The two games the default run plays through each client (the rest: -m table_full).
QUICK = ("tinycards-standard", "isayholmes-standard")


def cases() -> dict[str, tuple[str, str, int, int, Message]]:
    """case id -> (game, variant title, fewest seats, most seats, options) for every game
    and variant."""
    out = {}
    for name, game in sorted(games().items()):
        for variant in game.variants():
            options = type(variant.options)()
            options.CopyFrom(variant.options)
            for field, value in SHORTER.get(name, {}).items():
                if field in options.DESCRIPTOR.fields_by_name:
                    setattr(options, field, value)
            low, high = game.seat_range(variant.options)
            out[f"{name}-{variant.name}"] = (name, variant.display_name, low, high, options)
    return out


CASES = cases()
FULL = [c for c in CASES if c not in QUICK]


def choice_problems(labels: list[str]) -> list[str]:
    """Two choices of one decision reading the same, or an id where a name belongs."""
    return label_problems(labels)


def screen_problems(lines: Iterable[str]) -> list[str]:
    """Internal ids or enum names in what the person reads, and what reads wrong for them
    (issue 33: a reference left unwritten, "you holds", "(s)", a 0-based seat)."""
    lines = list(lines)
    return text_problems(lines) + [f"reads wrong: {p}" for p in person_problems(lines)]
