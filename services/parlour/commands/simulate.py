"""`parlour simulate GAME`: play random games in-process and report speed."""

from __future__ import annotations

import argparse

from parlour.commands._common import UsageError, positive
from parlour.engine.registry import known_game


def add(sub) -> None:
    p = sub.add_parser("simulate", help="play random games in-process and report speed")
    p.add_argument("game")
    p.add_argument("--matches", type=positive, default=100)
    p.add_argument("--seats", type=int, default=0)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=run, extra="")


def run(args: argparse.Namespace) -> None:
    from parlour.engine.simulate import simulate

    game = known_game(args.game)
    seats = args.seats or game.min_seats
    if not game.min_seats <= seats <= game.max_seats:
        raise UsageError(
            f"{game.display_name} takes {game.min_seats} to {game.max_seats} seats, not {seats}"
        )
    report = simulate(game, seats, args.matches, args.seed)
    print(report.summary())
