"""`parlour demo`: one bot match of every game through the gateway (parlour.demo)."""

from __future__ import annotations

import argparse
import sys

from parlour.commands._common import chosen_games, gateway_address, gateway_target
from parlour.commands._served import served_games


def add(sub) -> None:
    p = sub.add_parser("demo", help="play one bot match of every game through the gateway")
    p.add_argument("games", nargs="*")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--lines", type=int, default=25, help="feed lines shown per match")
    p.add_argument("--gateway", type=gateway_target, help="play through this running gateway "
                   "(default: $PARLOUR_GATEWAY, else a local stack is started)")
    p.set_defaults(run=run, extra="server")


def run(args: argparse.Namespace) -> None:
    from parlour.commands.up import check_server_settings
    from parlour.demo import run_demo

    address = gateway_address(args, required=False)
    if address:
        args.extra = "client"
        games = served_games(address, args.games)
    else:
        games = chosen_games(args.games)
        check_server_settings()
    sys.exit(run_demo(games, args.seed, args.lines, address))
