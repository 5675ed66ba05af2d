"""How a bot picks a move: at random, by its game's greedy heuristic, by its game's planner
(`purposeful`), or by IS-MCTS.

A strategy sees what any client sees: its seat, its decoded View and its legal actions.
IS-MCTS and the planner also get a sampler (parlour.engine.sampling) that deals the hidden part
afresh. A search's time budget is the bot's own (the rules stay clock-free).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from google.protobuf.message import Message

from parlour.client import ismcts
from parlour.engine.game import Game
from parlour.engine.rng import Rng

STRATEGIES = ("random", "greedy", "purposeful", "ismcts")
#: Seconds an IS-MCTS decision may take before it answers with what it has.
BUDGET = 1.0


@dataclass
class Turn:
    """What a bot knows when it must decide."""

    game: Game
    seat: int
    view: Message
    legal: list[Message]


class RandomStrategy:
    """Any legal move, uniformly."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng.from_seed(seed)

    def choose(self, turn: Turn) -> Message:
        return turn.legal[self.rng.below(len(turn.legal))]


class GreedyStrategy:
    """The game's own heuristic (`parlour.games.<game>.strategy.greedy`)."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng.from_seed(seed)

    def choose(self, turn: Turn) -> Message:
        heuristic = importlib.import_module(f"parlour.games.{turn.game.name}.strategy")
        return heuristic.greedy(turn.view, turn.legal, turn.seat, self.rng)


def _planner(game: Game):
    """The game's planner module (`parlour.games.<game>.planner`), or None."""
    try:
        return importlib.import_module(f"parlour.games.{game.name}.planner")
    except ModuleNotFoundError:
        return None


class PurposefulStrategy:
    """The game's planner (`planner.purposeful`) where it has one, else its greedy heuristic."""

    def __init__(self, seed: int, sampler: Callable[[int], Message]) -> None:
        self.rng = Rng.from_seed(seed)
        self.sampler = sampler
        self.fallback = GreedyStrategy(seed)

    def choose(self, turn: Turn) -> Message:
        planner = _planner(turn.game)
        if planner is None:
            return self.fallback.choose(turn)
        return planner.purposeful(turn.view, turn.legal, turn.seat, self.rng, self.sampler)


class SearchStrategy:
    """IS-MCTS over samples of the hidden part; needs a sampler for the bot's seat. It stops
    after `iterations` samples or `budget` seconds; a game's planner may cut playouts short
    (`ROLLOUT_ACTIONS`) and score where they stop (`playout_rewards`)."""

    def __init__(self, seed: int, sampler: Callable[[int], Message], iterations: int = 48,
                 budget: float | None = BUDGET) -> None:
        self.rng = Rng.from_seed(seed)
        self.sampler = sampler
        self.iterations = iterations
        self.budget = budget

    def choose(self, turn: Turn) -> Message:
        planner = _planner(turn.game)
        cheap = {} if planner is None or not hasattr(planner, "playout_rewards") else {
            "rollout_limit": planner.ROLLOUT_ACTIONS, "evaluate": planner.playout_rewards}
        return ismcts.search(turn.game, turn.seat, turn.legal, self.sampler, self.rng,
                             self.iterations, budget=self.budget, **cheap)


def make_strategy(name: str, seed: int, sampler: Callable[[int], Message] | None = None,
                  iterations: int = 48, budget: float | None = BUDGET):
    """A strategy by name (see STRATEGIES)."""
    if name == "random":
        return RandomStrategy(seed)
    if name == "greedy":
        return GreedyStrategy(seed)
    if name in ("ismcts", "purposeful") and sampler is None:
        raise ValueError(f"{name} needs a sampler")
    if name == "purposeful":
        return PurposefulStrategy(seed, sampler)
    if name == "ismcts":
        return SearchStrategy(seed, sampler, iterations, budget)
    raise ValueError(f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}")
