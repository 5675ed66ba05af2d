"""The pure game engine runtime: the per-game contract, RNG, zones, registry.

Nothing here imports gRPC or Redis; an embedder can play any registered game
in-process::

    from parlour.engine import LocalMatch
    match = LocalMatch(name, seats=4, seed=7)   # name: a game folder's
    while match.outcome is None:
        decision = match.pending[0]
        match.act(decision.seat, match.legal_actions(decision.seat)[0])
"""

from parlour.engine.game import Decision, Emitted, Game, IllegalAction, InvalidOptions, Outcome
from parlour.engine.local import LocalMatch
from parlour.engine.registry import games, get_game
from parlour.engine.rng import Rng, state_rng
from parlour.engine.runtime import apply, legal_actions, pending, serialize, view

__all__ = [
    "Decision",
    "Emitted",
    "Game",
    "IllegalAction",
    "InvalidOptions",
    "LocalMatch",
    "Outcome",
    "Rng",
    "apply",
    "games",
    "get_game",
    "legal_actions",
    "pending",
    "serialize",
    "state_rng",
    "view",
]
