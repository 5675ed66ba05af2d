"""Every card's special rule (Rulebook 2, Card Notes; Rulebook 7, Specific Cards)."""

from __future__ import annotations

from collections import Counter

import pytest

from parlour.engine.game import IllegalAction
from parlour.games.isayholmes.tests.positions import (
    A,
    act,
    actions,
    decline,
    hand,
    kinds,
    legal,
    legal_set,
    play,
    position,
    target,
)
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb

AFOOT = pb.CARD_THE_GAME_IS_AFOOT
IN_LONDON = (AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_LONDON)
AT_BAKER_STREET = (AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_BAKER_STREET)
AFTER_TRAIN = (AFOOT, pb.CARD_TRAIN)
FILLER = [pb.CARD_CLUE, pb.CARD_ARREST]


def played_at(card, discard, others=None, seats=4, **kw):
    """Seat 0 plays `card` (holding a spare Clue) on `discard`."""
    hands = [[card, pb.CARD_CLUE]] + (others or [list(FILLER) for _ in range(seats - 1)])
    state = position(hands, discard=discard, **kw)
    return act(state, 0, play(card))


# -- Villains -------------------------------------------------------------------
def test_villains_cannot_be_played_while_other_cards_are_held():
    """Villains may only be played with no other card types in hand (Rulebook 2, Villains)."""
    state = position([[pb.CARD_MORIARTY, pb.CARD_CLUE], FILLER, FILLER])
    assert play(pb.CARD_MORIARTY) not in legal(state, 0)
    with pytest.raises(IllegalAction):
        act(state, 0, play(pb.CARD_MORIARTY))


# -- Holmes, Watson, Deduction ----------------------------------------------------
def test_holmes_may_not_follow_a_movement_card():
    """Holmes may be played after any card except a Movement card (Rulebook 2, Holmes)."""
    state = position(
        [[pb.CARD_HOLMES, pb.CARD_CLUE], FILLER, FILLER],
        discard=AFTER_TRAIN,
        location=pb.REGION_COUNTRY,
    )
    assert play(pb.CARD_HOLMES) not in legal(state, 0)
    state = position([[pb.CARD_HOLMES, pb.CARD_CLUE], FILLER, FILLER], discard=IN_LONDON)
    assert play(pb.CARD_HOLMES) in legal(state, 0)


def test_holmes_arrest_cannot_be_blocked_by_an_alibi_but_by_a_mastermind():
    """Holmes's Arrest cannot be blocked by an Alibi, only by a Mastermind (Rulebook 2, Holmes)."""
    others = [[pb.CARD_ALIBI, pb.CARD_MASTERMIND, pb.CARD_CLUE], FILLER, FILLER]
    state, _ = played_at(pb.CARD_HOLMES, IN_LONDON, others)
    state, _ = act(state, 0, target(1))
    assert state.phase == pb.PHASE_RESPOND
    assert legal_set(state, 1) == actions(decline(), A(defend=pb.Defend(card=pb.CARD_MASTERMIND)))
    with pytest.raises(IllegalAction) as refused:
        act(state, 1, A(defend=pb.Defend(card=pb.CARD_ALIBI)))
    assert refused.value.reason == "DEFENCE_NOT_ALLOWED"


def test_holmes_not_guilty_costs_nothing():
    """Holmes Not Guilty: the hand is passed back, no penalty (Rulebook 2, Holmes)."""
    state, _ = played_at(pb.CARD_HOLMES, IN_LONDON)
    state, _ = act(state, 0, target(2))
    state, events = act(state, 2, decline())
    assert hand(state, 0) == [pb.CARD_CLUE] and hand(state, 2) == sorted(FILLER)
    assert not kinds(events, "arrested")[0].guilty and state.turn == 1


def test_holmes_guilty_ends_the_round():
    """Holmes's Arrest of a Villain holder ends the round (Rulebook 2, Holmes; Rulebook 5)."""
    others = [FILLER, [pb.CARD_MORAN, pb.CARD_CLUE], FILLER]
    state, _ = played_at(pb.CARD_HOLMES, IN_LONDON, others)
    state, _ = act(state, 0, target(2))
    state, _ = act(state, 2, decline())
    assert state.phase == pb.PHASE_OVER and state.last_result.villain_seat == 2


@pytest.mark.parametrize("card", [pb.CARD_HOLMES, pb.CARD_WATSON])
def test_holmes_and_watson_may_decline_to_arrest(card):
    """Holmes: "You may make an Arrest"; Watson is the "same as Holmes": the player may name no
    one, and play passes left with no Arrest (Rulebook 2, Holmes; Watson)."""
    state, _ = played_at(card, IN_LONDON, [[pb.CARD_MORAN, pb.CARD_CLUE], FILLER, FILLER])
    assert legal_set(state, 0) == actions(decline(), target(1), target(2), target(3))
    state, events = act(state, 0, decline())
    assert kinds(events, "declined")[0].phase == pb.PHASE_TARGET and not kinds(events, "arrested")
    assert state.phase == pb.PHASE_TURN and state.turn == 1
    assert hand(state, 1) == sorted([pb.CARD_MORAN, pb.CARD_CLUE])


@pytest.mark.parametrize(
    ("card", "pile"),
    [
        (pb.CARD_ARREST, IN_LONDON),
        (pb.CARD_DEDUCTION, IN_LONDON),
        (pb.CARD_TELEGRAM, AT_BAKER_STREET),
    ],
)
def test_other_cards_must_name_an_opponent(card, pile):
    """Arrest ("the opponent you name"), Deduction and Telegram ("Name an opponent") offer no
    decline (Rulebook 7)."""
    state, _ = played_at(card, pile)
    assert decline() not in legal(state, 0)
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, decline())
    assert refused.value.reason == "MUST_NAME_OPPONENT"


def test_watson_can_be_blocked_by_an_alibi():
    """Watson is like Holmes except that an Alibi is a defence (Rulebook 2, Watson)."""
    others = [[pb.CARD_ALIBI, pb.CARD_CLUE], FILLER, FILLER]
    state, _ = played_at(pb.CARD_WATSON, IN_LONDON, others)
    state, _ = act(state, 0, target(1))
    assert A(defend=pb.Defend(card=pb.CARD_ALIBI)) in legal(state, 1)
    state, _ = act(state, 1, decline())
    assert hand(state, 1) == sorted([pb.CARD_ALIBI, pb.CARD_CLUE])


def test_deduction_is_a_private_look_at_a_hand():
    """Deduction is a free look at an opponent's hand; no Arrest (Rulebook 2, Deduction)."""
    others = [[pb.CARD_MORIARTY, pb.CARD_CLUE], FILLER, FILLER]
    state, _ = played_at(pb.CARD_DEDUCTION, IN_LONDON, others)
    state, _ = act(state, 0, target(1))
    state, events = act(state, 1, decline())
    assert [list(s.cards) for s in kinds(events, "seen")] == [[]]
    assert sorted(kinds(events, "seen", viewer=0)[-1].cards) == [pb.CARD_MORIARTY, pb.CARD_CLUE]
    assert kinds(events, "seen", viewer=2) == kinds(events, "seen")
    assert state.phase == pb.PHASE_TURN and hand(state, 1) == [pb.CARD_MORIARTY, pb.CARD_CLUE]


# -- Mycroft, Plot Thickens, Fleeing ------------------------------------------------
def test_mycroft_needs_a_london_location_and_trades_hands():
    """Mycroft follows any London Location; you trade hands with another player
    (Rulebook 2, Mycroft)."""
    state = position(
        [[pb.CARD_MYCROFT, pb.CARD_CLUE], FILLER, FILLER],
        discard=(AFOOT, pb.CARD_TRAIN, pb.CARD_THE_COUNTRY),
        location=pb.REGION_COUNTRY,
    )
    assert play(pb.CARD_MYCROFT) not in legal(state, 0)
    others = [[pb.CARD_ALIBI, pb.CARD_TELEGRAM, pb.CARD_BOAT], FILLER, FILLER]
    state, _ = played_at(pb.CARD_MYCROFT, AT_BAKER_STREET, others)
    state, _ = act(state, 0, target(1))
    state, events = act(state, 1, decline())
    assert hand(state, 0) == sorted([pb.CARD_ALIBI, pb.CARD_TELEGRAM, pb.CARD_BOAT])
    assert hand(state, 1) == [pb.CARD_CLUE]
    assert kinds(events, "traded", viewer=1)[-1].hand == [pb.CARD_CLUE]


def test_plot_thickens_reshuffles_all_but_the_previous_card():
    """The previous card becomes the new Discard Pile; Plot Thickens and the rest of the pile
    (The Game is Afoot! set aside) are shuffled into the Draw Pile (Rulebook 2, Plot Thickens)."""
    state = position(
        [[pb.CARD_PLOT_THICKENS, pb.CARD_CLUE], FILLER, FILLER],
        discard=IN_LONDON + (pb.CARD_DISGUISE,),
    )
    before = len(state.draw_pile)
    after, events = act(state, 0, play(pb.CARD_PLOT_THICKENS))
    assert list(after.discard_pile) == [pb.CARD_DISGUISE]
    assert list(after.set_aside) == [AFOOT]
    assert len(after.draw_pile) == before + 3
    assert kinds(events, "reshuffled")[0].plot_thickens
    assert after.turn == 1


def test_fleeing_follows_a_movement_card_discards_a_villain_and_scores_minus_ten():
    """Fleeing only after a Movement card; you may discard a Villain; either way -10
    (Rulebook 2, Fleeing)."""
    state = position([[pb.CARD_FLEEING, pb.CARD_CLUE], FILLER, FILLER], discard=IN_LONDON)
    assert play(pb.CARD_FLEEING) not in legal(state, 0)
    state = position(
        [[pb.CARD_FLEEING, pb.CARD_MORAN, pb.CARD_CLUE], FILLER, [pb.CARD_VILLAGE, pb.CARD_LONDON]],
        discard=AFTER_TRAIN,
        location=pb.REGION_COUNTRY,
    )
    state, _ = act(state, 0, play(pb.CARD_FLEEING))
    flee_moves = actions(decline(), A(discard_villain=pb.DiscardVillain(card=pb.CARD_MORAN)))
    assert legal_set(state, 0) == flee_moves
    state, _ = act(state, 0, A(discard_villain=pb.DiscardVillain(card=pb.CARD_MORAN)))
    assert hand(state, 0) == [pb.CARD_CLUE] and pb.CARD_MORAN in state.set_aside
    assert state.scores[0] == -10


def test_fleeing_without_a_villain_still_scores_minus_ten_and_keeps_the_movement():
    """Whether or not a Villain was discarded, -10; play follows the Movement card beneath."""
    state = position(
        [[pb.CARD_FLEEING, pb.CARD_CLUE], [pb.CARD_VILLAGE, pb.CARD_LONDON], FILLER],
        discard=AFTER_TRAIN,
        location=pb.REGION_COUNTRY,
    )
    state, _ = act(state, 0, play(pb.CARD_FLEEING))
    assert legal(state, 0) == [decline()]
    state, _ = act(state, 0, decline())
    assert state.scores[0] == -10
    assert legal(state, 1) == [play(pb.CARD_VILLAGE)]


# -- Movement ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("card", "region"),
    [
        (pb.CARD_BOAT, pb.REGION_COUNTRY),
        (pb.CARD_FOOT_CHASE, pb.REGION_LONDON),
    ],
)
def test_boat_and_foot_chase_make_an_opponent_draw_one(card, region):
    """Boat and Foot Chase move like Train and Hansom Cab, and an opponent draws 1 (Rulebook 7)."""
    state, _ = played_at(card, IN_LONDON, draw_top=(pb.CARD_MORIARTY,))
    assert state.location == region and state.phase == pb.PHASE_TARGET
    state, _ = act(state, 0, target(2))
    state, events = act(state, 2, decline())
    assert hand(state, 2) == sorted(FILLER + [pb.CARD_MORIARTY])
    assert kinds(events, "drawn")[0].count == 1 and state.turn == 1


def test_thick_fog_deals_each_player_back_as_many_cards_as_they_had():
    """Thick Fog: "players shuffle their cards together and are dealt back an equal number":
    each player gets back as many cards as they put in (RULES.md, Thick Fog; Rulebook 7)."""
    hands = [
        [pb.CARD_THICK_FOG, pb.CARD_CLUE, pb.CARD_ARREST],
        [pb.CARD_VILLAGE, pb.CARD_TELEGRAM, pb.CARD_INSPECTOR, pb.CARD_LONDON],
        [pb.CARD_MORIARTY],
        [pb.CARD_CASTLE, pb.CARD_ESTATE],
    ]
    state = position(hands, discard=IN_LONDON)
    before = Counter(c for h in hands for c in h) - Counter([pb.CARD_THICK_FOG])
    state, events = act(state, 0, play(pb.CARD_THICK_FOG))
    assert Counter(c for h in state.hands for c in h.cards) == before
    assert [len(h.cards) for h in state.hands] == [2, 4, 1, 2]
    assert Counter(hand(state, 1)) != Counter(hands[1])
    (public,) = kinds(events, "redealt")
    assert list(public.hand_sizes) == [2, 4, 1, 2] and not public.hand
    assert sorted(kinds(events, "redealt", viewer=3)[-1].hand) == hand(state, 3)


def test_after_thick_fog_any_location_and_the_chit_is_set_on_arrival():
    """Any Location card can be played after Thick Fog; set the chit upon arrival (Rulebook 7)."""
    state = position(
        [FILLER, [pb.CARD_VILLAGE, pb.CARD_LONDON, pb.CARD_CLUE], FILLER],
        discard=IN_LONDON + (pb.CARD_THICK_FOG,),
        turn=1,
    )
    assert legal_set(state, 1) == actions(play(pb.CARD_VILLAGE), play(pb.CARD_LONDON))
    after, _ = act(state, 1, play(pb.CARD_VILLAGE))
    assert after.location == pb.REGION_COUNTRY


# -- Locations ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("card", "victim"),
    [
        (pb.CARD_SCOTLAND_YARD_PREVIOUS, 3),
        (pb.CARD_SCOTLAND_YARD_NEXT, 1),
    ],
)
def test_scotland_yard_makes_the_previous_or_next_opponent_draw_two(card, victim):
    """Scotland Yard: the previous (or next) opponent, as printed, draws 2 or plays an Alibi
    (Rulebook 7, London Locations)."""
    state, events = played_at(card, (AFOOT, pb.CARD_HANSOM_CAB))
    assert state.phase == pb.PHASE_RESPOND and state.effect.target == victim
    state, _ = act(state, victim, decline())
    assert len(state.hands[victim].cards) == 4 and state.turn == 1


# -- Information -------------------------------------------------------------------------
@pytest.mark.parametrize(("held", "seen"), [(3, 2), (1, 1)])
def test_clue_shows_two_random_cards_or_the_only_one(held, seen):
    """Clue: look at two of an opponent's cards at random; usable on a single card
    (Rulebook 7, Clue)."""
    victim = [pb.CARD_MORIARTY, pb.CARD_TELEGRAM, pb.CARD_BOAT][:held]
    state, _ = played_at(pb.CARD_CLUE, IN_LONDON, [victim, FILLER, FILLER])
    state, _ = act(state, 0, target(1))
    state, events = act(state, 1, decline())
    (public,) = kinds(events, "seen")
    assert public.count == seen and not public.cards
    private = kinds(events, "seen", viewer=0)[-1].cards
    assert len(private) == seen and set(private) <= set(victim)
    assert list(state.peeks[0].cards) == list(private)


def test_i_suspect_makes_an_opponent_draw_one():
    """I Suspect: the named opponent draws 1 card or plays an Alibi (Rulebook 7, I Suspect)."""
    state, _ = played_at(pb.CARD_I_SUSPECT, AT_BAKER_STREET)
    state, _ = act(state, 0, target(3))
    state, _ = act(state, 3, decline())
    assert len(state.hands[3].cards) == 3


def test_telegram_adds_ten_points():
    """Telegram: the named opponent adds 10 points to their score (Rulebook 7, Telegram)."""
    state, _ = played_at(pb.CARD_TELEGRAM, AT_BAKER_STREET)
    state, _ = act(state, 0, target(2))
    assert legal(state, 2) == [decline()]
    state, _ = act(state, 2, decline())
    assert list(state.scores) == [0, 0, 10, 0]


def test_disguise_shows_the_highest_card_and_the_shower_breaks_ties():
    """Disguise: the opponent secretly shows their highest card; on a tie they choose which
    (Rulebook 7, Disguise)."""
    victim = [pb.CARD_HOLMES, pb.CARD_MORIARTY, pb.CARD_CLUE]
    state, _ = played_at(pb.CARD_DISGUISE, IN_LONDON, [victim, FILLER, FILLER])
    state, _ = act(state, 0, target(1))
    state, _ = act(state, 1, decline())
    assert state.phase == pb.PHASE_SHOW
    shows = [A(show=pb.ShowCard(card=c)) for c in (pb.CARD_MORIARTY, pb.CARD_HOLMES)]
    assert legal_set(state, 1) == actions(*shows)
    with pytest.raises(IllegalAction) as refused:
        act(state, 1, A(show=pb.ShowCard(card=pb.CARD_CLUE)))
    assert refused.value.reason == "NOT_HIGHEST_CARD"
    state, events = act(state, 1, A(show=pb.ShowCard(card=pb.CARD_MORIARTY)))
    assert list(kinds(events, "seen", viewer=0)[-1].cards) == [pb.CARD_MORIARTY]
    assert (
        kinds(events, "seen", viewer=2)[0].count == 1
        and not kinds(events, "seen", viewer=2)[0].cards
    )
    assert state.turn == 1


# -- Action ------------------------------------------------------------------------------
def test_constabulary_passes_a_card_secretly():
    """Constabulary: secretly pass one card of your choice to an opponent (Rulebook 7)."""
    state = position(
        [[pb.CARD_CONSTABULARY, pb.CARD_MORIARTY, pb.CARD_CLUE], FILLER, FILLER],
        discard=(AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_WEST_END),
    )
    state, _ = act(state, 0, play(pb.CARD_CONSTABULARY))
    state, _ = act(state, 0, target(2))
    assert state.phase == pb.PHASE_GIVE
    state, events = act(state, 0, A(give=pb.GiveCard(card=pb.CARD_MORIARTY)))
    assert hand(state, 2) == sorted(FILLER + [pb.CARD_MORIARTY])
    assert kinds(events, "given", viewer=1)[0].card == pb.CARD_UNSPECIFIED
    assert kinds(events, "given", viewer=2)[-1].card == pb.CARD_MORIARTY


def test_inspector_makes_an_opponent_draw_two():
    """Inspector: the named opponent draws 2 or plays an Alibi (Rulebook 7, Inspector)."""
    state, _ = played_at(pb.CARD_INSPECTOR, IN_LONDON + (pb.CARD_I_SUSPECT,))
    state, _ = act(state, 0, target(1))
    state, _ = act(state, 1, decline())
    assert len(state.hands[1].cards) == 4 and state.phase == pb.PHASE_TURN


def test_inspector_on_scotland_yard_may_also_arrest():
    """Played on top of a Scotland Yard, the Inspector's player may also make an Arrest
    (Rulebook 7, Inspector)."""
    others = [FILLER, [pb.CARD_CLAY, pb.CARD_CLUE], FILLER]
    on_yard = (AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_SCOTLAND_YARD_NEXT)
    state, _ = played_at(pb.CARD_INSPECTOR, on_yard, others)
    state, _ = act(state, 0, target(1))
    state, _ = act(state, 1, decline())
    assert state.phase == pb.PHASE_EXTRA_ARREST
    assert legal_set(state, 0) == actions(decline(), target(1), target(2), target(3))
    state, _ = act(state, 0, target(2))
    assert state.phase == pb.PHASE_RESPOND and state.effect.extra_arrest
    state, _ = act(state, 2, decline())
    assert state.phase == pb.PHASE_OVER and state.last_result.villain_seat == 2


def test_inspector_on_scotland_yard_arrest_may_be_declined():
    """The Inspector's extra Arrest is optional ("may also make an Arrest", Rulebook 7)."""
    state, _ = played_at(pb.CARD_INSPECTOR, (AFOOT, pb.CARD_HANSOM_CAB, pb.CARD_SCOTLAND_YARD_NEXT))
    state, _ = act(state, 0, target(1))
    state, _ = act(state, 1, decline())
    state, _ = act(state, 0, decline())
    assert state.phase == pb.PHASE_TURN and state.turn == 1
