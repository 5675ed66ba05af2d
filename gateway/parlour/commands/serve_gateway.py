"""`parlour serve-gateway`: serve the gateway."""

from __future__ import annotations

import argparse

from parlour.commands._common import positive


def add(sub) -> None:
    p = sub.add_parser("serve-gateway", help="serve the gateway")
    p.add_argument("--workers", type=positive, metavar="N",
                   help="gateway processes sharing the port with SO_REUSEPORT, worker I "
                   "serving /metrics on PARLOUR_METRICS_PORT + I (default: "
                   "$PARLOUR_GATEWAY_WORKERS, else 1)")
    p.set_defaults(run=run, extra="server")


def run(args: argparse.Namespace) -> None:
    from parlour.gateway.server import main

    main(args.workers)
