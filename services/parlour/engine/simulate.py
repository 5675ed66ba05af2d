"""Play seeded random games in-process and measure their speed (no gRPC, no Redis)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from parlour.engine import runtime
from parlour.engine.game import Game
from parlour.engine.rng import Rng


@dataclass
class SimulationReport:
    """Games played, actions taken and the time it took."""

    game: str
    seats: int
    games: int
    actions: int
    seconds: float

    def summary(self) -> str:
        return (
            f"{self.game} ({self.seats} seats): {self.games} games, {self.actions} actions in "
            f"{self.seconds:.2f}s = {self.games / self.seconds:.1f} games/s, "
            f"{self.actions / self.seconds:.0f} actions/s"
        )


def simulate(game: Game, seats: int, games: int, seed: int = 0, options=None) -> SimulationReport:
    """Play `games` random games with the runtime's checks (apply on a copy, as served)."""
    options = options if options is not None else game.default_options(seats)
    actions = 0
    started = time.perf_counter()
    for i in range(games):
        chooser = Rng.from_seed(seed + i)
        state = game.new_state(options, seats, seed + i)
        while decisions := runtime.pending(game, state):
            seat = decisions[chooser.below(len(decisions))].seat
            legal = runtime.legal_actions(game, state, seat)
            state, _ = runtime.apply(game, state, seat, legal[chooser.below(len(legal))])
            actions += 1
    return SimulationReport(game.name, seats, games, actions, time.perf_counter() - started)
