"""`parlour record`: a player's ratings and rated matches."""

from __future__ import annotations

import argparse

from parlour.commands._common import UsageError, gateway_address, gateway_target
from parlour.commands._served import gateway_games


def add(sub) -> None:
    p = sub.add_parser("record", help="a player's ratings and rated matches")
    p.add_argument("player", nargs="?", help="a record's name, players/… (players/bot:greedy: "
                   "the greedy bots')")
    p.add_argument("--name", help="the record of a name (gateways without identity: anyone "
                   "may play under a name)")
    p.add_argument("--gateway", type=gateway_target,
                   help="gateway HOST:PORT (default: $PARLOUR_GATEWAY)")
    p.set_defaults(run=run, extra="client")


def run(args: argparse.Namespace) -> None:
    import asyncio

    import grpc

    from parlour.client.client import GatewayClient
    from parlour.client.records import name_player, record_lines

    if bool(args.player) == bool(args.name):
        raise UsageError("give --name NAME (the name played under) or PLAYER (a record's "
                         "name: players/bot:greedy, or a join's JoinMatchResponse.player)")
    player = args.player or name_player(args.name)
    address = gateway_address(args)
    gateway_games(address)

    async def fetch():
        async with GatewayClient(address) as client:
            return await client.player_record(player)

    try:
        record = asyncio.run(fetch())
    except grpc.RpcError as error:
        from parlour.client.refusals import error_text

        raise UsageError(error_text(error)) from None
    from parlour.engine.registry import games

    print("\n".join(record_lines(record, games(), address)))
