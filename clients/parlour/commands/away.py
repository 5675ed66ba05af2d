"""`parlour away MATCH`: correspondence: away until a date (your clock waits), or back."""

from __future__ import annotations

import argparse

from parlour.commands._common import UsageError, gateway_address, gateway_target


def add(sub) -> None:
    p = sub.add_parser("away", help="correspondence: say you are away until a date (your clock "
                       "waits), or back")
    p.add_argument("match", help="matches/<id>")
    p.add_argument("--token", required=True, help="your seat token")
    p.add_argument("--until", help="when you are back: a date, 2026-12-08 18:00 (UTC unless "
                   "you give the zone, +01:00)")
    p.add_argument("--days", type=float, help="away this many days from now")
    p.add_argument("--back", action="store_true", help="back now: end your pause")
    p.add_argument("--gateway", type=gateway_target,
                   help="gateway HOST:PORT (default: $PARLOUR_GATEWAY)")
    p.set_defaults(run=run, extra="client")


def run(args: argparse.Namespace) -> None:
    import asyncio

    import grpc

    from parlour.client.away import set_away, until_ms
    from parlour.client.refusals import error_text

    try:
        until = until_ms(args.until, args.days, args.back)
    except ValueError as error:
        raise UsageError(str(error)) from None
    try:
        print(asyncio.run(set_away(gateway_address(args), args.match, args.token, until)))
    except grpc.RpcError as error:
        raise UsageError(error_text(error)) from None
