"""Full-length games under the real rules, at every seat count (Rulebook: Winning the Game:
"the first player to collect all of their evidence and move back to the Pharmacy"; issue 13
item 1: no round safeguard, escapes and the endgame exercised).

By default (and with PARLOUR_PLAYOUTS at or below the conformance default of 1000) one
seeded random game per seat count and mode is played with the cheap checks, ten per
Automa level (one deep-checked); PARLOUR_PLAYOUTS=N above 1000 plays N/1000 per seat count
and mode (ten times that per Automa level) and adds every deep check of the conformance
suite (refusals, round trips, non-interference, replay) on one game in ten.
"""

from __future__ import annotations

import os

import pytest

from parlour.engine.conformance import play_random
from parlour.games.murdercastle.game import GAME
from parlour.games.murdercastle.setup import MAX_SEATS, MIN_SEATS
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

PLAYOUTS = int(os.environ.get("PARLOUR_PLAYOUTS", "1000"))
GAMES = max(1, PLAYOUTS // 1000)
DEEP = PLAYOUTS > 1000


@pytest.mark.parametrize("second_story", [False, True], ids=["standard", "2nd-story"])
@pytest.mark.parametrize("seats", range(MIN_SEATS, MAX_SEATS + 1))
def test_full_length_games_end_with_an_escape(seats, second_story):
    """Random play, standard or with The 2nd Story, ends only when a player with all their
    evidence is back in the Pharmacy: there is no round limit, and the loop guard is never
    reached."""
    options = pb.Options(second_story=second_story)
    for seed in range(GAMES):
        record = play_random(GAME, options, seats, seed,
                             deep=DEEP and seed % 10 == 0)
        state = record.final
        assert state is not None and state.finished and state.winner
        outcome = GAME.outcome(state)
        assert outcome.winners == (state.winner - 1,)
        assert len(record.actions) < GAME.max_actions


@pytest.mark.parametrize("level", [pb.AUTOMA_LEVEL_BEGINNER, pb.AUTOMA_LEVEL_INTERMEDIATE,
                                   pb.AUTOMA_LEVEL_MENACING])
def test_full_length_automa_games_end_by_an_escape_or_five_strikes(level):
    """Automa at every difficulty, played to the end: the solo player escapes or Holmes wins
    with 5 strikes, an outcome with no winning seat (Rulebook: Automa Winning)."""
    for seed in range(GAMES * 10):
        record = play_random(GAME, pb.Options(automa=level), 1, seed, deep=seed % 10 == 0)
        state = record.final
        assert state is not None and state.finished
        assert bool(state.winner) != state.holmes_won
        assert GAME.outcome(state).winners == ((0,) if state.winner else ())


@pytest.mark.parametrize("seats", range(4, MAX_SEATS + 1))
def test_full_length_play_as_holmes_games_end_by_an_escape_or_the_tracker(seats):
    """Play as Holmes at 4 to 7 seats, the Holmes seat first, last or between, played to the
    end: an investigator escapes or the Holmes Tracker reaches 10 and the Holmes seat wins
    (Rulebook: Play as Holmes Winning)."""
    for seed in range(GAMES * 3):
        holmes = (seed * 2) % seats
        options = pb.Options(play_as_holmes=pb.PlayAsHolmes(seat=holmes))
        record = play_random(GAME, options, seats, seed, deep=seed == 0 or DEEP)
        state = record.final
        assert state is not None and state.finished and state.winner
        outcome = GAME.outcome(state)
        assert outcome.winners == (state.winner - 1,)
        assert state.holmes_won == (state.winner - 1 == holmes)
        assert state.holmes_won == (state.holmes_tracker >= 10)
