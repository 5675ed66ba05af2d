"""`parlour leaderboard GAME`: a game's best rated players."""

from __future__ import annotations

import argparse

from parlour.commands._common import UsageError, gateway_address, gateway_target
from parlour.commands._served import served_games
from parlour.engine.registry import known_game


def top_rows(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 100:
        raise argparse.ArgumentTypeError(f"must be 1 to 100, not {value}")
    return value


def add(sub) -> None:
    p = sub.add_parser("leaderboard", help="a game's best rated players")
    p.add_argument("game")
    p.add_argument("--variant", default="", help="the way to play (default: the game's first)")
    p.add_argument("--top", type=top_rows, default=10, help="rows from the top (1 to 100)")
    p.add_argument("--gateway", type=gateway_target,
                   help="gateway HOST:PORT (default: $PARLOUR_GATEWAY)")
    p.set_defaults(run=run, extra="client")


def run(args: argparse.Namespace) -> None:
    import asyncio

    import grpc

    from parlour.client.client import GatewayClient
    from parlour.client.records import leaderboard_lines, where

    game = known_game(args.game)
    address = gateway_address(args)
    served_games(address, [game.name])

    async def fetch():
        async with GatewayClient(address) as client:
            return await client.leaderboard(game.name, args.variant, top=args.top)

    try:
        board = asyncio.run(fetch())
    except grpc.RpcError as error:
        from parlour.client.refusals import error_text

        raise UsageError(error_text(error)) from None
    print("\n".join(leaderboard_lines(board, where(game, board.variant))))
