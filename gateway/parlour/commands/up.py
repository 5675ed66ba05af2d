"""`parlour up`: Redis, every rules service, a gateway and the web client, locally."""

from __future__ import annotations

import argparse
import contextlib
import signal
import socket
import subprocess
import sys
import time

from parlour.commands._common import (
    DEFAULT_GATEWAY,
    UsageError,
    chosen_games,
    interrupt,
    positive,
    started,
)


def listen_address(text: str) -> str:
    """A listen address, host:port (port 0: any free one)."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not host:port")
    return text


def port_free(address: str, option: str, port_only: bool = False) -> None:
    """UsageError unless `address` (host:port; port 0 is always free) can be bound now; the
    hint is a value `option` accepts (a port alone when `port_only`)."""
    host, _, port = address.rpartition(":")
    if int(port) == 0:
        return
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        # as the servers bind: a port left in TIME_WAIT by a stopped stack is free
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host.strip("[]"), int(port)))
        except OSError as error:
            form = "PORT" if port_only else "HOST:PORT"
            example = int(port) + 1 if port_only else f"{host}:{int(port) + 1}"
            raise UsageError(
                f"{address} is not free ({error.strerror}; another `parlour up`?): give "
                f"{option} {form}, e.g. {option} {example} (port 0: any free one)"
            ) from None


def add(sub) -> None:
    p = sub.add_parser("up", help="run Redis, every rules service and a gateway locally")
    p.add_argument("games", nargs="*", help="games to serve (default: every game)")
    p.add_argument("--replicas", type=positive, default=1, help="rules replicas per game")
    p.add_argument("--address", type=listen_address, default=DEFAULT_GATEWAY,
                   help=f"gateway listen address (default {DEFAULT_GATEWAY}; port 0: any free)")
    p.add_argument("--web-port", type=int, default=8080, help="the web client's port (0: any)")
    p.set_defaults(run=run, extra="server")


def check_server_settings() -> None:
    """Check the PARLOUR_* settings the servers of a local stack will read, before any starts."""
    from parlour.gateway.config import GatewaySettings
    from parlour.settings import RulesSettings, load

    placeholder = {"redis_url": "redis://placeholder", "address": "127.0.0.1:0"}
    load(lambda: RulesSettings(**placeholder))
    load(lambda: GatewaySettings(**placeholder, rules=""))


def run(args: argparse.Namespace) -> None:
    from parlour.launcher import LocalStack, redacted

    games = chosen_games(args.games)
    check_server_settings()
    port_free(args.address, "--address")
    port_free(f"127.0.0.1:{args.web_port}", "--web-port", port_only=True)
    stack = LocalStack(games, replicas=args.replicas, quiet=False, gateway_address=args.address)
    # SIGTERM stops the stack cleanly from the first child on (default SIGTERM would leave
    # the children, each in its own session, running)
    signal.signal(signal.SIGTERM, interrupt)
    try:
        with started(stack), web_process(stack.address, args.web_port) as web:
            redis = redacted(stack.redis_url)
            print(f"parlour is up: gateway on {stack.address}, Redis at {redis}")
            if stack.pki:
                print(f"  internal mutual TLS with throwaway certificates in {stack.certs_dir}")
            for game, procs in stack.rules.items():
                print(f"  {game}: {', '.join(p.address for p in procs)}")
            print("metrics (Prometheus /metrics), one port per process:")
            for proc in stack.processes():
                print(f"  {proc.name} {proc.address}: http://127.0.0.1:{proc.metrics_port}/metrics")
            print(f"Play in a browser: {web}")
            print(f"Play in a terminal: parlour play GAME --bots N --gateway {stack.address}")
            print("Ctrl-C to stop.", flush=True)
            while all(p.popen.poll() is None for p in stack.processes()):
                time.sleep(0.5)
            print("a server exited; stopping", file=sys.stderr)
    except KeyboardInterrupt:
        print("stopping")


@contextlib.contextmanager
def web_process(gateway: str, port: int):
    """`parlour serve-web` beside the gateway; yields the web client's address."""
    command = [sys.executable, "-m", "parlour.cli", "serve-web", "--gateway", gateway,
               "--port", str(port)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        if not line.startswith("web client: "):
            raise UsageError("the web server did not start (see its message above)")
        yield line.removeprefix("web client: ").strip()
    finally:
        process.terminate()
        process.wait()
