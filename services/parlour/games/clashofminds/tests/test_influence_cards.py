"""Influence Cards: values, constant effects, and every card's effect when used.

(Rulebook: Cards Description, Influence Cards; the catalogue in data/catalogue.json)
"""

from __future__ import annotations

import pytest

from parlour.engine import runtime
from parlour.engine.game import IllegalAction
from parlour.games.clashofminds import GAME
from parlour.games.clashofminds.influence import card_value, side_total
from parlour.games.clashofminds.tests.positions import (
    CARD_ID,
    HOLMES,
    MORIARTY,
    act,
    course,
    give,
    kinds,
    legal,
    place,
)
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

USE = pb.ACTION_CARD_DRAW_OR_USE


def use(state, seat, thread, index):
    return act(state, seat, use_influence=dict(action_card=USE, thread=thread, index=index))


def test_played_and_used_values():
    """A card is worth its played value, and its used value once turned.
    (Rulebook: Influence Cards, Influence Value of the played / used card)
    """
    state = course()
    place(state, HOLMES, 0, "street_urchin")
    place(state, HOLMES, 0, "telegram", used=True)
    assert card_value(state, 0, HOLMES, 0) == 1
    assert card_value(state, 0, HOLMES, 1) == 0


def test_fingerprints_sets_every_other_card_in_the_thread_to_one():
    """Fingerprints (3 played / 2 used, 1 copy): all other Influence Cards in this Crime Thread
    have an Influence Value of 1. (Rulebook: Influence Cards, example)
    """
    state = course()
    place(state, HOLMES, 0, "fingerprints")
    place(state, HOLMES, 0, "telegram")
    place(state, MORIARTY, 0, "forged_letter")
    place(state, MORIARTY, 1, "forged_letter")
    assert side_total(state, 0, HOLMES) == 3 + 1
    assert side_total(state, 0, MORIARTY) == 1
    assert side_total(state, 1, MORIARTY) == 3
    state.threads[0].sides[HOLMES].cards[0].used = True
    assert card_value(state, 0, HOLMES, 0) == 2


def test_fingerprints_value_of_one_overrides_the_docks_and_footprints():
    """"All other Influence Cards in this Crime Thread have an Influence Value of 1": a used card
    there stays 1 at The Docks and beside Footprints, while the same card elsewhere gets both
    bonuses (issue 16 item 3). (Rulebook: Influence Cards, Fingerprints example)
    """
    state = course(site="the_docks")
    place(state, MORIARTY, 0, "fingerprints")
    place(state, HOLMES, 0, "footprints")
    place(state, HOLMES, 0, "bribe", used=True)
    place(state, HOLMES, 1, "footprints")
    place(state, HOLMES, 1, "bribe", used=True)
    assert card_value(state, 0, HOLMES, 1) == 1 and side_total(state, 0, HOLMES) == 1 + 1
    assert card_value(state, 1, HOLMES, 1) == 3 + 1 + 1
    state.threads[0].sides[MORIARTY].cards[0].used = True
    assert card_value(state, 0, MORIARTY, 0) == 2 + 1
    assert card_value(state, 0, HOLMES, 1) == 1


def test_footprints_add_one_to_your_used_cards_in_the_thread():
    """Footprints: your used Influence Cards in this Crime Thread get +1."""
    state = course()
    place(state, HOLMES, 0, "footprints")
    place(state, HOLMES, 0, "bribe", used=True)
    place(state, MORIARTY, 0, "bribe", used=True)
    assert card_value(state, 0, HOLMES, 1) == 3 + 1
    assert card_value(state, 0, MORIARTY, 0) == 3


def test_informant_draws_one_card():
    """Informant, used: draw 1 Influence Card."""
    state = course()
    place(state, HOLMES, 0, "informant")
    state, events = use(state, HOLMES, 0, 0)
    assert len(state.players[HOLMES].hand) == 1 and "cards_drawn" in kinds(events)


def test_street_urchin_moves_one_of_your_other_cards_to_another_thread():
    """Street Urchin, used: move one of your other Influence Cards to another Crime Thread;
    cards never change sides. (Rulebook: Action Cards, NOTE on moved cards)
    """
    state = course()
    place(state, HOLMES, 0, "street_urchin")
    place(state, HOLMES, 0, "telegram")
    place(state, HOLMES, 1, "cipher", support=True)
    state, _ = use(state, HOLMES, 0, 0)
    moves = [a.move_card for a in legal(state, HOLMES)]
    assert {(m.thread, m.index, m.to_thread) for m in moves} == {(0, 1, 1), (0, 1, 2)}
    state, events = act(state, HOLMES, move_card=dict(thread=0, index=1, to_thread=2))
    assert [c.card for c in state.threads[2].sides[HOLMES].cards] == [CARD_ID["telegram"]]
    assert kinds(events) == ["card_moved"] and not state.HasField("effect")


def test_witness_returns_an_opposing_card_to_its_owners_hand():
    """Witness, used: return one opposing non-Support card in this thread to its owner's hand."""
    state = course()
    place(state, HOLMES, 1, "witness")
    place(state, MORIARTY, 1, "telegram")
    place(state, MORIARTY, 1, "cipher", support=True)
    place(state, MORIARTY, 0, "bribe")
    state, _ = use(state, HOLMES, 1, 0)
    assert [(a.target_card.thread, a.target_card.index) for a in legal(state, HOLMES)] == [(1, 0)]
    state, _ = act(state, HOLMES, target_card=dict(thread=1, index=0))
    assert list(state.players[MORIARTY].hand) == [CARD_ID["telegram"]]
    assert len(state.threads[1].sides[MORIARTY].cards) == 1


def test_disguise_puts_a_distraction_token_on_an_opposing_used_card():
    """Disguise, used: cancel one opposing used card's effect; it keeps its value but its text
    no longer matters, and the token leaves at Archiving. (Rulebook: Distraction Tokens)
    """
    state = course()
    place(state, HOLMES, 0, "disguise")
    place(state, MORIARTY, 0, "fingerprints", used=True)
    place(state, MORIARTY, 0, "telegram")
    assert side_total(state, 0, HOLMES) == 1
    state, _ = use(state, HOLMES, 0, 0)
    state, events = act(state, HOLMES, target_card=dict(thread=0, index=0))
    assert state.threads[0].sides[MORIARTY].cards[0].distracted
    assert state.distraction_supply == 7 and kinds(events) == ["card_distracted"]
    assert side_total(state, 0, HOLMES) == 3
    assert side_total(state, 0, MORIARTY) == 2 + 4
    from parlour.games.clashofminds.summary import archive_table

    archive_table(state)
    assert state.distraction_supply == 8


def test_disguise_without_a_used_opposing_card_fizzles():
    """An effect with nothing to act on is spent without a choice."""
    state = course()
    place(state, HOLMES, 0, "disguise")
    place(state, MORIARTY, 0, "telegram")
    state, events = use(state, HOLMES, 0, 0)
    assert kinds(events)[-1] == "effect_fizzled" and not state.HasField("effect")


def test_bribe_makes_the_opponent_discard_a_random_card():
    """Bribe, used: your opponent discards 1 random card from his hand."""
    state = course(hands=((), ("telegram", "cipher")))
    place(state, HOLMES, 2, "bribe")
    state, events = use(state, HOLMES, 2, 0)
    assert len(state.players[MORIARTY].hand) == 1
    assert list(state.players[MORIARTY].discard) == list(events[-1].event.cards_discarded.cards)


def test_forged_letter_swaps_with_one_of_your_cards_in_another_thread():
    """Forged Letter, used: swap this card with one of your cards in another thread."""
    state = course()
    place(state, HOLMES, 0, "forged_letter")
    place(state, HOLMES, 2, "telegram")
    state, _ = use(state, HOLMES, 0, 0)
    state, events = act(state, HOLMES, target_card=dict(thread=2, index=0))
    assert state.threads[0].sides[HOLMES].cards[0].card == CARD_ID["telegram"]
    letter = state.threads[2].sides[HOLMES].cards[0]
    assert letter.card == CARD_ID["forged_letter"] and letter.used
    assert kinds(events) == ["card_moved", "card_moved"]


def test_cipher_discards_the_top_of_the_opponents_deck():
    """Cipher, used: your opponent discards the top card of his Influence Deck."""
    state = course()
    place(state, HOLMES, 0, "cipher")
    top = state.players[MORIARTY].deck[-1]
    state, _ = use(state, HOLMES, 0, 0)
    assert list(state.players[MORIARTY].discard) == [top]


def test_telegram_draws_two_then_discards_one():
    """Telegram, used: draw 2 Influence Cards, then discard 1 card from your hand."""
    state = course(hands=(("bribe",), ()))
    place(state, HOLMES, 0, "telegram")
    state, _ = use(state, HOLMES, 0, 0)
    assert len(state.players[HOLMES].hand) == 3 and GAME.pending(state)[0].kind == "choose_target"
    with pytest.raises(IllegalAction) as info:
        runtime.apply(GAME, state, HOLMES, pb.Action(end_turn=pb.EndTurn()))
    assert info.value.reason == "CHOOSE_EFFECT_TARGET"
    state, _ = act(state, HOLMES, discard_card=dict(card=CARD_ID["bribe"]))
    assert len(state.players[HOLMES].hand) == 2
    assert list(state.players[HOLMES].discard) == [CARD_ID["bribe"]]


def test_a_target_outside_the_legal_list_is_refused():
    """An effect's target must be one it allows."""
    state = course()
    give(state, MORIARTY, "cipher")
    place(state, HOLMES, 0, "witness")
    place(state, MORIARTY, 1, "telegram")
    place(state, MORIARTY, 0, "bribe")
    state, _ = use(state, HOLMES, 0, 0)
    with pytest.raises(IllegalAction) as info:
        runtime.apply(GAME, state, HOLMES, pb.Action(target_card=pb.TargetCard(thread=1)))
    assert info.value.reason == "NOT_A_TARGET"


def test_a_distracted_card_returned_to_hand_gives_its_token_back():
    """A Distraction Token leaves with its card (RULES.md 11). (Rulebook: Distraction Tokens)"""
    state = course()
    place(state, HOLMES, 0, "witness")
    place(state, MORIARTY, 0, "bribe", used=True)
    state.threads[0].sides[MORIARTY].cards[0].distracted = True
    state.distraction_supply -= 1
    state, _ = use(state, HOLMES, 0, 0)
    state, _ = act(state, HOLMES, target_card=dict(thread=0, index=0))
    assert state.distraction_supply == 8 and list(state.players[MORIARTY].hand) == [6]
