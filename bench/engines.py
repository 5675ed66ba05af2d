"""In-process speed of every game's rules: random games through the runtime, no gRPC or Redis.

    .venv/bin/python -m bench.engines [--seconds 2]

For each game and seat count it plays seeded random games for about
`--seconds` and reports games/s and actions/s (apply runs on a copy, as the
rules service does). Results go to bench/results/engines-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
from pathlib import Path

from parlour.engine.registry import games
from parlour.engine.simulate import simulate

RESULTS = Path(__file__).resolve().parent / "results"


def measure(game, seats: int, seconds: float) -> dict:
    """Play batches of games until `seconds` have passed."""
    played = actions = 0
    spent = 0.0
    batch = 1
    while spent < seconds:
        report = simulate(game, seats, batch, seed=played)
        played += report.games
        actions += report.actions
        spent += report.seconds
        batch = min(batch * 2, 256)
    return {
        "game": game.name,
        "seats": seats,
        "games": played,
        "actions": actions,
        "seconds": round(spent, 3),
        "games_per_s": round(played / spent, 1),
        "actions_per_s": round(actions / spent),
        "actions_per_game": round(actions / played, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per game and seat count")
    args = parser.parse_args()
    rows = [
        measure(game, seats, args.seconds)
        for name, game in sorted(games().items())
        for seats in range(game.min_seats, game.max_seats + 1)
    ]
    print(f"{'game':<16}{'seats':>6}{'games/s':>10}{'actions/s':>11}{'actions/game':>14}")
    for row in rows:
        print(
            f"{row['game']:<16}{row['seats']:>6}{row['games_per_s']:>10}"
            f"{row['actions_per_s']:>11}{row['actions_per_game']:>14}"
        )
    RESULTS.mkdir(exist_ok=True)
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = RESULTS / f"engines-{stamp}.json"
    path.write_text(json.dumps(rows, indent=2))
    print(f"results: {path}")


if __name__ == "__main__":
    main()
