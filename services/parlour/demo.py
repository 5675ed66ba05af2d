"""`make demo`: a real stack of processes, one bot match per game through the gateway."""

from __future__ import annotations

import asyncio
import time

from parlour.client import GatewayClient
from parlour.client.bots import play_random_match
from parlour.games.murdercastle.v1 import murdercastle_pb2
from parlour.gateway.v1 import gateway_pb2 as gw
from parlour.launcher import LocalStack, redacted

#: Matches the demo plays instead of one with the defaults: (mode, options, seats or 0).
DEMO_MATCHES = {"murdercastle": [
    (" (The 2nd Story)", murdercastle_pb2.Options(second_story=True), 0),
    (" (Automa, Intermediate)",
     murdercastle_pb2.Options(automa=murdercastle_pb2.AUTOMA_LEVEL_INTERMEDIATE), 1),
    (" (Play as Holmes: seat 0 is Holmes)",
     murdercastle_pb2.Options(play_as_holmes=murdercastle_pb2.PlayAsHolmes(seat=0)), 4),
]}


async def play_all(address: str, games: list[str], seed: int, lines: int) -> int:
    failures = 0
    async with GatewayClient(address) as client:
        served = {g.name.removeprefix("games/"): g.info for g in await client.games()}
        matches = [(n, *m) for n in games for m in DEMO_MATCHES.get(n, [("", None, 0)])]
        for name, mode, options, wanted in matches:
            info = served[name]
            seats = wanted or min(max(info.min_seats, 3), info.max_seats)
            shown = 0

            def on_event(event, match, name=name) -> None:
                nonlocal shown
                shown += 1
                if shown <= lines:
                    who = match.seats[event.actor].display_name if event.actor >= 0 else "-"
                    print(f"  #{event.sequence:<5} {who:>8}  {event.text}")

            print(f"\n=== {info.display_name}{mode}: {seats} bots, seed {seed} ===")
            started = time.perf_counter()
            report = await play_random_match(client, name, seats, seed, on_event,
                                             options=options)
            elapsed = time.perf_counter() - started
            if shown > lines:
                print(f"  … {shown - lines} more public events")
            outcome = report.progress.outcome
            scores = ", ".join(
                f"{s.display_name}={outcome.scores[s.seat]}" for s in report.match.seats
            )
            winners = ", ".join(report.match.seats[w].display_name for w in outcome.winners)
            winners = winners or "none"
            print(f"  final scores: {scores}")
            print(f"  winner(s): {winners}" + (f" — {outcome.summary}" if outcome.summary else ""))
            print(
                f"  {report.actions} actions through the gateway in {elapsed:.1f}s; "
                f"status {gw.MatchStatus.Name(report.match.status)}"
            )
            failures += report.match.status != gw.MATCH_STATUS_FINISHED
    return failures


def run_demo(games: list[str], seed: int, lines: int) -> int:
    """Start the stack, play every game, stop the stack; returns a process exit code."""
    print(f"Starting Redis, {len(games)} rules service(s) and a gateway as separate processes…")
    with LocalStack(games) as stack:
        print(f"gateway {stack.address}; Redis {redacted(stack.redis_url)}")
        failures = asyncio.run(play_all(stack.address, games, seed, lines))
    print(
        "\nAll processes stopped." + (f" {failures} match(es) did not finish!" if failures else "")
    )
    print(HOW_TO_PLAY.format(game="isayholmes" if "isayholmes" in games else games[0]))
    return 1 if failures else 0


HOW_TO_PLAY = """
Now play yourself, against bots or friends:
  in this terminal:  .venv/bin/parlour play {game} --bots 2
  in a browser:      .venv/bin/parlour up    then open the web address it prints
                     (http://127.0.0.1:8080/ unless --web-port says otherwise)
  join a match:      .venv/bin/parlour play --join MATCH --gateway ADDR"""
