"""Setup rules: Preparing the Crime, Establishing the Course of Events, the first round."""

from __future__ import annotations

from parlour.engine import runtime
from parlour.games.clashofminds import GAME
from parlour.games.clashofminds.catalogue import CATALOGUE, HOLMES, MORIARTY
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb


def test_moriarty_draws_one_card_of_each_thread():
    """Moriarty draws one Victim, one Felony and one Object card. (Rulebook: Preparing the Crime)"""
    state = GAME.new_state(pb.Options(), 2, seed=3)
    kinds = [CATALOGUE.crime[c].thread for c in state.crime_drawn]
    assert kinds == ["victim", "felony", "object"]
    assert [d.seat for d in GAME.pending(state)] == [MORIARTY]


def test_moriarty_places_the_cards_in_any_order_unseen_by_holmes():
    """Moriarty orders the threads as he wishes; Holmes sees none of them.

    (Rulebook: Preparing the Crime)
    """
    state = GAME.new_state(pb.Options(), 2, seed=3)
    orders = {tuple(a.arrange_crime.order) for a in GAME.legal_actions(state, MORIARTY)}
    assert len(orders) == 6
    chosen = sorted(orders)[-1]
    state, _ = runtime.apply(GAME, state, MORIARTY, pb.Action(
        arrange_crime=pb.ArrangeCrime(order=chosen)))
    assert tuple(t.crime_card for t in state.threads) == chosen
    assert all(t.crime_card == 0 for t in GAME.view(state, HOLMES).threads)
    assert tuple(t.crime_card for t in GAME.view(state, MORIARTY).threads) == chosen


def test_clock_starts_at_twelve_and_the_first_site_adds_its_hours():
    """The Time Marker starts at 12 o'clock; the first site's hours are added; Holmes is First
    Player; both draw 5. (Rulebook: Establishing the Course of Events; Start of the Investigation)
    """
    state = GAME.new_state(pb.Options(), 2, seed=5)
    assert state.hours == 0 and state.first_player == HOLMES
    state, _ = runtime.apply(GAME, state, MORIARTY, GAME.legal_actions(state, MORIARTY)[0])
    assert state.hours == CATALOGUE.sites[state.site].hours
    assert [len(p.hand) for p in state.players] == [5, 5]
    assert state.phase == pb.PHASE_INITIAL_SETUP and state.turn == HOLMES
