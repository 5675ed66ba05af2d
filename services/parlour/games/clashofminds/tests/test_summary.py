"""Summary of the Investigation: Conclusion, Archiving, and the End of the Game."""

from __future__ import annotations

from parlour.games.clashofminds import GAME
from parlour.games.clashofminds.catalogue import CATALOGUE, CRIME_ID
from parlour.games.clashofminds.influence import side_total
from parlour.games.clashofminds.summary import conclude
from parlour.games.clashofminds.tests.positions import (
    CARD_ID,
    HOLMES,
    MORIARTY,
    act,
    course,
    kinds,
    place,
)
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb


def test_rulebook_worked_example_eight_against_three():
    """Holmes's Support 1 + used card 2 + cards 3 and 2 = 8 against Moriarty's 3: the token
    ends 5 spaces on Holmes's side, an advantage of 3 or more, so the card is revealed.
    (Rulebook: B. Course of the Investigation, printed example on page 9)
    """
    state = course()
    place(state, HOLMES, 0, "cipher", support=True)
    place(state, HOLMES, 0, "street_urchin", used=True)
    place(state, HOLMES, 0, "forged_letter")
    place(state, HOLMES, 0, "informant")
    place(state, MORIARTY, 0, "forged_letter")
    assert side_total(state, 0, HOLMES) == 1 + 2 + 3 + 2 == 8
    assert side_total(state, 0, MORIARTY) == 3
    events = conclude(state)
    assert events[0].event.thread_concluded == pb.ThreadConcluded(thread=0, holmes=8, moriarty=3)
    assert state.threads[0].revealed


def test_holmes_advantage_of_one_or_two_places_then_reveals_with_a_deduction_token():
    """Advantage 1-2 on an unrevealed card: a Deduction Token; if one is there already, reveal
    the card and resolve it. (Rulebook: C.1 A.a Holmes's Advantage)
    """
    state = course()
    place(state, HOLMES, 1, "informant")
    events = conclude(state)
    assert state.threads[1].deduction_token and state.deduction_supply == 2
    assert "deduction_token_placed" in kinds(events)
    place(state, HOLMES, 1, "informant")
    events = conclude(state)
    assert state.threads[1].revealed and not state.threads[1].deduction_token
    assert state.deduction_supply == 3 and "crime_card_revealed" in kinds(events)


def test_holmes_advantage_of_three_reveals_and_resolves_immediately():
    """Advantage 3 or more reveals the Crime Plan Card and resolves its effect at once.
    (Rulebook: C.1 A.b Holmes's Advantage)
    """
    state = course(crime=("banker", "blackmail", "dynamite"))
    place(state, HOLMES, 2, "telegram")
    hours = state.hours
    events = conclude(state)
    assert state.threads[2].revealed and state.hours == hours + 1
    assert kinds(events)[-3:-1] == ["crime_card_revealed", "clock_moved"]


def test_moriarty_advantage_adds_one_or_two_hours():
    """Moriarty's advantage 1-2 adds one hour, 3 or more adds two. (Rulebook: C.1 B)"""
    state = course(hours=1)
    place(state, MORIARTY, 0, "informant")
    place(state, MORIARTY, 1, "telegram")
    conclude(state)
    assert state.hours == 1 + 1 + 2


def test_a_draw_does_nothing():
    """No advantage on either side: nothing happens. (Rulebook: C.1 C Draw)"""
    state = course(site="the_docks", hours=3)
    place(state, HOLMES, 0, "informant")
    place(state, MORIARTY, 0, "witness")
    conclude(state)
    assert state.hours == 3 and not any(t.deduction_token or t.revealed for t in state.threads)


def test_revealed_thread_stays_in_play_for_moriarty_hours():
    """When a thread is revealed both players still play there; Moriarty may still add hours.
    (Rulebook: C.1 NOTE)
    """
    state = course(hours=2)
    state.threads[0].revealed = True
    place(state, MORIARTY, 0, "telegram")
    conclude(state)
    assert state.hours == 4


def test_archiving_discards_influence_keeps_supports_and_passes_first_player():
    """Influence Cards go to the discard piles, Supports stay, players may discard from hand,
    and the First Player Card passes. (Rulebook: C.2 Archiving)
    """
    state = course(hands=(("bribe", "cipher"), ()), hours=2)
    place(state, HOLMES, 0, "informant")
    place(state, HOLMES, 0, "witness", support=True)
    place(state, MORIARTY, 1, "informant")
    conclude(state)
    assert state.phase == pb.PHASE_ARCHIVING and state.turn == HOLMES
    assert [c.card for c in state.threads[0].sides[HOLMES].cards] == [CARD_ID["witness"]]
    assert list(state.players[HOLMES].discard) == [CARD_ID["informant"]]
    state, events = act(state, HOLMES, discard_card=dict(card=CARD_ID["bribe"]))
    state, _ = act(state, HOLMES, keep_hand={})
    assert state.turn == MORIARTY
    state, events = act(state, MORIARTY, keep_hand={})
    assert state.first_player == MORIARTY and state.round == 2
    assert kinds(events)[:2] == ["round_archived", "site_revealed"]
    assert state.phase == pb.PHASE_INITIAL_SETUP and state.turn == MORIARTY


def test_moriarty_wins_at_twelve_with_a_thread_unrevealed():
    """Clock at 12 o'clock or past it and a Crime Plan Card unrevealed: Moriarty's victory.
    (Rulebook: End of the Game, 1)
    """
    state = course(hours=11)
    place(state, MORIARTY, 0, "informant")
    events = conclude(state)
    assert state.result == pb.RESULT_MORIARTY_VICTORY and kinds(events)[-1] == "game_ended"
    assert GAME.outcome(state).winners == (MORIARTY,)


def test_holmes_wins_when_all_are_revealed_before_twelve():
    """Every Crime Plan Card revealed and the clock short of 12: Holmes's victory.
    (Rulebook: End of the Game, 2)
    """
    state = course(hours=11, crime=("banker", "blackmail", "air_gun"))
    state.threads[0].revealed = state.threads[1].revealed = True
    place(state, HOLMES, 2, "telegram")
    conclude(state)
    assert state.result == pb.RESULT_HOLMES_VICTORY
    assert GAME.outcome(state).winners == (HOLMES,)


def test_unresolved_duel_when_the_last_card_is_revealed_at_twelve():
    """The last Crime Plan Card revealed while the clock shows 12 o'clock: a draw.
    (Rulebook: End of the Game, 3, read as "... shows 12 o'clock or past it")
    """
    state = course(hours=11, crime=("banker", "blackmail", "dynamite"))
    state.threads[0].revealed = state.threads[1].revealed = True
    place(state, HOLMES, 2, "telegram")
    conclude(state)
    assert state.hours == 12 and state.result == pb.RESULT_UNRESOLVED_DUEL
    assert GAME.outcome(state).winners == ()


def test_the_seven_sites_fill_exactly_twelve_hours():
    """The clock starts at 12 o'clock and the players have 12 hours.
    (Rulebook: Game Description; Components)
    """
    assert sum(site.hours for site in CATALOGUE.sites.values()) == 12
    assert CRIME_ID["prime_minister"] in CATALOGUE.crime
