"""Issue 32 item 3: a purposeful player can win the Automa. The planner plays a seeded
Beginner game from its own view and samples only, and escapes with all the evidence (Rulebook:
Automa Winning: "You must collect all of your evidence and move back to the Pharmacy")."""

from __future__ import annotations

from parlour.engine import LocalMatch
from parlour.engine.rng import Rng
from parlour.engine.sampling import LocalSampler
from parlour.games.murdercastle import planner
from parlour.games.murdercastle.board import PHARMACY, place_of
from parlour.games.murdercastle.cubes import needed
from parlour.games.murdercastle.game import GAME
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

#: A seed the planner wins in about twenty rounds (issue 32).
SEED = 3


def test_issue32_a_seeded_purposeful_automa_beginner_game_is_won(monkeypatch):
    monkeypatch.setattr(planner, "BUDGET", 1e9)  # no clock: the same game on any machine
    match = LocalMatch(GAME, 1, seed=SEED, options=pb.Options(automa=pb.AUTOMA_LEVEL_BEGINNER))
    rng = Rng.from_seed(SEED * 131)
    sample = LocalSampler(GAME, match, 0)
    while match.outcome is None and match.state.round < 60:
        legal = match.legal_actions(0)
        match.act(0, planner.purposeful(match.view(0), legal, 0, rng, sample))
    assert match.outcome is not None and match.outcome.winners == (0,)
    player = match.state.players[0]
    assert player.place == place_of(PHARMACY) and player.strikes < 5
    assert all(n >= needed(match.state) for n in player.board.counts)


def test_issue32_the_planner_scores_an_escape_above_everything_and_a_loss_below():
    state = GAME.new_state(pb.Options(automa=pb.AUTOMA_LEVEL_BEGINNER), 1, SEED)
    middle = planner.worth(state, 0)
    state.finished, state.winner = True, 1
    assert planner.worth(state, 0) > middle
    state.winner, state.holmes_won = 0, True
    assert planner.worth(state, 0) < middle
    assert planner.playout_rewards(state) == [0.0]
