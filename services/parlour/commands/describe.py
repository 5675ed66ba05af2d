"""`parlour describe GAME`: a game's messages with their comments."""

from __future__ import annotations

import argparse

from parlour.commands._common import UsageError
from parlour.engine.registry import known_game


def add(sub) -> None:
    p = sub.add_parser("describe", help="a game's Options, Action, Event and View messages "
                       "with their comments (from the installed descriptors)")
    p.add_argument("game")
    p.set_defaults(run=run, extra="")


def run(args: argparse.Namespace) -> None:
    from parlour.describe import describe

    try:
        print(describe(known_game(args.game)))
    except FileNotFoundError as error:
        raise UsageError(str(error)) from None
