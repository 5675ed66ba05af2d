"""Course of the Investigation: turns, Action Cards, Support Cards, the Final Turn triggers."""

from __future__ import annotations

import pytest

from parlour.engine import runtime
from parlour.engine.game import IllegalAction
from parlour.games.clashofminds import GAME
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

MANDATORY = pb.ACTION_CARD_MANDATORY
DRAW_OR_USE = pb.ACTION_CARD_DRAW_OR_USE
USE_OR_SUPPORT = pb.ACTION_CARD_USE_OR_SUPPORT
DRAW_OR_SUPPORT = pb.ACTION_CARD_DRAW_OR_SUPPORT


def refused(state, seat, reason, **action):
    with pytest.raises(IllegalAction) as info:
        runtime.apply(GAME, state, seat, pb.Action(**action))
    assert info.value.reason == reason


def test_mandatory_action_comes_before_ending_the_turn():
    """The player must put one Influence Card into play; he may end his turn after only the
    mandatory action. (Rulebook: Action Cards, Mandatory Action; B. NOTE)
    """
    state = course(hands=(("informant", "bribe"), ("cipher",)))
    refused(state, HOLMES, "MANDATORY_ACTION_FIRST", end_turn={})
    state, _ = act(state, HOLMES, play_influence=dict(card=CARD_ID["bribe"], thread=2))
    assert [c.card for c in state.threads[2].sides[HOLMES].cards] == [CARD_ID["bribe"]]
    state, events = act(state, HOLMES, end_turn={})
    assert state.turn == MORIARTY and kinds(events) == ["turn_ended"]


def test_mandatory_action_ends_when_the_hand_is_empty():
    """With no Influence Card in hand, using the Mandatory Action simply ends.
    (Rulebook: Action Cards, NOTE on the Obligatory Action)
    """
    state = course(hands=((), ("cipher",)))
    assert "play_influence" not in [a.WhichOneof("kind") for a in legal(state, HOLMES)]
    state, _ = act(state, HOLMES, pass_mandatory={})
    assert MANDATORY in state.players[HOLMES].used_actions
    other = course(hands=(("cipher",), ()))
    refused(other, HOLMES, "MUST_PLAY_A_CARD", pass_mandatory={})


def test_each_action_card_is_used_once_per_turn_and_refreshed_next_turn():
    """After use an Action Card is turned face down; at the beginning of his turn the player
    flips all used Action Cards back. (Rulebook: B. Course of the Investigation)
    """
    state = course(hands=(("informant", "bribe"), ("cipher", "witness")))
    state, _ = act(state, HOLMES, draw_influence=dict(action_card=DRAW_OR_USE))
    refused(state, HOLMES, "ACTION_CARD_NOT_AVAILABLE",
            draw_influence=dict(action_card=DRAW_OR_USE))
    state, _ = act(state, HOLMES, play_influence=dict(card=CARD_ID["bribe"], thread=0))
    state, _ = act(state, HOLMES, end_turn={})
    state, _ = act(state, MORIARTY, play_influence=dict(card=CARD_ID["cipher"], thread=0))
    state, _ = act(state, MORIARTY, end_turn={})
    assert list(state.players[HOLMES].used_actions) == []
    state, _ = act(state, HOLMES, draw_influence=dict(action_card=DRAW_OR_USE))


def test_an_optional_card_gives_one_of_its_two_actions_only():
    """The player chooses one action printed on the card, never both.
    (Rulebook: Action Cards, Optional Actions)
    """
    state = course(hands=(("informant", "bribe"), ()))
    place(state, HOLMES, 0, "cipher")
    state, _ = act(state, HOLMES, use_influence=dict(action_card=USE_OR_SUPPORT, thread=0, index=0))
    refused(state, HOLMES, "ACTION_CARD_NOT_AVAILABLE", add_support=dict(
        action_card=USE_OR_SUPPORT, card=CARD_ID["bribe"], thread=1))
    refused(state, HOLMES, "NOT_ON_THIS_CARD", add_support=dict(
        action_card=DRAW_OR_USE, card=CARD_ID["bribe"], thread=1))


def test_use_turns_the_card_and_a_used_card_cannot_be_used_again():
    """Using a card turns it horizontally and resolves its effect; it is then used for the
    round. (Rulebook: Optional Actions, Use one Influence Card)
    """
    state = course(hands=((), ()))
    place(state, HOLMES, 1, "informant")
    state, events = act(state, HOLMES, use_influence=dict(
        action_card=DRAW_OR_USE, thread=1, index=0))
    assert state.threads[1].sides[HOLMES].cards[0].used
    assert "cards_drawn" in kinds(events)
    refused(state, HOLMES, "CARD_NOT_USABLE",
            use_influence=dict(action_card=USE_OR_SUPPORT, thread=1, index=0))


def test_support_card_is_face_down_worth_one_and_hidden_from_the_opponent():
    """Add one Support Card: a card from hand goes face down into a thread with value 1.
    (Rulebook: Optional Actions, Add one Support Card)
    """
    from parlour.games.clashofminds.influence import side_total

    state = course(hands=(("telegram", "bribe"), ()))
    state, events = act(state, HOLMES, add_support=dict(
        action_card=DRAW_OR_SUPPORT, card=CARD_ID["telegram"], thread=2))
    card = state.threads[2].sides[HOLMES].cards[0]
    assert card.support and side_total(state, 2, HOLMES) == 1
    assert GAME.view(state, MORIARTY).threads[2].sides[HOLMES].cards[0].card == 0
    assert GAME.view(state, HOLMES).threads[2].sides[HOLMES].cards[0].card == CARD_ID["telegram"]
    public = [e for e in events if e.to is None and e.event.HasField("support_added")]
    assert public[0].event.support_added.card == 0


def test_cards_are_placed_only_on_your_own_side():
    """A player places and moves cards only on his side of the table.
    (Rulebook: Action Cards, NOTE on sides)
    """
    state = course(hands=(("bribe",), ()))
    state, _ = act(state, HOLMES, play_influence=dict(card=CARD_ID["bribe"], thread=1))
    assert len(state.threads[1].sides[HOLMES].cards) == 1
    assert len(state.threads[1].sides[MORIARTY].cards) == 0


def test_limit_reached_gives_the_opponent_one_last_turn_then_the_final_turn():
    """When a player ends his turn with as many cards in play as the site's limit, the opponent
    takes one last turn and the Final Turn begins. (Rulebook: Final Turn, case 1)
    """
    state = course(site="whitechapel", hands=(("bribe", "cipher"), ("witness", "informant")))
    for key in ("informant", "informant", "street_urchin"):
        place(state, HOLMES, 0, key)
    state, _ = act(state, HOLMES, play_influence=dict(card=CARD_ID["bribe"], thread=0))
    state, events = act(state, HOLMES, end_turn={})
    assert state.last_turn and kinds(events)[-1] == "last_turn_began" and state.turn == MORIARTY
    state, _ = act(state, MORIARTY, play_influence=dict(card=CARD_ID["witness"], thread=1))
    state, events = act(state, MORIARTY, end_turn={})
    assert state.phase == pb.PHASE_FINAL_PLACEMENT and state.turn == HOLMES
    assert "final_turn_began" in kinds(events)


def test_influence_limit_stops_more_cards_entering_play():
    """The site's limit is the number of Influence Cards one player can play in the round;
    Supports do not count. (Rulebook: Investigation Site Cards; Final Turn, case 1)
    """
    state = course(site="whitechapel", hands=(("bribe", "cipher"), ()))
    for key in ("informant", "informant", "street_urchin", "witness"):
        place(state, HOLMES, 0, key)
    place(state, HOLMES, 1, "disguise", support=True)
    refused(state, HOLMES, "INFLUENCE_LIMIT_REACHED",
            play_influence=dict(card=CARD_ID["bribe"], thread=0))
    assert [a.WhichOneof("kind") for a in legal(state, HOLMES)].count("pass_mandatory") == 1


def test_both_hands_empty_after_the_mandatory_action_start_the_final_turn():
    """When both players have no cards in hand and use the Mandatory Action to finish their
    turns, the Final Turn begins. (Rulebook: Final Turn, case 2)
    """
    state = course(hands=((), ()))
    for player in state.players:
        player.discard.extend(player.deck)
        del player.deck[:]
    state, _ = act(state, HOLMES, pass_mandatory={})
    state, _ = act(state, HOLMES, end_turn={})
    assert state.phase == pb.PHASE_COURSE and state.empty_turns == 1
    state, _ = act(state, MORIARTY, pass_mandatory={})
    state, events = act(state, MORIARTY, end_turn={})
    assert state.phase == pb.PHASE_FINAL_PLACEMENT and "final_turn_began" in kinds(events)


def test_an_empty_deck_is_rebuilt_from_the_discard_pile():
    """Drawing from an empty Influence Deck shuffles the discard pile into a new deck.
    (Rulebook: A.2 NOTE)
    """
    state = course(hands=((), ()))
    player = state.players[HOLMES]
    player.discard.extend(player.deck)
    del player.deck[:]
    state, events = act(state, HOLMES, draw_influence=dict(action_card=DRAW_OR_USE))
    assert kinds(events)[1:3] == ["deck_reshuffled", "cards_drawn"]
    assert len(state.players[HOLMES].deck) == 19 and not state.players[HOLMES].discard


def test_final_turn_case_two_needs_both_hands_empty_when_the_second_turn_ends():
    """"When both players have no more Influence Cards in their hands and they use the
    Mandatory Action to finish their turns": a Witness that returns a card to the other hand
    between the two empty turns stops the Final Turn (issue 16 item 1).
    (Rulebook: Final Turn, case 2)
    """
    state = course(hands=((), ()))
    place(state, HOLMES, 0, "informant")
    place(state, MORIARTY, 0, "witness")
    state, _ = act(state, HOLMES, pass_mandatory={})
    state, _ = act(state, HOLMES, end_turn={})
    assert state.empty_turns == 1
    state, _ = act(state, MORIARTY, pass_mandatory={})
    state, _ = act(state, MORIARTY, use_influence=dict(action_card=DRAW_OR_USE, thread=0, index=0))
    state, _ = act(state, MORIARTY, target_card=dict(thread=0, index=0))
    assert list(state.players[HOLMES].hand) == [CARD_ID["informant"]]
    state, events = act(state, MORIARTY, end_turn={})
    assert state.phase == pb.PHASE_COURSE and "final_turn_began" not in kinds(events)
    assert state.turn == HOLMES and state.empty_turns == 1
    assert "pass_mandatory" not in [a.WhichOneof("kind") for a in legal(state, HOLMES)]
    state, _ = act(state, HOLMES, play_influence=dict(card=CARD_ID["informant"], thread=1))
    state, _ = act(state, HOLMES, end_turn={})
    assert state.empty_turns == 0 and state.phase == pb.PHASE_COURSE


def test_the_last_card_in_hand_cannot_dodge_the_mandatory_action_as_a_support():
    """"During his turn the player must place one Influence Card": while the Mandatory Action is
    unused and could play it, the last card in hand may not become a Support (issue 16 item 4).
    (Rulebook: Action Cards, Mandatory Action)
    """
    state = course(hands=(("bribe",), ()))
    assert not any(a.HasField("add_support") for a in legal(state, HOLMES))
    refused(state, HOLMES, "KEEP_A_CARD_TO_PLAY", add_support=dict(
        action_card=DRAW_OR_SUPPORT, card=CARD_ID["bribe"], thread=0))
    two = course(hands=(("bribe", "cipher"), ()))
    two, _ = act(two, HOLMES, add_support=dict(
        action_card=DRAW_OR_SUPPORT, card=CARD_ID["bribe"], thread=0))
    refused(two, HOLMES, "KEEP_A_CARD_TO_PLAY", add_support=dict(
        action_card=USE_OR_SUPPORT, card=CARD_ID["cipher"], thread=0))
    two, _ = act(two, HOLMES, play_influence=dict(card=CARD_ID["cipher"], thread=1))
    assert MANDATORY in two.players[HOLMES].used_actions


def test_a_last_card_that_cannot_be_played_may_still_become_a_support():
    """At the Influence Card Limit the Mandatory Action has nothing to place, so the last card
    may go face down as a Support. (Rulebook: Action Cards, Mandatory Action and its NOTE;
    Investigation Site Cards, limit)
    """
    state = course(site="whitechapel", hands=(("bribe",), ()))
    for key in ("informant", "informant", "street_urchin", "witness"):
        place(state, HOLMES, 0, key)
    state, _ = act(state, HOLMES, add_support=dict(
        action_card=DRAW_OR_SUPPORT, card=CARD_ID["bribe"], thread=1))
    state, _ = act(state, HOLMES, pass_mandatory={})
    assert state.threads[1].sides[HOLMES].cards[0].support
