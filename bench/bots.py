"""IS-MCTS against random bots, in-process: win rate per game over seeded matches.

    .venv/bin/python -m bench.bots                  # 200 matches per game, both cores (~15 min)
    .venv/bin/python -m bench.bots --matches 40 --games tinycards isayholmes

Each match seats one IS-MCTS bot (seat = match number mod seats) among random bots; the
same seeds are then played with a random bot in that seat. A bot's score in a match is its
share of the win (1/number of winners, 0 for a loss or a match nobody won). Reported per
game: IS-MCTS win rate, the random bot's win rate in the same seats and seeds, and the
difference with a 95% interval (paired by seed).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import time
from pathlib import Path

from parlour.client.local import play_local
from parlour.engine.registry import get_game, playable_games

RESULTS = Path(__file__).parent / "results"
#: Samples per decision per game (the figures in docs/playing.md were measured with these).
ITERATIONS = {"clashofminds": 8, "houseofhorrors": 16, "isayholmes": 64, "murdercastle": 8}
DEFAULT_ITERATIONS = 32


def configuration(game_name: str):
    """The game's first (smallest) test configuration: options and seat count."""
    options, seats = get_game(game_name).test_configurations()[0]
    return options, seats


def share(outcome, seat: int) -> float:
    return 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0


def one_pair(job: tuple[str, int, int]) -> tuple[float, float]:
    """(IS-MCTS bot's share, random bot's share) in the same seat and seed."""
    game_name, seed, iterations = job
    game = get_game(game_name)
    options, seats = configuration(game_name)
    seat = seed % seats
    lineup = ["random"] * seats
    baseline = share(play_local(game, options, seed, lineup), seat)
    lineup[seat] = "ismcts"
    searched = share(play_local(game, options, seed, lineup, iterations), seat)
    return searched, baseline


def run_game(pool, game_name: str, matches: int, iterations: int) -> dict:
    started = time.perf_counter()
    pairs = pool.map(one_pair, [(game_name, s, iterations) for s in range(matches)])
    mcts = [p[0] for p in pairs]
    rand = [p[1] for p in pairs]
    diffs = [a - b for a, b in pairs]
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
        "seconds": time.perf_counter() - started,
    }


def main(argv: list[str] | None = None) -> None:
    top = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    top.add_argument("--games", nargs="*", default=[g.name for g in playable_games()])
    top.add_argument("--matches", type=int, default=200)
    top.add_argument(
        "--iterations",
        type=int,
        help="IS-MCTS samples per decision (default: "
        f"{DEFAULT_ITERATIONS}, or per game {ITERATIONS})",
    )
    top.add_argument("--jobs", type=int, default=2)
    args = top.parse_args(argv)
    rows = []
    print(f"{'game':16} seats  IS-MCTS  random   diff [95%]          s")
    with multiprocessing.Pool(args.jobs) as pool:
        for name in args.games:
            iterations = args.iterations or ITERATIONS.get(name, DEFAULT_ITERATIONS)
            row = run_game(pool, name, args.matches, iterations)
            rows.append(row)
            low, high = row["difference_95"]
            print(
                f"{name:16} {row['seats']:5}  {row['ismcts_win_rate']:7.1%}  "
                f"{row['random_win_rate']:6.1%}  {row['difference']:+.1%} "
                f"[{low:+.1%}, {high:+.1%}]  {row['seconds']:5.0f}",
                flush=True,
            )
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / f"bots-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.write_text(json.dumps(rows, indent=2))
    print(f"results: {out}")


if __name__ == "__main__":
    main()
