"""IS-MCTS against random bots, in-process: win rate per game over seeded matches.

    .venv/bin/python -m bench.bots                  # 200 matches per game, both cores (~15 min)
    .venv/bin/python -m bench.bots --matches 40 --games tinycards isayholmes
    .venv/bin/python -m bench.bots --castle --matches 40    # only Murder Castle's modes (below)

Each match seats one IS-MCTS bot (seat = match number mod seats) among random bots; the
same seeds are then played with a random bot in that seat. A bot's score in a match is its
share of the win (1/number of winners, 0 for a loss or a match nobody won). Reported per
game: IS-MCTS win rate, the random bot's win rate in the same seats and seeds, and the
difference with a 95% interval (paired by seed).

`--castle` prints Murder Castle's win-rate table per mode and difficulty (issue 23), each
with a 95% Wilson interval: the solo player's win rate against Automa at each difficulty, by
the greedy bot and by IS-MCTS; in Play as Holmes, the investigators' win rate (any of them
escaping) with three IS-MCTS investigators (the others greedy) against a greedy Holmes, at 4
and 7 seats, and all-greedy tables for comparison. IS-MCTS's reward counts a seat's place
among the others, which a 1-seat game does not have: in Automa the search scores a playout by
the evidence collected (each colour up to what is needed) against phantom seats, one per
step of that progress, and an escape beats them all. The Automa rows also show a cautious
player written for this bench (`cautious`): in a sample of the hidden decks it looks three of
its own decisions ahead and values evidence, strikes, distance from Holmes and the way home.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import time
from pathlib import Path

from parlour.client import ismcts
from parlour.client.local import play_local
from parlour.client.strategies import Turn, make_strategy
from parlour.engine import LocalMatch
from parlour.engine.game import Outcome
from parlour.engine.registry import get_game, playable_games
from parlour.engine.rng import Rng
from parlour.engine.sampling import LocalSampler

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


# -- Murder Castle's modes (issue 23) ----------------------------------------------------------
class SoloProgress:
    """A 1-seat Murder Castle seen by IS-MCTS as a race against phantom seats: seat 0 scores
    its evidence (each colour up to the needed count), phantom k scores k; escaping scores
    above them all."""

    def __init__(self, game) -> None:
        self._game = game
        self.phantoms = 25

    def __getattr__(self, name: str):
        return getattr(self._game, name)

    def seat_count(self, state) -> int:
        return 1 + self.phantoms

    def outcome(self, state):
        outcome = self._game.outcome(state)
        if outcome is None:
            return None
        from parlour.games.murdercastle.cubes import needed

        board = state.players[0].board
        score = self.phantoms + 1 if 0 in outcome.winners else sum(
            min(n, needed(state)) for n in board.counts)
        return Outcome((score, *range(self.phantoms)), outcome.winners)


def lookahead(game, state, depth: int) -> float:
    """A solo Automa position's worth, looking `depth` of the player's own decisions ahead
    (the bench's cautious player: evidence collected, strikes, distance from Holmes, the way
    home once the board is full)."""
    from parlour.engine.game import copy_message
    from parlour.games.murdercastle import automa
    from parlour.games.murdercastle.board import PHARMACY, place_of
    from parlour.games.murdercastle.cubes import needed

    outcome = game.outcome(state)
    if outcome is not None:
        return 1000.0 if 0 in outcome.winners else -1000.0
    if depth:
        legal = game.legal_actions(state, 0)
        best = -1e9
        for action in legal:
            child = copy_message(state)
            game.apply(child, 0, action)
            best = max(best, lookahead(game, child, depth - 1))
        return best
    player = state.players[0]
    need = needed(state)
    progress = sum(min(n, need) for n in player.board.counts)
    far = automa.distances(state)
    away = min(far.get(state.holmes, 6), 4)
    worth = 4 * progress - 8 * player.strikes + 2 * away
    if progress == 5 * need:
        worth += 50 - 5 * far.get(place_of(PHARMACY), 10)
    return worth


def cautious(game, match, seat: int, legal: list, rng: Rng, depth: int = 3):
    """The move whose position, `depth` own decisions on, is worth most in a sample."""
    from parlour.engine.game import copy_message

    sample = LocalSampler(game, match, seat)(rng.next64())
    scored = []
    for action in legal:
        child = copy_message(sample)
        game.apply(child, seat, action)
        scored.append((lookahead(game, child, depth - 1), rng.next64(), action))
    return max(scored, key=lambda s: (s[0], s[1]))[2]


def castle_match(job: tuple[str, int, int, int, tuple[str, ...]]) -> bool:
    """One seeded match of a mode; True when a player (not Holmes) won."""
    mode, level_or_seats, seed, iterations, lineup = job
    from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

    game = get_game("murdercastle")
    if mode == "automa":
        options, seats = pb.Options(automa=level_or_seats), 1
    else:
        seats = level_or_seats
        options = pb.Options(play_as_holmes=pb.PlayAsHolmes(seat=seats - 1))
    match = LocalMatch(game, seats, seed=seed, options=options)
    searched = SoloProgress(game) if seats == 1 else game
    rngs = [Rng.from_seed(seed * 131 + s) for s in range(seats)]
    bots = [make_strategy("greedy" if name in ("ismcts", "cautious") else name, seed * 131 + s)
            for s, name in enumerate(lineup)]
    while match.outcome is None:
        seat = match.pending[0].seat
        legal = match.legal_actions(seat)
        if lineup[seat] == "cautious":
            move = cautious(game, match, seat, legal, rngs[seat])
        elif lineup[seat] == "ismcts":
            move = ismcts.search(searched, seat, legal, LocalSampler(game, match, seat),
                                 rngs[seat], iterations)
        else:
            move = bots[seat].choose(Turn(game, seat, match.view(seat), legal))
        match.act(seat, move)
    holmes = seats - 1 if mode == "holmes" else None
    return any(w != holmes for w in match.outcome.winners)


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate."""
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def castle_cells(matches: int, iterations: int, searched: int,
                 holmes_iterations: int) -> list[tuple[str, str, list]]:
    """The table's rows: a title, the players and the jobs of its matches (`searched` matches
    in the IS-MCTS rows, which are slow; Play as Holmes searches `holmes_iterations`)."""
    cells = []
    for level, name in ((1, "Beginner"), (2, "Intermediate"), (3, "Menacing")):
        for bot in ("random", "greedy", "cautious", "ismcts"):
            cells.append((f"Automa {name}", bot,
                          [("automa", level, s, iterations, (bot,))
                           for s in range(matches if bot in ("random", "greedy") else searched)]))
    for seats in (4, 7):
        for who in ("greedy", "ismcts"):
            lineup = tuple(["ismcts" if who == "ismcts" and s < 3 else "greedy"
                            for s in range(seats - 1)] + ["greedy"])
            cells.append((f"Play as Holmes {seats} seats",
                          "3 IS-MCTS + greedy vs greedy Holmes" if who == "ismcts"
                          else "greedy vs greedy Holmes",
                          [("holmes", seats, s, holmes_iterations, lineup)
                           for s in range(searched // 5 if who == "ismcts" else matches)]))
    return sorted(cells, key=lambda c: "IS-MCTS" in c[1] or c[1] == "ismcts")  # quick rows first


def castle_table(matches: int, iterations: int, jobs: int, searched: int,
                 holmes_iterations: int) -> list[dict]:
    """Print and return Murder Castle's win rates per mode and difficulty."""
    rows = []
    print(f"{'mode':28} {'players':38} games  wins  rate   [95%]          s")
    with multiprocessing.Pool(jobs) as pool:
        for title, players, cell in castle_cells(matches, iterations, searched,
                                                 holmes_iterations):
            started = time.perf_counter()
            wins = sum(pool.map(castle_match, cell))
            low, high = wilson(wins, len(cell))
            row = {"mode": title, "players": players, "games": len(cell), "wins": wins,
                   "iterations": cell[0][3], "interval_95": [low, high],
                   "seconds": time.perf_counter() - started}
            rows.append(row)
            print(f"{title:28} {players:38} {len(cell):5} {wins:5} {wins / len(cell):5.0%}  "
                  f"[{low:.0%}, {high:.0%}]  {row['seconds']:5.0f}", flush=True)
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
    top.add_argument("--castle-matches", type=int, default=40,
                     help="matches per row of Murder Castle's table (default 40; --castle: "
                     "--matches)")
    top.add_argument("--searched", type=int, default=20,
                     help="matches per IS-MCTS row of Murder Castle's table (Play as Holmes: "
                     "a fifth of it)")
    top.add_argument("--holmes-iterations", type=int, default=2,
                     help="--castle: IS-MCTS samples per decision in Play as Holmes")
    args = top.parse_args(argv)
    RESULTS.mkdir(exist_ok=True)
    if args.castle:
        write_castle(args.matches, args)
        return
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
    out = RESULTS / f"bots-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.write_text(json.dumps(rows, indent=2))
    print(f"results: {out}")
    if "murdercastle" in args.games:
        write_castle(args.castle_matches, args)


def write_castle(matches: int, args: argparse.Namespace) -> None:
    """Print Murder Castle's table and keep it in bench/results."""
    rows = castle_table(matches, args.iterations or ITERATIONS["murdercastle"], args.jobs,
                        args.searched, args.holmes_iterations)
    out = RESULTS / f"castle-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.write_text(json.dumps(rows, indent=2))
    print(f"results: {out}")


if __name__ == "__main__":
    main()
