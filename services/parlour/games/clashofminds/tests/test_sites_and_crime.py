"""Investigation Site effects and Crime Plan Card effects, one test per card.

(Rulebook: Cards Description, Investigation Site Cards and Crime Plan Cards)
"""

from __future__ import annotations

import pytest

from parlour.engine import runtime
from parlour.engine.game import IllegalAction
from parlour.games.clashofminds import GAME
from parlour.games.clashofminds.effects import reveal_crime
from parlour.games.clashofminds.influence import side_total
from parlour.games.clashofminds.rounds import start_round
from parlour.games.clashofminds.summary import conclude
from parlour.games.clashofminds.table import hand_target, influence_limit
from parlour.games.clashofminds.tests.positions import (
    CARD_ID,
    HOLMES,
    MORIARTY,
    act,
    course,
    kinds,
    legal,
    place,
)
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb


def test_buckingham_palace_supports_are_worth_zero():
    """Buckingham Palace (+1 hour, limit 6): all Support Cards have an Influence Value of 0."""
    state = course(site="buckingham_palace")
    place(state, HOLMES, 0, "cipher", support=True)
    assert side_total(state, 0, HOLMES) == 0 and influence_limit(state) == 6


def test_baker_street_holmes_draws_up_to_six_at_initiating_contacts():
    """221B Baker Street: at Initiating Contacts Holmes draws until he has 6 cards."""
    state = course(site="baker_street")
    assert hand_target(state, HOLMES, initiating=True) == 6
    assert hand_target(state, MORIARTY, initiating=True) == 5
    assert hand_target(state, HOLMES, initiating=False) == 5


def test_diogenes_club_forbids_the_draw_action():
    """The Diogenes Club: the optional action 'Draw one Influence Card' cannot be used."""
    state = course(site="diogenes_club", hands=(("bribe",), ()))
    assert not any(a.HasField("draw_influence") for a in legal(state, HOLMES))
    with pytest.raises(IllegalAction) as info:
        runtime.apply(GAME, state, HOLMES, pb.Action(
            draw_influence=pb.DrawInfluence(action_card=pb.ACTION_CARD_DRAW_OR_USE)))
    assert info.value.reason == "DRAW_FORBIDDEN_HERE"


def test_scotland_yard_advantage_of_two_reveals():
    """Scotland Yard: a Holmes advantage of exactly 2 reveals the Crime Plan Card."""
    state = course(site="scotland_yard")
    place(state, HOLMES, 0, "witness")
    conclude(state)
    assert state.threads[0].revealed


def test_whitechapel_adds_an_hour_to_each_moriarty_advantage():
    """Whitechapel (limit 4): each Moriarty advantage adds 1 extra hour."""
    state = course(site="whitechapel", hours=2)
    place(state, MORIARTY, 0, "cipher")
    conclude(state)
    assert state.hours == 2 + 1 + 1 and influence_limit(state) == 4


def test_the_docks_used_cards_get_one_more():
    """The Docks: used Influence Cards get +1 Influence Value."""
    state = course(site="the_docks")
    place(state, HOLMES, 0, "bribe", used=True)
    place(state, HOLMES, 0, "cipher")
    assert side_total(state, 0, HOLMES) == 3 + 1 + 1


def test_british_museum_a_contested_draw_counts_as_a_holmes_advantage_of_one():
    """The British Museum (+3 hours, limit 7): a draw where both players have Influence counts
    as a Holmes advantage of 1 (the Draw clause: "nothing happens (unless the Investigation Site
    Card … state otherwise)"); an empty 0-0 thread stays a plain draw (RULES.md, The British
    Museum). (Rulebook: C.1 C Draw)"""
    state = course(site="british_museum")
    place(state, HOLMES, 0, "informant")
    place(state, MORIARTY, 0, "witness")
    place(state, HOLMES, 1, "telegram", used=True)
    conclude(state)
    assert state.threads[0].deduction_token and influence_limit(state) == 7
    assert not state.threads[1].deduction_token and not state.threads[2].deduction_token
    assert state.deduction_supply == 2


def test_site_deck_reshuffles_when_empty():
    """With every site used, the revealed sites are shuffled into a new Investigation Site Deck
    (a gap in the rulebook, see RULES.md)."""
    state = course(hours=5)
    state.site_discard.extend(state.site_deck)
    del state.site_deck[:]
    state.site_discard.append(state.site)
    events = start_round(state)
    assert kinds(events)[:2] == ["site_revealed", "clock_moved"]
    assert len(state.site_deck) == 6 and not state.site_discard


def test_prime_minister_lets_holmes_discard_a_support_instead():
    """The Prime Minister (Victim): with 'Add one Support Card' Holmes may instead put one of his
    Support Cards in play on his discard pile. (Rulebook: Crime Plan Cards, example)"""
    state = course(crime=("prime_minister", "blackmail", "dynamite"), hands=(("bribe",), ()))
    place(state, HOLMES, 1, "cipher", support=True)
    assert not any(a.HasField("remove_support") for a in legal(state, HOLMES))
    state.threads[0].revealed = True
    removals = [a.remove_support for a in legal(state, HOLMES) if a.HasField("remove_support")]
    assert {(r.thread, r.index) for r in removals} == {(1, 0)}
    state, _ = act(state, HOLMES, remove_support=dict(
        action_card=pb.ACTION_CARD_USE_OR_SUPPORT, thread=1, index=0))
    assert not state.threads[1].sides[HOLMES].cards
    assert list(state.players[HOLMES].discard) == [CARD_ID["cipher"]]


def test_duchess_moves_the_clock_back_one_hour():
    """The Duchess (Victim): move the Time Marker back 1 hour."""
    state = course(crime=("duchess", "blackmail", "dynamite"), hours=5)
    reveal_crime(state, 0)
    assert state.hours == 4


def test_banker_holmes_draws_two():
    """The Banker (Victim): Holmes draws 2 Influence Cards."""
    state = course(crime=("banker", "blackmail", "dynamite"))
    reveal_crime(state, 0)
    assert len(state.players[HOLMES].hand) == 2


def test_blackmail_both_draw_up_to_six():
    """Blackmail (Felony): from now on both players draw until they have 6 cards."""
    state = course(crime=("banker", "blackmail", "dynamite"))
    reveal_crime(state, 1)
    assert hand_target(state, HOLMES, initiating=False) == 6
    assert hand_target(state, MORIARTY, initiating=True) == 6


def test_robbery_raises_the_influence_limit():
    """Robbery (Felony): from now on the Influence Card Limit is 1 higher."""
    state = course(crime=("banker", "robbery", "dynamite"))
    before = influence_limit(state)
    reveal_crime(state, 1)
    assert influence_limit(state) == before + 1


def test_kidnapping_discards_all_supports_in_the_thread():
    """Kidnapping (Felony): both players discard all their Support Cards in this thread."""
    state = course(crime=("banker", "kidnapping", "dynamite"))
    place(state, HOLMES, 1, "cipher", support=True)
    place(state, HOLMES, 1, "bribe")
    place(state, MORIARTY, 1, "telegram", support=True)
    place(state, MORIARTY, 0, "cipher", support=True)
    reveal_crime(state, 1)
    assert [c.card for c in state.threads[1].sides[HOLMES].cards] == [CARD_ID["bribe"]]
    assert not state.threads[1].sides[MORIARTY].cards
    assert len(state.threads[0].sides[MORIARTY].cards) == 1
    assert list(state.players[MORIARTY].discard) == [CARD_ID["telegram"]]


def test_air_gun_makes_small_moriarty_advantages_cost_two_hours():
    """The Air Gun (Object): from now on a Moriarty advantage of 1-2 in this thread adds 2."""
    state = course(crime=("banker", "blackmail", "air_gun"), hours=2)
    state.threads[2].revealed = True
    place(state, MORIARTY, 2, "cipher")
    place(state, MORIARTY, 1, "cipher")
    conclude(state)
    assert state.hours == 2 + 2 + 1


def test_poison_holmes_discards_two_random_cards():
    """The Poison (Object): Holmes discards 2 random cards from his hand."""
    state = course(crime=("banker", "blackmail", "poison"), hands=(("bribe", "cipher", "witness"),
                                                                  ()))
    reveal_crime(state, 2)
    assert len(state.players[HOLMES].hand) == 1 and len(state.players[HOLMES].discard) == 2


def test_dynamite_adds_one_hour():
    """The Dynamite (Object): add 1 hour to the clock."""
    state = course(crime=("banker", "blackmail", "dynamite"), hours=3)
    reveal_crime(state, 2)
    assert state.hours == 4
