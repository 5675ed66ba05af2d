"""Seeded random matches in-process (no gRPC, no Redis): `steps()` walks one, action by
action, for every loop that plays one (conformance, playthroughs, word tests, this module's
speed report)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from google.protobuf.message import Message

from parlour.engine import runtime
from parlour.engine.game import Decision, Emitted, Game
from parlour.engine.rng import Rng


@dataclass(frozen=True)
class Step:
    """One action of a match: the position before it and who owed what, the seat that
    acted, its legal actions and the index of the one chosen, the position after it and
    the events it emitted. `before` is left as it was (actions apply to a copy)."""

    number: int
    before: Message
    decisions: list[Decision]
    seat: int
    actions: list[Message]
    chosen: int
    after: Message
    events: list[Emitted]

    @property
    def action(self) -> Message:
        return self.actions[self.chosen]


def steps(
    game: Game,
    state: Message,
    chooser: Rng,
    *,
    first_seat: bool = False,
    legal: Callable[[Game, Message, int], list[Message]] = runtime.legal_actions,
) -> Iterator[Step]:
    """Play from `state` until nobody owes a decision or `game.max_actions` actions have
    been taken. Each step the chooser picks one of the seats that owe a decision (the first
    one listed with `first_seat`), then one of its `legal` actions."""
    for number in range(1, game.max_actions + 1):
        decisions = runtime.pending(game, state)
        if not decisions:
            return
        if first_seat:
            seat = decisions[0].seat
        else:
            seats = sorted({d.seat for d in decisions})
            seat = seats[chooser.below(len(seats))]
        actions = legal(game, state, seat)
        chosen = chooser.below(len(actions))
        after, events = runtime.apply(game, state, seat, actions[chosen])
        yield Step(number, state, decisions, seat, actions, chosen, after, events)
        state = after


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
        state = game.new_state(options, seats, seed + i)
        actions += sum(1 for _ in steps(game, state, Rng.from_seed(seed + i)))
    return SimulationReport(game.name, seats, games, actions, time.perf_counter() - started)
