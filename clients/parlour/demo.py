"""`make demo`: a real stack of processes, bot matches of every game through the gateway."""

from __future__ import annotations

import asyncio
import random
import time

import grpc
from google.protobuf.message import Message

from parlour.client import GatewayClient
from parlour.client.bots import play_random_match
from parlour.client.table import end_text
from parlour.engine.registry import get_game
from parlour.engine.text import render
from parlour.engine.v1 import platform_pb2
from parlour.gateway.v1 import gateway_pb2 as gw


def ways_to_play(info: gw.GameInfo) -> list[tuple[str, Message | None, int]]:
    """A game's matches in the demo, as (title suffix, options, seats): its first way to
    play (GameInfo.variants; the defaults when it lists none), then each that seats players
    differently (a solo mode, a seat with its own role), which a match of the first cannot
    show."""
    if not info.variants:
        return [("", None, min(max(info.min_seats, 3), info.max_seats))]
    first = info.variants[0]
    ways = []
    for i, variant in enumerate(info.variants):
        if i and (variant.min_seats, variant.max_seats) == (first.min_seats, first.max_seats):
            continue
        options = get_game(info.game).options_type()
        variant.options.Unpack(options)
        seats = min(max(variant.min_seats, 3), variant.max_seats)
        ways.append(("" if i == 0 else f" ({variant.display_name})", options, seats))
    return ways


def sentence(text: str, names: list[str]) -> str:
    """A feed line as a spectator reads it: a capital first (before the names, which are
    written as their players typed them), seats by name."""
    return render(text[:1].upper() + text[1:], None, names)


async def play_all(address: str, games: list[str], seed: int, lines: int) -> int:
    failures = 0
    async with GatewayClient(address) as client:
        served = {g.name.removeprefix("games/"): g.info for g in await client.games()}
        matches = [(n, *m) for n in games for m in ways_to_play(served[n])]
        for name, mode, options, seats in matches:
            info = served[name]
            shown = 0

            def on_event(event, match, name=name) -> None:
                nonlocal shown
                shown += 1
                if shown <= lines:
                    names = [s.display_name for s in match.seats]
                    who = names[event.actor] if event.actor >= 0 else "-"
                    print(f"  #{event.sequence:<5} {who:>8}  {sentence(event.text, names)}")

            print(f"\n=== {info.display_name}{mode}: {seats} bot{'s' * (seats != 1)}, "
                  f"seed {seed} ===")
            started = time.perf_counter()
            report = await play_random_match(client, name, seats, seed, on_event,
                                             options=options)
            elapsed = time.perf_counter() - started
            if shown > lines:
                print(f"  … {shown - lines} more public events")
            outcome = report.progress.outcome
            names = [s.display_name for s in report.match.seats]
            print(f"  {end_text(outcome, None, names).removeprefix('Game over. ')}")
            print(
                f"  {report.actions} actions through the gateway in {elapsed:.1f}s; "
                f"status {gw.MatchStatus.Name(report.match.status)}"
            )
            failures += report.match.status != gw.MATCH_STATUS_FINISHED
    return failures


#: The timed match: each decision has 300 ms, then 700 ms of bank per seat (issue 17 item 1).
TIMER = gw.LifecycleOptions(turn_timer_ms=300, time_bank_ms=700)


async def timer_demo(address: str, game: str, seed: int) -> int:
    """A short timed match where the last seat never acts: its budget and bank run out and the
    platform plays the game's default for it, once. Returns 1 unless it fired exactly once."""
    async with GatewayClient(address) as client:
        info = {g.name.removeprefix("games/"): g.info for g in await client.games()}[game]
        seats, idle = info.min_seats, info.min_seats - 1
        request = gw.CreateMatchRequest(
            game=game, seats=seats, seed=seed, allow_spectators=True, lifecycle=TIMER
        )
        match = (await client.stub.CreateMatch(request)).match
        players = [await client.join(match.name, f"bot{i + 1}", seat=i, bot="random")
                   for i in range(seats)]
        print(
            f"\n=== Turn timer: {info.display_name}, {TIMER.turn_timer_ms} ms per decision plus "
            f"a {TIMER.time_bank_ms} ms bank per seat; bot{idle + 1} never acts ==="
        )
        events: list[gw.MatchEvent] = []
        changed = asyncio.Event()

        async def follow() -> None:
            async for item in client.spectate(match.name):
                if item.HasField("event"):
                    events.append(item.event)
                changed.set()

        def timeouts() -> list[gw.MatchEvent]:
            return [e for e in events if e.event.Is(platform_pb2.TimedOut.DESCRIPTOR)]

        follower = asyncio.create_task(follow())
        choose = random.Random(seed)
        started = time.perf_counter()
        while True:
            progress = await players[0].progress()
            if progress.HasField("outcome") or (
                timeouts() and progress.version > timeouts()[0].version
            ):
                break
            movers = [d.seat for d in progress.pending if d.seat != idle]
            if not movers:
                changed.clear()
                await changed.wait()
                continue
            legal = (await players[movers[0]].actions()).actions
            try:
                await players[movers[0]].submit(choose.choice(list(legal)))
            except grpc.aio.AioRpcError:
                continue  # the timer moved the match first; look again
        follower.cancel()
        fired = timeouts()[0]
        notice = platform_pb2.TimedOut()
        fired.event.Unpack(notice)
        at_version = [e for e in timeouts() if e.version == fired.version]
        names = [f"bot{n + 1}" for n in range(seats)]
        print(f"  #{fired.sequence:<5} {'platform':>8}  {sentence(fired.text, names)}")
        print(
            f"  the timer fired after {time.perf_counter() - started:.1f}s: "
            f"{len(at_version)} TimedOut event at version {fired.version} "
            f"(for {names[notice.seat]}); the match is now at version {progress.version}"
        )
        banks = ", ".join(f"bot{c.seat + 1}={c.bank_ms} ms" for c in progress.clocks)
        print(f"  banks left: {banks}")
    return 0 if len(at_version) == 1 else 1


def run_demo(games: list[str], seed: int, lines: int, gateway: str | None = None) -> int:
    """Play every game through `gateway`, or start a stack, play, stop it; returns a process
    exit code."""
    if gateway:
        print(f"Playing through the gateway at {gateway}…")
        failures = play_through(gateway, games, seed, lines)
    else:
        from parlour.launcher import LocalStack, redacted

        services = f"{len(games)} rules service{'s' * (len(games) != 1)}"
        print(f"Starting Redis, {services} and a gateway as separate processes…")
        with LocalStack(games) as stack:
            print(f"gateway {stack.address}; Redis {redacted(stack.redis_url)}")
            failures = play_through(stack.address, games, seed, lines)
        print("\nAll processes stopped.")
    if failures:
        print(f"{failures} match{'es' * (failures != 1)} did not finish!")
    print(HOW_TO_PLAY.format(game=games[0]))
    return 1 if failures else 0


def play_through(address: str, games: list[str], seed: int, lines: int) -> int:
    """Every game's matches, then the timed one; returns how many went wrong."""
    failures = asyncio.run(play_all(address, games, seed, lines))
    return failures + asyncio.run(timer_demo(address, games[0], seed))


HOW_TO_PLAY = """
Now play yourself, against bots or friends:
  in this terminal:  .venv/bin/parlour play {game} --bots 2
  in a browser:      .venv/bin/parlour up    then open the web address it prints
                     (http://127.0.0.1:8080/ unless --web-port says otherwise)
  join a match:      .venv/bin/parlour play --join MATCH --gateway 127.0.0.1:50051
  ratings:           each rated match you finish moves your rating (shown at its end);
                     .venv/bin/parlour leaderboard {game} --gateway 127.0.0.1:50051"""
