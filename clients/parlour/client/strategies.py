"""How a bot picks a move: at random, by its game's greedy heuristic, or by IS-MCTS.

A strategy sees what any client sees: its seat, its decoded View and its legal actions.
IS-MCTS also gets a sampler (parlour.engine.sampling) that deals the hidden part afresh.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from google.protobuf.message import Message

from parlour.client import ismcts
from parlour.engine.game import Game
from parlour.engine.rng import Rng

STRATEGIES = ("random", "greedy", "ismcts")


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


class SearchStrategy:
    """IS-MCTS over samples of the hidden part; needs a sampler for the bot's seat."""

    def __init__(self, seed: int, sampler: Callable[[int], Message], iterations: int = 48) -> None:
        self.rng = Rng.from_seed(seed)
        self.sampler = sampler
        self.iterations = iterations

    def choose(self, turn: Turn) -> Message:
        return ismcts.search(
            turn.game, turn.seat, turn.legal, self.sampler, self.rng, self.iterations
        )


def make_strategy(name: str, seed: int, sampler: Callable[[int], Message] | None = None,
                  iterations: int = 48):
    """A strategy by name (see STRATEGIES)."""
    if name == "random":
        return RandomStrategy(seed)
    if name == "greedy":
        return GreedyStrategy(seed)
    if name == "ismcts":
        if sampler is None:
            raise ValueError("ismcts needs a sampler")
        return SearchStrategy(seed, sampler, iterations)
    raise ValueError(f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}")
