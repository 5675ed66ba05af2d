"""`parlour serve-web`: serve the browser client and the Connect endpoint."""

from __future__ import annotations

import argparse

from parlour.commands._common import gateway_address, gateway_target


def add(sub) -> None:
    p = sub.add_parser("serve-web", help="serve the browser client and the Connect endpoint")
    p.add_argument("--gateway", type=gateway_target,
                   help="gateway HOST:PORT (default: $PARLOUR_GATEWAY)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8080, help="HTTP port (0: any free port)")
    p.set_defaults(run=run, extra="server")


def run(args: argparse.Namespace) -> None:
    from parlour.settings import load
    from parlour.web.server import serve
    from parlour.web.signin import SigninSettings

    signin = load(SigninSettings)
    serve(gateway_address(args), args.host, args.port,
          lambda url: print(f"web client: {url}", flush=True), signin)
