"""Issue 12 item 1: IS-MCTS samples hidden information without learning the hidden truth.

Non-interference, statistically: take a position and a twin the seat cannot tell apart
(same view, different hidden part). Samples drawn from either must agree with the truth's
hidden part equally often; a sampler that leaked would agree more often with its own input.
The same statistic is shown to catch a leaking sampler, so the test can fail.
"""

from __future__ import annotations

import collections
import math

import pytest
from google.protobuf import text_format

from parlour.engine import LocalMatch, runtime
from parlour.engine.game import copy_message
from parlour.engine.registry import games
from parlour.engine.rng import Rng
from parlour.engine.sampling import sample_hidden

SAMPLES = 200
GAMES = sorted(games())


def position(name: str):
    """A seeded mid-game position, a seat owing a decision, and its indistinguishable twin."""
    game = games()[name]
    options, seats = game.test_configurations()[0]
    for seed in range(50):
        match = LocalMatch(game, seats, seed=seed, options=options)
        rng = Rng.from_seed(seed)
        for _ in range(12):
            if match.outcome is not None:
                break
            seat = match.pending[0].seat
            moves = match.legal_actions(seat)
            match.act(seat, moves[rng.below(len(moves))])
        if match.outcome is not None:
            continue
        seat = match.pending[0].seat
        twin = game.resample_hidden(match.state, seat, Rng.from_seed(99))
        full = agreement(game, match.state, match.state, seat)
        if agreement(game, match.state, twin, seat) < full:
            return game, match.state, twin, seat
    raise AssertionError(f"{name}: no position with a hidden part found")


def others_lines(game, state, seat) -> collections.Counter:
    """What the other seats see, as text lines: the hidden part from `seat`'s side."""
    lines: collections.Counter = collections.Counter()
    for other in range(game.seat_count(state)):
        if other != seat:
            text = text_format.MessageToString(runtime.view(game, state, other))
            lines.update(f"{other}:{line}" for line in text.splitlines())
    return lines


def agreement(game, truth, sample, seat) -> int:
    """How many lines of the other seats' views the sample shares with the truth."""
    return sum((others_lines(game, truth, seat) & others_lines(game, sample, seat)).values())


def mean_agreement(game, truth, source, seat, sampler) -> tuple[float, float]:
    scores = [agreement(game, truth, sampler(source, i), seat) for i in range(SAMPLES)]
    mean = sum(scores) / SAMPLES
    var = sum((s - mean) ** 2 for s in scores) / (SAMPLES - 1)
    return mean, var


def leaks(game, truth, twin, seat, sampler) -> bool:
    """True when samples from the truth agree with it measurably more than samples from the twin."""
    m1, v1 = mean_agreement(game, truth, truth, seat, sampler)
    m2, v2 = mean_agreement(game, truth, twin, seat, sampler)
    se = math.sqrt((v1 + v2) / SAMPLES) or 1e-9
    return abs(m1 - m2) > 4 * se


@pytest.mark.parametrize("name", GAMES)
def test_samples_do_not_depend_on_the_hidden_truth(name):
    """Issue 12 item 1: information-set samples are independent of what the seat cannot see."""
    game, truth, twin, seat = position(name)
    assert runtime.serialize(runtime.view(game, truth, seat)) == runtime.serialize(
        runtime.view(game, twin, seat)
    )

    def honest(state, i):
        return sample_hidden(game, state, seat, i)

    assert not leaks(game, truth, twin, seat, honest)


@pytest.mark.parametrize("name", GAMES)
def test_the_statistic_catches_a_leaking_sampler(name):
    """Issue 12 item 1: the non-interference statistic can fail (a sampler keeping the truth)."""
    game, truth, twin, seat = position(name)

    def leaky(state, i):
        keep = Rng.from_seed(i).below(2)
        return copy_message(state) if keep else sample_hidden(game, state, seat, i)

    assert leaks(game, truth, twin, seat, leaky)


@pytest.mark.parametrize("name", GAMES)
def test_a_sample_keeps_the_view_and_replaces_the_rng(name):
    """Issue 12 item 1: a sample looks the same to the seat; its RNG word comes from the seed."""
    game, truth, twin, seat = position(name)
    a = sample_hidden(game, truth, seat, 7)
    b = sample_hidden(game, twin, seat, 7)
    assert runtime.view(game, a, seat) == runtime.view(game, truth, seat)
    assert a.rng == b.rng != truth.rng
