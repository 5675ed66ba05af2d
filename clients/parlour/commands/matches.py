"""`parlour matches`: your matches across games, with the time left."""

from __future__ import annotations

import argparse

from parlour.commands._common import UsageError, gateway_address, gateway_target


def add(sub) -> None:
    p = sub.add_parser("matches", help="your matches across games: your turn, waiting for "
                       "others, with the time left (needs identity on the gateway)")
    p.add_argument("--token-file", required=True, metavar="FILE",
                   help="a file holding your identity token (a JWT from the host's provider)")
    p.add_argument("--gateway", type=gateway_target,
                   help="gateway HOST:PORT (default: $PARLOUR_GATEWAY)")
    p.set_defaults(run=run, extra="client")


def run(args: argparse.Namespace) -> None:
    import asyncio
    from pathlib import Path

    import grpc

    from parlour.client.client import GatewayClient
    from parlour.client.mymatches import lines

    address = gateway_address(args)
    token = Path(args.token_file).read_text().strip()

    async def fetch():
        async with GatewayClient(address, identity_token=token) as client:
            return await client.my_matches()

    try:
        mine = asyncio.run(fetch())
    except grpc.RpcError as error:
        from parlour.client.refusals import error_text

        raise UsageError(error_text(error)) from None
    print("\n".join(lines(mine)))
