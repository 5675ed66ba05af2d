"""`parlour match delete|show`: host operations on stored matches."""

from __future__ import annotations

import argparse


def add(sub) -> None:
    p = sub.add_parser("match", help="host operations on stored matches (delete, show)")
    p.add_argument("--redis-url", default=None, help="default: PARLOUR_REDIS_URL")
    actions = p.add_subparsers(dest="match_command", required=True)
    actions.add_parser("delete", help="remove matches and every key of them now").add_argument(
        "matches", nargs="+", metavar="MATCH"
    )
    actions.add_parser("show", help="a stored match's game, status and expiry").add_argument(
        "match", metavar="MATCH"
    )
    p.set_defaults(run=run, extra="server")


def run(args: argparse.Namespace) -> None:
    from parlour.store import admin

    admin.run(args)
