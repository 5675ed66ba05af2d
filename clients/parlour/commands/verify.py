"""`parlour verify MATCH_LOG`: recompute every shuffle of a saved 'reveal all' log."""

from __future__ import annotations

import argparse
import sys

from parlour.commands._common import UsageError


def add(sub) -> None:
    p = sub.add_parser("verify", help="recompute every shuffle of a saved 'reveal all' log")
    p.add_argument("log", metavar="MATCH_LOG")
    p.set_defaults(run=run, extra="")


def run(args: argparse.Namespace) -> None:
    from parlour import matchlogs

    try:
        with open(args.log, encoding="utf-8") as source:
            text = source.read()
    except OSError as error:
        raise UsageError(f"cannot read {args.log}: {error.strerror}") from None
    try:
        print(matchlogs.verify(matchlogs.from_json(text)))
    except matchlogs.VerifyFailed as error:
        sys.exit(f"parlour verify: FAILED: {error}")
    except matchlogs.RulesVersionUnavailable as error:
        print(f"parlour verify: CANNOT CHECK HERE: {error}", file=sys.stderr)
        sys.exit(3)
