"""Setup rules: Preparing the Crime, Establishing the Course of Events, the first round."""

from __future__ import annotations

from parlour.engine import runtime
from parlour.games.clashofminds import GAME
from parlour.games.clashofminds.catalogue import CATALOGUE, HOLMES, MORIARTY
from parlour.games.clashofminds.table import hand_target
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
    targets = [hand_target(state, seat, initiating=True) for seat in (HOLMES, MORIARTY)]
    assert [len(p.hand) for p in state.players] == targets == [5, 5]
    assert state.phase == pb.PHASE_INITIAL_SETUP and state.turn == HOLMES


def _after_arrangement(seed: int) -> pb.State:
    state = GAME.new_state(pb.Options(), 2, seed=seed)
    state, _ = runtime.apply(GAME, state, MORIARTY, GAME.legal_actions(state, MORIARTY)[0])
    return state


def test_initial_setup_alternates_from_the_first_player_face_down():
    """Starting with the First Player, players alternately place face-down cards until each has
    3 in play; the opponent does not see them. (Rulebook: A.3a Initial Setup preparation)
    """
    state = _after_arrangement(7)
    order = []
    for _ in range(5):
        seat = GAME.pending(state)[0].seat
        order.append(seat)
        state, events = runtime.apply(GAME, state, seat, GAME.legal_actions(state, seat)[0])
        assert all(e.event.setup_card_placed.card == 0 for e in events if e.to is None)
    assert order == [HOLMES, MORIARTY, HOLMES, MORIARTY, HOLMES]
    hidden = [c.card for t in GAME.view(state, HOLMES).threads for c in t.sides[MORIARTY].cards]
    assert hidden == [0, 0]
    own = [c.card for t in GAME.view(state, HOLMES).threads for c in t.sides[HOLMES].cards]
    assert all(own) and len(own) == 3


def test_initial_setup_reveals_all_then_both_draw_back_to_five():
    """After the sixth card all are turned face up, both draw 3 to have 5, and the First Player
    starts the Course. (Rulebook: A.3b Initial Setup Reveal; A.4 Draw 3 Influence Cards)
    """
    state = _after_arrangement(7)
    for _ in range(6):
        seat = GAME.pending(state)[0].seat
        state, events = runtime.apply(GAME, state, seat, GAME.legal_actions(state, seat)[-1])
    revealed = [e for e in events if e.event.HasField("setup_card_revealed")]
    assert len(revealed) == 6
    assert not any(c.face_down for t in state.threads for s in t.sides for c in s.cards)
    assert [len(p.hand) for p in state.players] == [5, 5]
    assert state.phase == pb.PHASE_COURSE and state.turn == HOLMES


def test_seats_other_than_two_are_refused():
    """Clash of Minds is a two-player game. (Rulebook: Game Description)"""
    import pytest

    from parlour.engine.game import InvalidOptions

    with pytest.raises(InvalidOptions):
        GAME.new_state(pb.Options(), 3, seed=1)


def test_initial_setup_with_a_short_hand_places_what_it_can():
    """A player with fewer than 3 cards places them all (RULES.md 15).
    (Rulebook: A.3a Initial Setup preparation)"""
    from parlour.games.clashofminds.rounds import begin_setup

    state = _after_arrangement(7)
    moriarty = state.players[MORIARTY]
    moriarty.deck.extend(moriarty.hand[1:])
    del moriarty.hand[1:]
    begin_setup(state)
    assert [p.setup_left for p in state.players] == [3, 1]
    order = []
    while state.phase == pb.PHASE_INITIAL_SETUP:
        seat = GAME.pending(state)[0].seat
        order.append(seat)
        state, _ = runtime.apply(GAME, state, seat, GAME.legal_actions(state, seat)[0])
    assert order == [HOLMES, MORIARTY, HOLMES, HOLMES]
