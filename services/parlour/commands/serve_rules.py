"""`parlour serve-rules GAME`: serve one game's rules service."""

from __future__ import annotations

import argparse

from parlour.engine.registry import known_game


def add(sub) -> None:
    p = sub.add_parser("serve-rules", help="serve one game's rules service")
    p.add_argument("game")
    p.set_defaults(run=run, extra="server")


def run(args: argparse.Namespace) -> None:
    known_game(args.game)
    from parlour.rules.server import main

    main(args.game)
