"""Every threshold of the Summary at its boundary, so an off-by-one in the rules fails here.

(Rulebook: C. Summary of the Investigation, 1. Conclusion A and B; End of the Game 1-3;
issue 16, Clash of Minds item 6)
"""

from __future__ import annotations

import pytest

from parlour.games.clashofminds.influence import side_total
from parlour.games.clashofminds.summary import conclude, keep_hand
from parlour.games.clashofminds.tests.positions import HOLMES, MORIARTY, course, kinds, place
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

#: Cards whose played values make an exact total on an otherwise empty side.
WORTH = {1: ("street_urchin",), 2: ("informant",), 3: ("forged_letter",), 4: ("telegram",),
         5: ("telegram", "cipher")}


def lead(state: pb.State, seat: int, thread: int, advantage: int) -> None:
    """Give `seat` exactly `advantage` Influence in a thread where the other side is empty."""
    for key in WORTH[advantage]:
        place(state, seat, thread, key)
    assert side_total(state, thread, seat) == advantage
    assert side_total(state, thread, 1 - seat) == 0


def test_an_advantage_of_zero_is_a_draw_on_both_sides():
    """2 against 2 and 0 against 0: "no Influence Value Advantage on any side, nothing happens".
    (Rulebook: C.1 C Draw)"""
    state = course(hours=2)
    lead(state, HOLMES, 0, 2)
    place(state, MORIARTY, 0, "witness")
    conclude(state)
    assert state.hours == 2 and state.deduction_supply == 3
    assert not any(t.deduction_token or t.revealed for t in state.threads)


@pytest.mark.parametrize(("advantage", "token", "revealed"), [
    (1, True, False), (2, True, False), (3, False, True), (4, False, True)])
def test_holmes_advantage_one_and_two_give_a_token_three_reveals(advantage, token, revealed):
    """"equals 1 or 2 … Put a Deduction Token"; "equals 3 or more, reveal the Crime Plan Card".
    (Rulebook: C.1 A.a and A.b Holmes's Advantage)"""
    state = course(crime=("banker", "blackmail", "air_gun"))
    lead(state, HOLMES, 1, advantage)
    conclude(state)
    assert state.threads[1].deduction_token is token
    assert state.threads[1].revealed is revealed


def test_holmes_advantage_is_the_difference_not_his_total():
    """5 against 2 is an advantage of exactly 3 (reveal); 5 against 3 is 2 (a token).
    (Rulebook: C.1 A Holmes's Advantage)"""
    state = course(crime=("banker", "blackmail", "air_gun"))
    lead(state, HOLMES, 0, 5)
    place(state, MORIARTY, 0, "informant")
    place(state, HOLMES, 1, "forged_letter")
    place(state, HOLMES, 1, "informant")
    place(state, MORIARTY, 1, "forged_letter")
    conclude(state)
    assert state.threads[0].revealed and not state.threads[0].deduction_token
    assert state.threads[1].deduction_token and not state.threads[1].revealed


@pytest.mark.parametrize(("advantage", "hours"), [(1, 1), (2, 1), (3, 2), (4, 2)])
def test_moriarty_advantage_one_and_two_add_an_hour_three_adds_two(advantage, hours):
    """"equals 1 or 2, add one hour"; "equals 3 or more, add two hours".
    (Rulebook: C.1 B.a and B.b Moriarty's Advantage)"""
    state = course(hours=2)
    lead(state, MORIARTY, 0, advantage)
    conclude(state)
    assert state.hours == 2 + hours


@pytest.mark.parametrize(("advantage", "token", "revealed"), [
    (1, True, False), (2, False, True), (3, False, True)])
def test_scotland_yard_moves_the_reveal_threshold_to_exactly_two(advantage, token, revealed):
    """Scotland Yard: "A Holmes advantage of exactly 2 reveals the Crime Plan Card, as if it were
    3 or more"; 1 still gives a token. (Rulebook: C.1 A; catalogue Investigation Sites)"""
    state = course(site="scotland_yard", crime=("banker", "blackmail", "air_gun"))
    lead(state, HOLMES, 1, advantage)
    conclude(state)
    assert (state.threads[1].deduction_token, state.threads[1].revealed) == (token, revealed)


@pytest.mark.parametrize(("advantage", "hours"), [(1, 2), (2, 2), (3, 2)])
def test_air_gun_makes_one_and_two_cost_two_hours_and_three_stays_two(advantage, hours):
    """The Air Gun: "a Moriarty advantage of 1 or 2 in this Crime Thread adds 2 hours (not 1)";
    3 or more adds two as always. (Rulebook: C.1 B; catalogue Crime Plan Cards)"""
    state = course(crime=("banker", "blackmail", "air_gun"), hours=2)
    state.threads[2].revealed = True
    lead(state, MORIARTY, 2, advantage)
    conclude(state)
    assert state.hours == 2 + hours


@pytest.mark.parametrize(("advantage", "hours"), [(2, 2), (3, 3)])
def test_whitechapel_adds_its_hour_on_both_sides_of_the_threshold(advantage, hours):
    """Whitechapel: "Each Moriarty advantage adds 1 extra hour" (2 → 1 + 1, 3 → 2 + 1).
    (Rulebook: C.1 B; catalogue Investigation Sites)"""
    state = course(site="whitechapel", hours=2)
    lead(state, MORIARTY, 0, advantage)
    conclude(state)
    assert state.hours == 2 + hours


@pytest.mark.parametrize(("hours", "result"), [
    (11, pb.RESULT_UNSPECIFIED), (12, pb.RESULT_MORIARTY_VICTORY),
    (13, pb.RESULT_MORIARTY_VICTORY)])
def test_moriarty_wins_from_exactly_twelve_with_a_card_unrevealed(hours, result):
    """"If the Clock Tower Card shows 12 o'clock or past it, and at least one Crime Plan Card
    has not been revealed": 11 plays on, 12 and 13 end the game. (Rulebook: End of the Game 1)"""
    state = course(hours=hours)
    conclude(state)
    assert state.result == result
    assert state.phase == (pb.PHASE_ARCHIVING if hours == 11 else pb.PHASE_OVER)


@pytest.mark.parametrize(("hours", "result"), [
    (11, pb.RESULT_HOLMES_VICTORY), (12, pb.RESULT_UNRESOLVED_DUEL),
    (13, pb.RESULT_UNRESOLVED_DUEL)])
def test_holmes_wins_only_before_twelve_and_draws_from_twelve(hours, result):
    """"All Crime Plan Cards are revealed and the time … has not reached 12 o'clock": Holmes;
    the last card revealed at 12 o'clock (or past it): Unresolved Duel.
    (Rulebook: End of the Game 2 and 3)"""
    state = course(hours=hours, crime=("banker", "blackmail", "air_gun"))
    state.threads[0].revealed = state.threads[1].revealed = True
    lead(state, HOLMES, 2, 3)
    events = conclude(state)
    assert state.threads[2].revealed and state.hours == hours
    assert state.result == result and kinds(events)[-1] == "game_ended"


def test_a_site_that_brings_the_clock_to_twelve_still_has_its_round_played():
    """The Winning Conditions "are checked during the Archiving step": a site taking the clock
    from 11 to 12 starts a round that is played out. (Rulebook: End of the Game; A.1)"""
    state = course(hours=11)
    state.phase = pb.PHASE_ARCHIVING
    state.turn = MORIARTY
    state.site_deck[:] = [s for s in state.site_deck if s != state.site][:1]
    keep_hand(state, MORIARTY)
    assert state.hours >= 12 and state.phase == pb.PHASE_INITIAL_SETUP
    assert state.result == pb.RESULT_UNSPECIFIED
