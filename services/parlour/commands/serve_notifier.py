"""`parlour serve-notifier`: send the notification outbox to the host's webhook."""

from __future__ import annotations

import argparse


def add(sub) -> None:
    p = sub.add_parser("serve-notifier", help="send the notification outbox to the host's "
                       "webhook (PARLOUR_NOTIFY_URL, PARLOUR_NOTIFY_SECRET)")
    p.set_defaults(run=run, extra="server")


def run(args: argparse.Namespace) -> None:
    from parlour.notify.notifier import main

    main()
