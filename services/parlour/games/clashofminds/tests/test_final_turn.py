"""The Final Turn: Action Cards placed face down alternately, then revealed and used or skipped."""

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
from parlour.games.clashofminds.turns import begin_final
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

MANDATORY = pb.ACTION_CARD_MANDATORY
DRAW_OR_USE = pb.ACTION_CARD_DRAW_OR_USE
USE_OR_SUPPORT = pb.ACTION_CARD_USE_OR_SUPPORT
DRAW_OR_SUPPORT = pb.ACTION_CARD_DRAW_OR_SUPPORT
CARDS = (MANDATORY, DRAW_OR_USE, USE_OR_SUPPORT, DRAW_OR_SUPPORT)


def final_position(first_player: int = HOLMES) -> pb.State:
    state = course(hands=(("bribe", "cipher"), ("witness", "informant")))
    place(state, HOLMES, 0, "informant")
    place(state, MORIARTY, 1, "street_urchin")
    state.first_player = first_player
    begin_final(state)
    return state


def place_all(state: pb.State, threads=(0, 1, 2, 0)) -> pb.State:
    for card, thread in zip(CARDS, threads, strict=True):
        for seat in (state.first_player, 1 - state.first_player):
            state, _ = act(state, seat, place_action_card=dict(card=card, thread=thread))
    return state


def test_action_cards_are_placed_alternately_face_down_from_the_first_player():
    """Starting with the First Player, both place one Action Card face down at a time until all
    4 of each are in threads. (Rulebook: Final Turn Overview)
    """
    state = final_position(first_player=MORIARTY)
    assert state.phase == pb.PHASE_FINAL_PLACEMENT and state.turn == MORIARTY
    state, events = act(state, MORIARTY, place_action_card=dict(card=DRAW_OR_USE, thread=2))
    assert state.turn == HOLMES
    public = [e.event.action_card_placed for e in events if e.to is None]
    assert public[0].card == pb.ACTION_CARD_UNSPECIFIED and public[0].thread == 2
    assert GAME.view(state, HOLMES).players[MORIARTY].final_slots[0].card == 0
    assert GAME.view(state, MORIARTY).players[MORIARTY].final_slots[0].card == DRAW_OR_USE
    state = final_position()
    state = place_all(state, threads=(2, 2, 2, 2))
    assert state.phase == pb.PHASE_FINAL_REVEAL and state.turn == HOLMES


def test_cards_are_revealed_alternately_and_each_may_be_skipped():
    """Starting with the First Player, players alternately reveal one card and use it or not;
    even the Mandatory Action may be skipped. (Rulebook: Final Turn Overview)
    """
    state = place_all(final_position())
    state, _ = act(state, HOLMES, reveal_action_card=dict(card=MANDATORY))
    assert GAME.pending(state)[0].kind == "resolve_action_card"
    state, events = act(state, HOLMES, skip_action={})
    assert kinds(events) == ["action_skipped"] and state.turn == MORIARTY
    state, _ = act(state, MORIARTY, reveal_action_card=dict(card=DRAW_OR_SUPPORT))
    state, _ = act(state, MORIARTY, skip_action={})
    assert state.turn == HOLMES


def test_a_final_turn_action_applies_only_to_its_own_thread():
    """Put into play, Use and Add Support apply to the thread where the Action Card was put.
    (Rulebook: Final Turn, different effects)
    """
    state = place_all(final_position(), threads=(1, 0, 2, 0))
    state, _ = act(state, HOLMES, reveal_action_card=dict(card=MANDATORY))
    plays = [a.play_influence for a in legal(state, HOLMES) if a.HasField("play_influence")]
    assert {p.thread for p in plays} == {1}
    with pytest.raises(IllegalAction) as info:
        runtime.apply(GAME, state, HOLMES, pb.Action(
            play_influence=pb.PlayInfluence(card=CARD_ID["bribe"], thread=0)))
    assert info.value.reason == "WRONG_THREAD"
    state, _ = act(state, HOLMES, play_influence=dict(card=CARD_ID["bribe"], thread=1))
    assert state.threads[1].sides[HOLMES].cards[0].card == CARD_ID["bribe"]
    state, _ = act(state, MORIARTY, reveal_action_card=dict(card=DRAW_OR_USE))
    state, _ = act(state, MORIARTY, skip_action={})
    state, _ = act(state, HOLMES, reveal_action_card=dict(card=DRAW_OR_USE))
    uses = [a.use_influence for a in legal(state, HOLMES) if a.HasField("use_influence")]
    assert [(u.thread, u.index) for u in uses] == [(0, 0)]
    state, events = act(state, HOLMES, use_influence=dict(action_card=DRAW_OR_USE, thread=0,
                                                          index=0))
    assert "cards_drawn" in kinds(events)


def test_after_all_eight_cards_the_summary_follows():
    """After both players have used or skipped all their actions, the Summary begins.
    (Rulebook: Final Turn; C. Summary of the Investigation)
    """
    state = place_all(final_position())
    events = []
    for _ in range(8):
        seat = state.turn
        card = next(s.card for s in state.players[seat].final_slots if not s.revealed)
        state, _ = act(state, seat, reveal_action_card=dict(card=card))
        state, events = act(state, seat, skip_action={})
    assert kinds(events).count("thread_concluded") == 3
    assert state.phase in (pb.PHASE_ARCHIVING, pb.PHASE_OVER)


def test_final_turn_support_goes_into_its_thread_not_under_an_agent():
    """A Final Turn 'Add one Support Card' applies to the card's own thread only (RULES.md 16).
    (Rulebook: Final Turn, different effects; Additional Game Mode, rule 3)"""
    state = course(agents=True, hands=(("bribe",), ("cipher",)))
    state.players[HOLMES].agent_deck.remove(2)
    state.players[HOLMES].agent.agent, state.players[HOLMES].agent.in_play = 2, True
    begin_final(state)
    state = place_all(state, threads=(0, 0, 2, 1))
    state, _ = act(state, HOLMES, reveal_action_card=dict(card=USE_OR_SUPPORT))
    supports = [a.add_support for a in legal(state, HOLMES) if a.HasField("add_support")]
    assert [(s.thread, s.under_agent) for s in supports] == [(2, False)]
    with pytest.raises(IllegalAction) as info:
        runtime.apply(GAME, state, HOLMES, pb.Action(add_support=pb.AddSupport(
            action_card=USE_OR_SUPPORT, card=CARD_ID["bribe"], under_agent=True)))
    assert info.value.reason == "NO_AGENT_TO_SUPPORT"
    assert not any(a.HasField("activate_agent") for a in legal(state, HOLMES))
