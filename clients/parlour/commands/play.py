"""`parlour play`: play a match in the terminal (with bots in free seats)."""

from __future__ import annotations

import argparse
import contextlib
import getpass
import signal

from parlour.client.strategies import STRATEGIES
from parlour.commands._common import (
    UsageError,
    gateway_address,
    gateway_target,
    interrupt,
    nonnegative,
    positive,
    started,
)
from parlour.commands._served import gateway_games, served_games
from parlour.engine.registry import known_game


def login_name() -> str:
    """The default name at the table: the login name, else "player"."""
    try:
        return getpass.getuser() or "player"
    except (KeyError, OSError):
        return "player"


def add(sub) -> None:
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
    p.set_defaults(run=run, extra="client")


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


def run(args: argparse.Namespace) -> None:
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
        signal.signal(signal.SIGHUP, interrupt)
        signal.signal(signal.SIGTERM, interrupt)
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

