"""Bots against each other, in-process (no gRPC): win rates over seeded matches, and how
long every bot decision takes.

    .venv/bin/python -m bench.bots                  # every game, then Murder Castle's table
    .venv/bin/python -m bench.bots --matches 40 --games tinycards isayholmes
    .venv/bin/python -m bench.bots --castle --matches 200    # only Murder Castle's table
    .venv/bin/python -m bench.bots --castle --quick          # every row once, short games
    .venv/bin/python -m bench.bots --trace 1 --matches 20    # Automa strikes, one by one

Per game: each match seats one IS-MCTS bot (seat = match number mod seats) among random bots;
the same seeds are then played with a random bot in that seat. A bot's score in a match is its
share of the win (1/number of winners, 0 for a loss or a match nobody won). Reported: IS-MCTS
win rate, the random bot's in the same seats and seeds, and the difference with a 95%
interval (paired by seed).

`--castle` prints Murder Castle's win-rate table (issues 23 and 32), each row with a 95%
Wilson interval: the solo player's win rate against Automa at each difficulty (greedy,
purposeful, IS-MCTS); in Play as Holmes the investigators' (any of them escaping) against a
greedy Holmes at 4 and 7 seats. IS-MCTS rows (3 rounds each) are there for its decision
times only: a whole game is hundreds of searches. The purposeful player is the game's planner
(`parlour.games.murdercastle.planner`). IS-MCTS searches with its time budget and the
planner's cheap playouts (`parlour.client.strategies.SearchStrategy`).

Every table also reports the bots' decision times, per bot kind and game: the slowest
decision and the 99th percentile, in seconds (the bar is 2 s on the project's machine).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import time
from collections import defaultdict
from pathlib import Path

from parlour.client.strategies import Turn, make_strategy
from parlour.engine import LocalMatch
from parlour.engine.registry import get_game, playable_games
from parlour.engine.sampling import LocalSampler

RESULTS = Path(__file__).parent / "results"
#: Samples per decision per game (the figures in docs/playing.md were measured with these).
ITERATIONS = {"clashofminds": 8, "houseofhorrors": 16, "isayholmes": 64, "murdercastle": 8}
DEFAULT_ITERATIONS = 32
#: Rounds after which a Murder Castle match of the table counts as lost (a safeguard of the
#: bench, not a rule; reported when it happens).
ROUND_CAP = 200


def configuration(game_name: str):
    """The game's first (smallest) test configuration: options and seat count."""
    options, seats = get_game(game_name).test_configurations()[0]
    return options, seats


def share(outcome, seat: int) -> float:
    return 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0


def play_timed(game, options, seats: int, seed: int, lineup: list[str], iterations: int,
               round_cap: int = 0):
    """Play one seeded match, bot kind lineup[i] in seat i (each sees only its view and
    samples); returns the match and every decision's seconds per bot kind."""
    match = LocalMatch(game, seats, seed=seed, options=options)
    bots = [make_strategy(name, seed * 131 + seat, LocalSampler(game, match, seat), iterations)
            for seat, name in enumerate(lineup)]
    times: dict[str, list[float]] = defaultdict(list)
    while match.outcome is None:
        if round_cap and match.state.round >= round_cap:
            break
        seat = match.pending[0].seat
        legal = match.legal_actions(seat)
        started = time.perf_counter()
        action = bots[seat].choose(Turn(game, seat, match.view(seat), legal))
        if len(legal) > 1:
            times[lineup[seat]].append(time.perf_counter() - started)
        match.act(seat, action)
    return match, dict(times)


def one_pair(job: tuple[str, int, int]) -> tuple[float, float, dict]:
    """(IS-MCTS bot's share, random bot's share, decision times) in the same seat and seed."""
    game_name, seed, iterations = job
    game = get_game(game_name)
    options, seats = configuration(game_name)
    seat = seed % seats
    lineup = ["random"] * seats
    baseline, _ = play_timed(game, options, seats, seed, lineup, iterations)
    lineup[seat] = "ismcts"
    searched, times = play_timed(game, options, seats, seed, lineup, iterations)
    return share(searched.outcome, seat), share(baseline.outcome, seat), times


def timing(times: list[dict]) -> dict:
    """The slowest decision and the 99th percentile per bot kind, in seconds."""
    pooled: dict[str, list[float]] = defaultdict(list)
    for t in times:
        for kind, seconds in t.items():
            pooled[kind].extend(seconds)
    out = {}
    for kind, seconds in sorted(pooled.items()):
        seconds.sort()
        out[kind] = {"decisions": len(seconds), "max_s": seconds[-1],
                     "p99_s": seconds[min(len(seconds) - 1, int(0.99 * len(seconds)))]}
    return out


def timing_text(timed: dict) -> str:
    return "  ".join(f"{k} max {v['max_s']:.2f} p99 {v['p99_s']:.2f}" for k, v in timed.items())


def run_game(pool, game_name: str, matches: int, iterations: int) -> dict:
    started = time.perf_counter()
    pairs = pool.map(one_pair, [(game_name, s, iterations) for s in range(matches)])
    mcts = [p[0] for p in pairs]
    rand = [p[1] for p in pairs]
    diffs = [a - b for a, b, _ in pairs]
    mean = sum(diffs) / matches
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, matches - 1))
    half = 1.96 * sd / math.sqrt(matches)
    _, seats = configuration(game_name)
    return {
        "game": game_name,
        "seats": seats,
        "matches": matches,
        "iterations": iterations,
        "ismcts_win_rate": sum(mcts) / matches,
        "random_win_rate": sum(rand) / matches,
        "difference": mean,
        "difference_95": [mean - half, mean + half],
        "decision_seconds": timing([p[2] for p in pairs]),
        "seconds": time.perf_counter() - started,
    }


# -- Murder Castle's modes (issues 23 and 32) --------------------------------------------------
def castle_match(job: tuple[str, int, int, int, tuple[str, ...], int]
                 ) -> tuple[bool, dict, bool, int]:
    """One seeded match of a mode: (a player, not Holmes, won; decision times; capped;
    rounds played)."""
    mode, level_or_seats, seed, iterations, lineup, round_limit = job
    from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

    game = get_game("murdercastle")
    if mode == "automa":
        options, seats = pb.Options(automa=level_or_seats, round_limit=round_limit), 1
    else:
        seats = level_or_seats
        options = pb.Options(play_as_holmes=pb.PlayAsHolmes(seat=seats - 1),
                             round_limit=round_limit)
    match, times = play_timed(game, options, seats, seed, list(lineup), iterations, ROUND_CAP)
    rounds = match.state.round
    if match.outcome is None:
        return False, times, True, rounds
    holmes = seats - 1 if mode == "holmes" else None
    won = any(w != holmes for w in match.outcome.winners) and not match.state.options.round_limit
    return won, times, False, rounds


def strike_trace(level: int, seeds: range, bot: str = "purposeful") -> list[dict]:
    """Every Holmes Strikes! of seeded Automa games (issue 32): the round, what moved Holmes
    last (a Holmes' Movement Card, an Automa card, an Event Card), the rooms he walked
    through, where the player stood and how far Holmes was when the round's actions ended."""
    from parlour.games.murdercastle.board import place_name
    from parlour.games.murdercastle.catalogue import catalogue
    from parlour.games.murdercastle.modes import automa
    from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

    game = get_game("murdercastle")
    found = []
    for seed in seeds:
        match = LocalMatch(game, 1, seed=seed, options=pb.Options(automa=level))
        player = make_strategy(bot, seed * 131, LocalSampler(game, match, 0))
        cause, path, far = "", [], match.state.holmes
        while match.outcome is None:
            legal = match.legal_actions(0)
            action = player.choose(Turn(game, 0, match.view(0), legal))
            at = match.state.holmes
            for emitted in match.act(0, action):
                event = emitted.event
                kind = event.WhichOneof("kind")
                if kind in ("holmes_card", "automa", "played"):
                    if kind == "holmes_card":
                        card = catalogue().movement[event.holmes_card.card]
                        cause = f"movement {card.special or list(card.rooms)}"
                        far = at
                    elif kind == "automa":
                        cause = "automa " + automa.data().cards[event.automa.card].kind
                    else:
                        cause = "event " + catalogue().events[event.played.card].kind
                    path = []
                elif kind == "holmes_moved":
                    at = event.holmes_moved.to_place
                    path.append(place_name(at))
                elif kind == "struck":
                    found.append({"seed": seed, "round": match.state.round, "cause": cause,
                                  "path": list(path),
                                  "distance": automa.distances(match.state).get(far),
                                  "room": place_name(match.state.players[0].place),
                                  "strikes": event.struck.strikes})
        found.append({"seed": seed, "won": bool(match.outcome.winners),
                      "rounds": match.state.round})
    return found



def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate."""
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def castle_cells(matches: int, iterations: int, searched: int,
                 round_limit: int = 0) -> list[tuple[str, str, list]]:
    """The table's rows: a title, the players and the jobs of its matches (`round_limit` only
    for the quick run). IS-MCTS rows come last and play `searched` matches of 3 rounds, for
    their decision times only: a whole game is hundreds of searches."""
    cells, timed = [], []
    for level, name in ((1, "Beginner"), (2, "Intermediate"), (3, "Menacing")):
        for bot in ("greedy", "purposeful"):
            cells.append((f"Automa {name}", bot,
                          [("automa", level, s, iterations, (bot,), round_limit)
                           for s in range(matches)]))
        timed.append((f"Automa {name}", "ismcts (timing: 3 rounds)",
                      [("automa", level, s, iterations, ("ismcts",), round_limit or 3)
                       for s in range(searched)]))
    for seats in (4, 7):
        for who in ("greedy", "purposeful"):
            lineup = tuple([who] * (seats - 1) + ["greedy"])
            cells.append((f"Play as Holmes {seats} seats", f"{who} vs greedy Holmes",
                          [("holmes", seats, s, iterations, lineup, round_limit)
                           for s in range(matches)]))
        lineup = tuple(["ismcts"] * (seats - 1) + ["greedy"])
        timed.append((f"Play as Holmes {seats} seats", "ismcts (timing: 3 rounds)",
                      [("holmes", seats, s, iterations, lineup, round_limit or 3)
                       for s in range(searched)]))
    return cells + timed


def castle_table(matches: int, iterations: int, jobs: int, searched: int,
                 round_limit: int = 0) -> list[dict]:
    """Print and return Murder Castle's win rates per mode and difficulty, with the bots'
    decision times."""
    rows = []
    print(f"{'mode':26} {'players':28} games  wins  rate   [95%]        capped rounds      s  "
          "decision seconds")
    with multiprocessing.Pool(jobs) as pool:
        for title, players, cell in castle_cells(matches, iterations, searched, round_limit):
            started = time.perf_counter()
            results = pool.map(castle_match, cell)
            wins = sum(r[0] for r in results)
            capped = sum(r[2] for r in results)
            low, high = wilson(wins, len(cell))
            timed = timing([r[1] for r in results])
            rounds = sum(r[3] for r in results) / len(results)
            row = {"mode": title, "players": players, "games": len(cell), "wins": wins,
                   "iterations": cell[0][3], "interval_95": [low, high], "capped": capped,
                   "mean_rounds": rounds, "decision_seconds": timed,
                   "seconds": time.perf_counter() - started}
            rows.append(row)
            print(f"{title:26} {players:28} {len(cell):5} {wins:5} {wins / len(cell):5.0%}  "
                  f"[{low:.0%}, {high:.0%}]  {capped:6} {rounds:6.1f} {row['seconds']:6.0f}  "
                  f"{timing_text(timed)}", flush=True)
    return rows


def main(argv: list[str] | None = None) -> None:
    top = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    top.add_argument("--games", nargs="*", default=[g.name for g in playable_games()])
    top.add_argument("--matches", type=int, default=200)
    top.add_argument("--iterations", type=int, help="IS-MCTS samples per decision (default: "
                     f"{DEFAULT_ITERATIONS}, or per game {ITERATIONS})")
    top.add_argument("--jobs", type=int, default=2)
    top.add_argument("--castle", action="store_true",
                     help="only Murder Castle's win-rate table per mode and difficulty (also "
                     "printed after the per-game table when murdercastle is among --games)")
    top.add_argument("--castle-matches", type=int, default=200,
                     help="matches per row of Murder Castle's table (default 200; --castle: "
                     "--matches)")
    top.add_argument("--searched", type=int, default=4,
                     help="matches per IS-MCTS row of Murder Castle's table")
    top.add_argument("--quick", action="store_true",
                     help="every path once: 1 match per row, 1 sample per search, Murder "
                     "Castle's matches cut to 1 round")
    top.add_argument("--trace", type=int, metavar="LEVEL",
                     help="print every strike of --matches purposeful Automa games at LEVEL")
    args = top.parse_args(argv)
    RESULTS.mkdir(exist_ok=True)
    if args.trace:
        print_trace(args.trace, args.matches)
        return
    if args.quick:
        args.matches = args.castle_matches = args.searched = args.iterations = 1
    if args.castle:
        write_castle(args.matches, args)
        return
    rows = []
    print(f"{'game':16} seats  IS-MCTS  random   diff [95%]          s  decision seconds")
    with multiprocessing.Pool(args.jobs) as pool:
        for name in args.games:
            iterations = args.iterations or ITERATIONS.get(name, DEFAULT_ITERATIONS)
            row = run_game(pool, name, args.matches, iterations)
            rows.append(row)
            low, high = row["difference_95"]
            print(
                f"{name:16} {row['seats']:5}  {row['ismcts_win_rate']:7.1%}  "
                f"{row['random_win_rate']:6.1%}  {row['difference']:+.1%} "
                f"[{low:+.1%}, {high:+.1%}]  {row['seconds']:5.0f}  "
                f"{timing_text(row['decision_seconds'])}",
                flush=True,
            )
    out = RESULTS / f"bots-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.write_text(json.dumps(rows, indent=2))
    print(f"results: {out}")
    if "murdercastle" in args.games:
        write_castle(args.castle_matches, args)


def write_castle(matches: int, args: argparse.Namespace) -> None:
    """Print Murder Castle's table and keep it in bench/results."""
    rows = castle_table(matches, args.iterations or ITERATIONS["murdercastle"], args.jobs,
                        args.searched, 1 if args.quick else 0)
    out = RESULTS / f"castle-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.write_text(json.dumps(rows, indent=2))
    print(f"results: {out}")


def print_trace(level: int, matches: int) -> None:
    """Print every strike of seeded purposeful Automa games, then a summary."""
    from collections import Counter

    rows = strike_trace(level, range(matches))
    strikes = [r for r in rows if "cause" in r]
    for r in rows:
        print(json.dumps(r))
    games = [r for r in rows if "won" in r]
    print(f"{len(games)} games, {sum(g['won'] for g in games)} won, {len(strikes)} strikes")
    print("by cause:", Counter(r["cause"].split(" [")[0] for r in strikes).most_common())
    print("by distance when the round's actions ended:",
          sorted(Counter(r["distance"] for r in strikes).items(), key=str))


if __name__ == "__main__":
    main()
