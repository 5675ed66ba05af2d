"""`parlour certs`: the internal mutual TLS certificates, as Kubernetes Secrets or PEM files."""

from __future__ import annotations

import argparse
import re
import sys

from parlour.commands._common import UsageError


def bounded_days(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 3650:
        raise argparse.ArgumentTypeError(f"must be 1 to 3650 days, not {value}")
    return value


def dns_name(text: str) -> str:
    """A DNS-1123 name: a namespace (label) or a certificate's server name (dotted)."""
    label = r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?"
    if len(text) > 253 or not re.fullmatch(rf"{label}(\.{label})*", text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a lower-case DNS name")
    return text


def namespace(text: str) -> str:
    if "." in dns_name(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a namespace name (no dots)")
    return text


def add(sub) -> None:
    p = sub.add_parser(
        "certs",
        help="make the internal mutual TLS certificates: Kubernetes Secrets, or PEM files",
        description="A CA, a rules server certificate (the name gateways check) and a gateway "
        "client certificate. Prints the two kubernetes.io/tls Secrets the manifests mount "
        "(parlour certs --namespace parlour-dev | kubectl apply -f -), or with --out writes "
        "DIR/rules and DIR/gateway, each with ca.crt, tls.crt and tls.key.",
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--namespace", type=namespace, default="parlour",
                       help="namespace of the printed Secrets (default: parlour)")
    where.add_argument("--out", metavar="DIR", help="write PEM files under DIR instead")
    p.add_argument("--days", type=bounded_days, default=365, help="validity (default 365)")
    p.add_argument(
        "--server-name", type=dns_name,
        help="name in the rules certificate, as gateways check it "
        "(default: $PARLOUR_INTERNAL_TLS_SERVER_NAME, else parlour-rules)",
    )
    p.add_argument("--ca", metavar="DIR", help="sign with the CA kept in DIR (ca.crt, ca.key; "
                   "made there the first time) so re-running rotates without a trust gap")
    p.set_defaults(run=run, extra="server")


def run(args: argparse.Namespace) -> None:
    from pathlib import Path

    from parlour.rpc import pki
    from parlour.settings import HostSettings, load

    args.server_name = args.server_name or load(HostSettings).internal_tls_server_name

    try:
        if args.ca:
            authority = pki.kept_authority(Path(args.ca))
        else:
            authority = pki.Authority.create("parlour internal CA", args.days)
        certs = pki.internal_certificates(authority, args.days, args.server_name)
    except (OSError, ValueError) as error:
        raise UsageError(str(error)) from None
    if args.out:
        files = {"CA": "ca.crt", "CERT": "tls.crt", "KEY": "tls.key"}
        for folder in pki.write_role_dirs(certs, Path(args.out)):
            variables = " ".join(f"PARLOUR_INTERNAL_TLS_{k}={folder / v}" for k, v in files.items())
            print(f"{folder.name}: {variables}")
    else:
        sys.stdout.write(pki.to_yaml(pki.tls_secrets(certs, args.namespace)))
    print(
        f"parlour certs: rules server certificate for {args.server_name!r} and gateway client "
        f"certificate, valid until {certs.expires:%Y-%m-%d %H:%M} UTC"
        + (f"; CA kept in {args.ca}" if args.ca else "; the CA key was not kept"),
        file=sys.stderr,
    )
