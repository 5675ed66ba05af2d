"""Issue 32 item 4: a search answers in time. IS-MCTS stops at its time budget (after at least
one sample) and scores playouts cut short with the game's evaluation; Murder Castle's planner
gives both strategies what they need. No timing is asserted (the bench measures it)."""

from __future__ import annotations

from parlour.client import ismcts
from parlour.client.strategies import STRATEGIES, Turn, make_strategy
from parlour.engine import LocalMatch
from parlour.engine.registry import get_game
from parlour.engine.rng import Rng
from parlour.engine.sampling import LocalSampler


def tiny_match():
    game = get_game("tinycards")
    return game, LocalMatch(game, 2, seed=7, options=game.default_options(2))


def test_issue32_a_spent_budget_stops_the_search_after_one_sample():
    game, match = tiny_match()
    seat = match.pending[0].seat
    sampler = LocalSampler(game, match, seat)
    drawn = []

    def counting(seed):
        drawn.append(seed)
        return sampler(seed)

    legal = match.legal_actions(seat)
    assert len(legal) > 1
    ismcts.search(game, seat, legal, counting, Rng.from_seed(1), iterations=50, budget=0.0)
    assert len(drawn) == 1
    ismcts.search(game, seat, legal, counting, Rng.from_seed(1), iterations=5)
    assert len(drawn) == 6


def test_issue32_playouts_cut_short_are_scored_by_the_evaluation():
    game, match = tiny_match()
    seat = match.pending[0].seat
    scored = []

    def evaluate(state):
        scored.append(game.outcome(state))
        return [0.5] * game.seat_count(state)

    ismcts.search(game, seat, match.legal_actions(seat), LocalSampler(game, match, seat),
                  Rng.from_seed(2), iterations=4, rollout_limit=0, evaluate=evaluate)
    assert len(scored) == 4 and all(o is None for o in scored)


def test_issue32_purposeful_is_a_bot_kind_and_falls_back_to_greedy_without_a_planner():
    assert "purposeful" in STRATEGIES
    game, match = tiny_match()
    seat = match.pending[0].seat
    bot = make_strategy("purposeful", 3, LocalSampler(game, match, seat))
    turn = Turn(game, seat, match.view(seat), match.legal_actions(seat))
    greedy = make_strategy("greedy", 3)
    assert bot.choose(turn) == greedy.choose(turn)
