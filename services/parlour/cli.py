"""The `parlour` command: run the stack, serve one part, play the demo, simulate games."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time

from parlour.client.strategies import STRATEGIES
from parlour.engine.registry import get_game, playable_games


def cmd_serve_rules(args: argparse.Namespace) -> None:
    from parlour.rules.server import main

    main(args.game)


def cmd_serve_gateway(args: argparse.Namespace) -> None:
    from parlour.gateway.server import main

    main()


def cmd_up(args: argparse.Namespace) -> None:
    from parlour.launcher import LocalStack

    games = args.games or [g.name for g in playable_games()]
    with LocalStack(games, replicas=args.replicas, quiet=False) as stack:
        print(f"parlour is up: gateway on {stack.address}, Redis at {stack.redis_url}")
        for game, procs in stack.rules.items():
            print(f"  {game}: {', '.join(p.address for p in procs)}")
        print("Ctrl-C to stop.", flush=True)
        signal.signal(signal.SIGTERM, _interrupt)
        try:
            while all(p.popen.poll() is None for p in stack.processes()):
                time.sleep(0.5)
            print("a server exited; stopping", file=sys.stderr)
        except KeyboardInterrupt:
            print("stopping")


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


def cmd_demo(args: argparse.Namespace) -> None:
    from parlour.demo import run_demo

    sys.exit(run_demo(args.games or [g.name for g in playable_games()], args.seed, args.lines))


def cmd_simulate(args: argparse.Namespace) -> None:
    from parlour.engine.simulate import simulate

    game = get_game(args.game)
    seats = args.seats or game.min_seats
    report = simulate(game, seats, args.matches, args.seed)
    print(report.summary())


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


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="parlour", description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)
    p = sub.add_parser("up", help="run Redis, every rules service and a gateway locally")
    p.add_argument("games", nargs="*", help="games to serve (default: every game)")
    p.add_argument("--replicas", type=int, default=1, help="rules replicas per game")
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
    p.add_argument("--iterations", type=int, default=48, help="IS-MCTS samples per decision")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--gateway", help="gateway HOST:PORT (default: $PARLOUR_GATEWAY)")
    p.set_defaults(run=cmd_bots)
    p = sub.add_parser("serve-rules", help="serve one game's rules service")
    p.add_argument("game")
    p.set_defaults(run=cmd_serve_rules)
    p = sub.add_parser("serve-gateway", help="serve the gateway")
    p.set_defaults(run=cmd_serve_gateway)
    p = sub.add_parser("simulate", help="play random games in-process and report speed")
    p.add_argument("game")
    p.add_argument("--matches", type=int, default=100)
    p.add_argument("--seats", type=int, default=0)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=cmd_simulate)
    return top


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    main()
