"""Issue 12 item 1: IS-MCTS plays better than random (a small seeded check; the full
comparison over 200 matches per game is bench/bots.py)."""

from __future__ import annotations

from parlour.client.local import play_local
from parlour.engine.registry import get_game

MATCHES = 40


def share(outcome, seat):
    return 1 / len(outcome.winners) if seat in outcome.winners else 0.0


def test_ismcts_wins_tiny_cards_more_often_than_random_in_its_seat():
    """Issue 12 item 1: same seeds and seats, IS-MCTS in one seat against random bots."""
    game = get_game("tinycards")
    options = game.default_options(2)
    searched = baseline = 0.0
    for seed in range(MATCHES):
        seat = seed % 2
        lineup = ["random", "random"]
        baseline += share(play_local(game, options, seed, lineup), seat)
        lineup[seat] = "ismcts"
        searched += share(play_local(game, options, seed, lineup, iterations=16), seat)
    assert searched > baseline + 0.1 * MATCHES
