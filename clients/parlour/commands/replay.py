"""`parlour replay MATCH`: print a finished match's log as you may see it."""

from __future__ import annotations

import argparse

from parlour.commands._common import UsageError, gateway_address, gateway_target
from parlour.commands._served import gateway_games


def add(sub) -> None:
    p = sub.add_parser("replay", help="print a finished match's log as you may see it")
    p.add_argument("match", help="matches/<id>")
    p.add_argument("--gateway", type=gateway_target,
                   help="gateway HOST:PORT (default: $PARLOUR_GATEWAY)")
    p.add_argument("--token", help="your seat token (default: watch as a spectator)")
    p.add_argument("--all", action="store_true", help="every seat's actions and events")
    p.add_argument("--save", metavar="FILE", help="also save the log as JSON for verify")
    p.set_defaults(run=run, extra="client")


def run(args: argparse.Namespace) -> None:
    import asyncio

    import grpc

    from parlour import matchlogs

    address = gateway_address(args)
    gateway_games(address)

    async def fetch():
        async with grpc.aio.insecure_channel(address) as channel:
            return await matchlogs.fetch_log(channel, args.match, args.token, args.all)

    try:
        log = asyncio.run(fetch())
    except grpc.RpcError as error:
        raise UsageError(f"{error.code().name}: {error.details()}") from None
    print("\n".join(matchlogs.lines(log)))
    if args.save:
        with open(args.save, "w", encoding="utf-8") as out:
            out.write(matchlogs.to_json(log))
