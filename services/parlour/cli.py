"""The `parlour` command: run the stack, serve one part, play the demo, simulate games.

Mistakes (an unknown game, a seat count the game does not take, a bad setting, a port in
use) end with one line on stderr and a non-zero exit status, not a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import time
from importlib.metadata import PackageNotFoundError, version

from parlour.client.strategies import STRATEGIES
from parlour.engine.game import Game
from parlour.engine.registry import game_modules, get_game, playable_games


class UsageError(SystemExit):
    """A mistake in the command line."""

    def __init__(self, message: str) -> None:
        super().__init__(f"parlour: {message}")


class UnknownGame(SystemExit):
    """A game name that no game folder answers to."""

    def __init__(self, name: str) -> None:
        super().__init__(f"parlour: unknown game {name!r}; known: {', '.join(game_modules())}")


def known_game(name: str) -> Game:
    """The registered game called `name`, or UnknownGame."""
    try:
        return get_game(name)
    except KeyError:
        raise UnknownGame(name) from None


def parlour_version() -> str:
    try:
        return version("parlour")
    except PackageNotFoundError:  # pragma: no cover - running from a bare tree
        return "unknown"


def chosen_games(names: list[str]) -> list[str]:
    """The named games (each checked), or every playable game."""
    return [known_game(n).name for n in names] or [g.name for g in playable_games()]


def check_server_settings() -> None:
    """Check the PARLOUR_* settings the servers of a local stack will read, before any starts."""
    from parlour.gateway.config import GatewaySettings
    from parlour.settings import RulesSettings, load

    placeholder = {"redis_url": "redis://placeholder", "address": "127.0.0.1:0"}
    load(lambda: RulesSettings(**placeholder))
    load(lambda: GatewaySettings(**placeholder, rules=""))


class started:
    """Start a LocalStack; a server that cannot start ends the command with its reason."""

    def __init__(self, stack) -> None:
        self.stack = stack

    def __enter__(self):
        try:
            return self.stack.start()
        except RuntimeError as error:
            raise SystemExit(f"parlour: could not start the stack: {error}") from None

    def __exit__(self, *exc: object) -> None:
        self.stack.stop()


def cmd_serve_rules(args: argparse.Namespace) -> None:
    from parlour.rules.server import main

    main(args.game)


def cmd_serve_gateway(args: argparse.Namespace) -> None:
    from parlour.gateway.server import main

    main()


def cmd_up(args: argparse.Namespace) -> None:
    from parlour.launcher import LocalStack, redacted

    games = chosen_games(args.games)
    check_server_settings()
    stack = LocalStack(
        games, replicas=args.replicas, quiet=False, gateway_address=args.address or ""
    )
    # SIGTERM stops the stack cleanly from the first child on (default SIGTERM would leave
    # the children, each in its own session, running)
    signal.signal(signal.SIGTERM, _interrupt)
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
            raise RuntimeError("the web server did not start")
        yield line.removeprefix("web client: ").strip()
    finally:
        process.terminate()
        process.wait()


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


def cmd_demo(args: argparse.Namespace) -> None:
    from parlour.demo import run_demo

    games = chosen_games(args.games)
    check_server_settings()
    sys.exit(run_demo(games, args.seed, args.lines))


def cmd_match(args: argparse.Namespace) -> None:
    from parlour.store.admin import run

    run(args)


def cmd_simulate(args: argparse.Namespace) -> None:
    from parlour.engine.simulate import simulate

    game = known_game(args.game)
    seats = args.seats or game.min_seats
    if not game.min_seats <= seats <= game.max_seats:
        raise UsageError(
            f"{game.display_name} takes {game.min_seats} to {game.max_seats} seats, not {seats}"
        )
    report = simulate(game, seats, args.matches, args.seed)
    print(report.summary())


def cmd_certs(args: argparse.Namespace) -> None:
    from pathlib import Path

    from parlour.rpc import pki

    try:
        if args.ca:
            authority = pki.kept_authority(Path(args.ca))
        else:
            authority = pki.Authority.create("parlour internal CA", args.days)
        certs = pki.internal_certificates(authority, args.days, args.server_name)
    except (OSError, ValueError) as error:
        raise UsageError(f"certs: {error}") from None
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


def gateway_address(args: argparse.Namespace) -> str:
    """--gateway, else PARLOUR_GATEWAY; exits with a message when neither is given."""
    address = args.gateway or os.environ.get("PARLOUR_GATEWAY")
    if not address:
        sys.exit("parlour: give --gateway HOST:PORT or set PARLOUR_GATEWAY (`parlour up` shows it)")
    return address


def cmd_bots(args: argparse.Namespace) -> None:
    import asyncio

    from parlour.client.seatbot import fill_free_seats

    outcome = asyncio.run(
        fill_free_seats(
            gateway_address(args), args.match, args.count, args.strategy, args.seed,
            args.iterations,
        )
    )
    print(f"{args.match}: {outcome.summary or 'finished'}; scores {list(outcome.scores)}")


def cmd_play(args: argparse.Namespace) -> None:
    import asyncio

    from parlour.client.terminal import play

    if not (args.game or args.join or args.watch):
        sys.exit("parlour play: name a GAME, or --join MATCH, or --watch MATCH")
    address = args.gateway or os.environ.get("PARLOUR_GATEWAY")
    stack = contextlib.nullcontext()
    if not address:
        if not args.game:
            gateway_address(args)
        from parlour.launcher import LocalStack

        print("starting a local stack (Redis, the rules service, a gateway)…", flush=True)
        stack = LocalStack([args.game])
    game = get_game(args.game) if args.game else None
    options = match_options(game, args.options) if game else None
    with stack as running:
        address = address or running.address
        seats = args.seats
        if game and not seats:
            low, high = game.seat_range(options or game.options_type())
            seats = min(max(low, args.bots + 1), high)
        bots = min(args.bots, seats - 1) if game else args.bots
        asyncio.run(play(address, args.game, seats, bots, args.name, args.strategy,
                         args.join, args.seat, args.watch, options))


def match_options(game, text: str | None):
    """The game's Options from JSON (the proto's JSON names, as the web page takes them);
    None when not given. A mistake ends the command with one line."""
    from google.protobuf import json_format

    if not text:
        return None
    try:
        return json_format.Parse(text, game.options_type())
    except json_format.ParseError as error:
        sys.exit(f"parlour play: --options is not {game.name} Options JSON: {error}")


def cmd_serve_web(args: argparse.Namespace) -> None:
    from parlour.web.server import serve

    serve(gateway_address(args), args.host, args.port,
          lambda url: print(f"web client: {url}", flush=True))


def cmd_replay(args: argparse.Namespace) -> None:
    import asyncio

    import grpc

    from parlour import matchlogs

    async def fetch():
        async with grpc.aio.insecure_channel(gateway_address(args)) as channel:
            return await matchlogs.fetch_log(channel, args.match, args.token, args.all)

    try:
        log = asyncio.run(fetch())
    except grpc.RpcError as error:
        sys.exit(f"parlour replay: {error.code().name}: {error.details()}")
    print("\n".join(matchlogs.lines(log)))
    if args.save:
        with open(args.save, "w", encoding="utf-8") as out:
            out.write(matchlogs.to_json(log))


def cmd_verify(args: argparse.Namespace) -> None:
    from parlour import matchlogs

    try:
        with open(args.log, encoding="utf-8") as source:
            print(matchlogs.verify(matchlogs.from_json(source.read())))
    except (OSError, matchlogs.VerifyFailed) as error:
        sys.exit(f"parlour verify: FAILED: {error}")


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def bounded_days(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 3650:
        raise argparse.ArgumentTypeError(f"must be 1 to 3650 days, not {value}")
    return value


def dns_name(text: str) -> str:
    """A DNS-1123 name: a namespace (label) or a certificate's server name (dotted)."""
    import re

    label = r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?"
    if len(text) > 253 or not re.fullmatch(rf"{label}(\.{label})*", text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a lower-case DNS name")
    return text


def namespace(text: str) -> str:
    if "." in dns_name(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a namespace name (no dots)")
    return text


def address(text: str) -> str:
    from parlour.settings import address_ok

    try:
        return address_ok(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="parlour", description=__doc__.splitlines()[0])
    top.add_argument("--version", action="version", version=f"parlour {parlour_version()}")
    sub = top.add_subparsers(dest="command", required=True)
    p = sub.add_parser("up", help="run Redis, every rules service and a gateway locally")
    p.add_argument("games", nargs="*", help="games to serve (default: every game)")
    p.add_argument("--replicas", type=positive, default=1, help="rules replicas per game")
    p.add_argument(
        "--address", type=address, help="gateway listen address (default: a free port)"
    )
    p.add_argument("--web-port", type=int, default=8080, help="the web client's port (0: any)")
    p.set_defaults(run=cmd_up)
    p = sub.add_parser("demo", help="play one bot match of every game through the gateway")
    p.add_argument("games", nargs="*")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--lines", type=int, default=25, help="feed lines shown per match")
    p.set_defaults(run=cmd_demo)
    p = sub.add_parser("bots", help="fill a match's free seats with bots playing through the API")
    p.add_argument("match", help="matches/<id>")
    p.add_argument("--count", type=int, default=0, help="seats to take (default: every free one)")
    p.add_argument("--strategy", choices=STRATEGIES, default="ismcts")
    p.add_argument("--iterations", type=int, default=24, help="IS-MCTS samples per decision")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--gateway", help="gateway HOST:PORT (default: $PARLOUR_GATEWAY)")
    p.set_defaults(run=cmd_bots)
    p = sub.add_parser("play", help="play a match in the terminal (with bots in free seats)")
    p.add_argument("game", nargs="?", help="the game to start a match of")
    p.add_argument("--bots", type=int, default=0, help="bots to seat (their own process)")
    p.add_argument("--seats", type=int, default=0, help="seats (default: you plus the bots)")
    p.add_argument("--join", metavar="MATCH", help="take a free seat of an existing match")
    p.add_argument("--seat", type=int, help="with --join: the seat wanted")
    p.add_argument("--watch", metavar="MATCH", help="watch a match as a spectator")
    p.add_argument("--name", default="you", help="your name at the table")
    p.add_argument("--options", metavar="JSON", help="the game's match options as JSON, e.g. "
                   "murdercastle '{\"playAsHolmes\": {\"seat\": 0}}' (you are seat 0: Holmes)")
    p.add_argument("--strategy", choices=STRATEGIES, default="ismcts", help="the bots' strategy")
    p.add_argument("--gateway", help="gateway HOST:PORT (default: $PARLOUR_GATEWAY, else a "
                   "local stack is started)")
    p.set_defaults(run=cmd_play)
    p = sub.add_parser("serve-web", help="serve the browser client and the Connect endpoint")
    p.add_argument("--gateway", help="gateway HOST:PORT (default: $PARLOUR_GATEWAY)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8080, help="HTTP port (0: any free port)")
    p.set_defaults(run=cmd_serve_web)
    p = sub.add_parser("serve-rules", help="serve one game's rules service")
    p.add_argument("game")
    p.set_defaults(run=cmd_serve_rules)
    p = sub.add_parser("serve-gateway", help="serve the gateway")
    p.set_defaults(run=cmd_serve_gateway)
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
        default=os.environ.get("PARLOUR_INTERNAL_TLS_SERVER_NAME") or "parlour-rules",
        help="name in the rules certificate, as gateways check it "
        "(default: $PARLOUR_INTERNAL_TLS_SERVER_NAME, else parlour-rules)",
    )
    p.add_argument("--ca", metavar="DIR", help="sign with the CA kept in DIR (ca.crt, ca.key; "
                   "made there the first time) so re-running rotates without a trust gap")
    p.set_defaults(run=cmd_certs)
    p = sub.add_parser("match", help="host operations on stored matches (delete, show)")
    p.add_argument("--redis-url", default=None, help="default: PARLOUR_REDIS_URL")
    actions = p.add_subparsers(dest="match_command", required=True)
    actions.add_parser("delete", help="remove matches and every key of them now").add_argument(
        "matches", nargs="+", metavar="MATCH"
    )
    actions.add_parser("show", help="a stored match's game, status and expiry").add_argument(
        "match", metavar="MATCH"
    )
    p.set_defaults(run=cmd_match)
    p = sub.add_parser("simulate", help="play random games in-process and report speed")
    p.add_argument("game")
    p.add_argument("--matches", type=positive, default=100)
    p.add_argument("--seats", type=int, default=0)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=cmd_simulate)
    p = sub.add_parser("replay", help="print a finished match's log as you may see it")
    p.add_argument("match", help="matches/<id>")
    p.add_argument("--gateway", help="gateway HOST:PORT (default: $PARLOUR_GATEWAY)")
    p.add_argument("--token", help="your seat token (default: watch as a spectator)")
    p.add_argument("--all", action="store_true", help="every seat's actions and events")
    p.add_argument("--save", metavar="FILE", help="also save the log as JSON for verify")
    p.set_defaults(run=cmd_replay)
    p = sub.add_parser("verify", help="recompute every shuffle of a saved 'reveal all' log")
    p.add_argument("log", metavar="MATCH_LOG")
    p.set_defaults(run=cmd_verify)
    return top


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    main()
