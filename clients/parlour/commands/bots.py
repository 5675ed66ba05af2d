"""`parlour bots MATCH`: fill a match's free seats with bots playing through the API."""

from __future__ import annotations

import argparse

from parlour.client.strategies import STRATEGIES
from parlour.commands._common import UsageError, gateway_address, gateway_target, nonnegative
from parlour.commands._served import gateway_games


def seat_list(text: str) -> list[int]:
    """"1,3" -> [1, 3]."""
    try:
        seats = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not seat numbers like 1,3") from None
    if any(s < 0 for s in seats):
        raise argparse.ArgumentTypeError("seat numbers are 0 or more")
    return seats


def add(sub) -> None:
    p = sub.add_parser("bots", help="fill a match's free seats with bots playing through the API")
    p.add_argument("match", help="matches/<id>")
    p.add_argument("--count", type=nonnegative, default=0,
                   help="seats to take (default: every free one)")
    p.add_argument("--seats", type=seat_list, default=None,
                   help="take these seats, e.g. 1,3 (matchmaking's bot seats; a private "
                   "table's join code comes from $PARLOUR_JOIN_CODE)")
    p.add_argument("--strategy", choices=STRATEGIES, default="ismcts")
    p.add_argument("--iterations", type=int, default=24, help="IS-MCTS samples per decision")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--gateway", type=gateway_target,
                   help="gateway HOST:PORT (default: $PARLOUR_GATEWAY)")
    p.set_defaults(run=run, extra="client")


def run(args: argparse.Namespace) -> None:
    import asyncio

    import grpc

    from parlour.client.seatbot import fill_free_seats
    from parlour.settings import HostSettings, load

    address = gateway_address(args)
    gateway_games(address)
    try:
        outcome = asyncio.run(
            fill_free_seats(address, args.match, args.count, args.strategy, args.seed,
                            args.iterations, args.seats,
                            load(HostSettings).join_code)
        )
    except grpc.RpcError as error:
        raise UsageError(f"{args.match}: {error.code().name}: {error.details()}") from None
    print(f"{args.match}: {outcome.summary or 'finished'}; scores {list(outcome.scores)}")
