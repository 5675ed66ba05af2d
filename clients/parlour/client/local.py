"""Bots playing a whole match in-process (no gRPC): for benchmarks and tests of strategies."""

from __future__ import annotations

from google.protobuf.message import Message

from parlour.client.strategies import Turn, make_strategy
from parlour.engine import LocalMatch
from parlour.engine.game import Game, Outcome
from parlour.engine.sampling import LocalSampler


def play_local(
    game: Game,
    options: Message,
    seed: int,
    strategies: list[str],
    iterations: int = 48,
) -> Outcome:
    """Play one seeded match, strategy i in seat i; each bot sees only its view and samples."""
    match = LocalMatch(game, len(strategies), seed=seed, options=options)
    bots = [
        make_strategy(name, seed * 131 + seat, LocalSampler(game, match, seat), iterations)
        for seat, name in enumerate(strategies)
    ]
    while match.outcome is None:
        seat = match.pending[0].seat
        turn = Turn(game, seat, match.view(seat), match.legal_actions(seat))
        match.act(seat, bots[seat].choose(turn))
    return match.outcome
