"""Additional Game Mode: Agent Cards. (Rulebook: Additional Game Mode: Agent Cards Included)"""

from __future__ import annotations

from parlour.engine import runtime
from parlour.games.clashofminds import GAME
from parlour.games.clashofminds.agents.cards import AGENT_ID, AGENTS, DECKS
from parlour.games.clashofminds.influence import side_total
from parlour.games.clashofminds.summary import archive_table, conclude
from parlour.games.clashofminds.tests.positions import (
    CARD_ID,
    HOLMES,
    MORIARTY,
    act,
    agent,
    course,
    kinds,
    legal,
    place,
)
from parlour.games.clashofminds.turns import begin_final
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

SUPPORT = pb.ACTION_CARD_DRAW_OR_SUPPORT


def test_each_player_gets_a_shuffled_agent_deck_of_four():
    """Holmes shuffles both Agent Decks and gives Moriarty his. (Rule 1)"""
    state = GAME.new_state(pb.Options(agents=True), 2, seed=2)
    assert sorted(state.players[HOLMES].agent_deck) == DECKS[HOLMES]
    assert sorted(state.players[MORIARTY].agent_deck) == DECKS[MORIARTY]
    plain = GAME.new_state(pb.Options(), 2, seed=2)
    assert not plain.players[HOLMES].agent_deck


def test_an_agent_is_drawn_face_down_before_initial_setup():
    """Before Initial Setup preparation both draw one Agent, face down. (Rule 2)"""
    state = GAME.new_state(pb.Options(agents=True), 2, seed=2)
    state, events = runtime.apply(GAME, state, MORIARTY, GAME.legal_actions(state, MORIARTY)[0])
    assert all(p.agent.in_play and not p.agent.activated for p in state.players)
    assert state.phase == pb.PHASE_INITIAL_SETUP
    assert GAME.view(state, HOLMES).players[MORIARTY].agent.agent == 0
    assert GAME.view(state, MORIARTY).players[MORIARTY].agent.agent != 0
    public = [e.event.agent_drawn for e in events
              if e.event.HasField("agent_drawn") and e.to is None]
    assert [a.agent for a in public] == [0, 0]


def next_round(state: pb.State) -> tuple[pb.State, list]:
    """Finish Archiving for both players (Holmes is First Player), starting the next round."""
    state.phase = pb.PHASE_ARCHIVING
    state, _ = act(state, HOLMES, keep_hand={})
    return act(state, MORIARTY, keep_hand={})


def test_both_players_draw_an_agent_every_round_and_keep_one_of_two():
    """"Before Initial Setup Preparation, both players draw one Agent Card": a player whose
    unactivated Agent stayed draws too, sees the new card, and keeps one of the two; a player
    with no Agent in play simply places the drawn one (issue 16 item 2). (Rule 2; Rule 5)"""
    state = course(agents=True)
    agent(state, HOLMES, "mycroft", supports=1)
    state, events = next_round(state)
    holmes = state.players[HOLMES]
    assert state.phase == pb.PHASE_AGENTS and state.turn == HOLMES
    assert holmes.agent.agent == AGENT_ID["mycroft"] and holmes.drawn_agent
    assert len(holmes.agent_deck) == 2 and state.players[MORIARTY].agent.in_play
    assert GAME.view(state, HOLMES).players[HOLMES].drawn_agent == holmes.drawn_agent
    assert GAME.view(state, MORIARTY).players[HOLMES].drawn_agent == 0
    assert GAME.view(state, None).players[HOLMES].drawn_agent == 0
    assert [a.WhichOneof("kind") for a in legal(state, HOLMES)] == ["keep_agent", "replace_agent"]
    drawn = holmes.drawn_agent
    replaced, _ = act(state, HOLMES, replace_agent={})
    assert replaced.players[HOLMES].agent.agent == drawn
    assert list(replaced.players[HOLMES].agent_discard) == [AGENT_ID["mycroft"]]
    assert len(replaced.players[HOLMES].agent.supports) == 1
    assert replaced.players[HOLMES].drawn_agent == 0
    assert replaced.phase == pb.PHASE_INITIAL_SETUP
    kept, events = act(state, HOLMES, keep_agent={})
    assert kept.players[HOLMES].agent.agent == AGENT_ID["mycroft"]
    assert list(kept.players[HOLMES].agent_discard) == [drawn]
    assert kinds(events)[:2] == ["agent_kept", "agent_discarded"]


def test_an_agent_stays_without_a_choice_once_the_agent_deck_is_empty():
    """Agent Decks are not reshuffled: with none left to draw, the Agent in play simply stays.
    (Rule 2; Rule 5; RULES.md, Agents)"""
    state = course(agents=True)
    agent(state, HOLMES, "mycroft", supports=1)
    state.players[HOLMES].agent_discard.extend(state.players[HOLMES].agent_deck)
    del state.players[HOLMES].agent_deck[:]
    state, _ = next_round(state)
    assert state.phase == pb.PHASE_INITIAL_SETUP
    assert state.players[HOLMES].agent.agent == AGENT_ID["mycroft"]


def test_support_under_the_agent_then_activation_at_the_cost():
    """Add one Support Card may place it under the Agent; the Agent may be activated once the
    Supports under it reach its Activation Cost. (Rules 3 and 4)"""
    state = course(agents=True, hands=(("bribe", "cipher"), ()))
    agent(state, HOLMES, "mrs_hudson")
    assert not any(a.HasField("activate_agent") for a in legal(state, HOLMES))
    state, _ = act(state, HOLMES, add_support=dict(action_card=SUPPORT, card=CARD_ID["bribe"],
                                                   under_agent=True))
    assert list(state.players[HOLMES].agent.supports) == [CARD_ID["bribe"]]
    assert GAME.view(state, MORIARTY).players[HOLMES].agent.supports == [0]
    state, events = act(state, HOLMES, activate_agent={})
    assert state.players[HOLMES].agent.activated
    assert kinds(events)[0] == "agent_activated" and len(state.players[HOLMES].hand) == 3
    assert GAME.view(state, MORIARTY).players[HOLMES].agent.agent == AGENT_ID["mrs_hudson"]


def test_activated_agents_and_their_supports_are_discarded_at_archiving():
    """Agents activated this round and the Supports used to activate them are discarded;
    unactivated Agents stay. (Rule 5)"""
    state = course(agents=True)
    agent(state, HOLMES, "lestrade", supports=2)
    agent(state, MORIARTY, "porlock", supports=1)
    state.players[HOLMES].agent.activated = True
    archive_table(state)
    assert not state.players[HOLMES].agent.in_play
    assert list(state.players[HOLMES].agent_discard) == [AGENT_ID["lestrade"]]
    assert len(state.players[HOLMES].discard) == 2 and not state.players[HOLMES].agent.supports
    assert state.players[MORIARTY].agent.in_play


def test_supports_beyond_the_activation_cost_stay_for_the_next_agent():
    """"Support Cards used to activate an Agent's ability are discarded": with 3 Supports under
    Inspector Lestrade (cost 2) the first 2 go, the third stays and serves the next Agent
    (issue 16 item 5). (Rule 5; RULES.md, Agents)"""
    state = course(agents=True)
    agent(state, HOLMES, "lestrade", supports=3)
    first, second, third = state.players[HOLMES].agent.supports
    state, _ = act(state, HOLMES, activate_agent={})
    archive_table(state)
    state, events = next_round(state)
    holmes = state.players[HOLMES]
    assert sorted(holmes.discard) == sorted([first, second])
    assert list(holmes.agent.supports) == [third] and holmes.agent.in_play
    assert holmes.agent.agent != AGENT_ID["lestrade"] and not holmes.agent.activated
    assert GAME.view(state, MORIARTY).players[HOLMES].agent.supports == [0]


def test_an_agent_may_be_activated_on_its_owners_final_turn_steps():
    """"The ability can be activated only on the active player's turn": in the Final Turn the
    player placing or revealing may activate; it does not pass his step (issue 16 item 5).
    (Rule 4; Final Turn Overview)"""
    state = course(agents=True, hands=(("bribe",), ("cipher",)))
    agent(state, HOLMES, "mrs_hudson", supports=1)
    agent(state, MORIARTY, "john_clay", supports=1)
    begin_final(state)
    assert any(a.HasField("activate_agent") for a in legal(state, HOLMES))
    state, events = act(state, HOLMES, activate_agent={})
    assert state.turn == HOLMES and len(state.players[HOLMES].hand) == 3
    assert not any(a.HasField("activate_agent") for a in legal(state, HOLMES))
    for card in (1, 2, 3, 4):
        for seat in (HOLMES, MORIARTY):
            state, _ = act(state, seat, place_action_card=dict(card=card, thread=0))
    assert state.phase == pb.PHASE_FINAL_REVEAL and state.turn == HOLMES
    state, _ = act(state, HOLMES, reveal_action_card=dict(card=1))
    state, _ = act(state, HOLMES, skip_action={})
    assert state.turn == MORIARTY
    state, _ = act(state, MORIARTY, activate_agent={})
    assert state.turn == MORIARTY and len(state.players[MORIARTY].hand) == 3
    state, _ = act(state, MORIARTY, reveal_action_card=dict(card=2))
    state, _ = act(state, MORIARTY, skip_action={})
    assert state.turn == HOLMES


def test_watson_and_moran_add_two_where_a_person_card_is():
    """Dr. Watson / Sebastian Moran (cost 1): threads on your side with at least 1 person-icon
    card have +2 Influence Value. (Rulebook: Agent Cards, example)"""
    assert AGENTS[AGENT_ID["moran"]].cost == 1
    state = course(agents=True)
    agent(state, MORIARTY, "moran", supports=1)
    agent(state, HOLMES, "watson", supports=1)
    place(state, MORIARTY, 0, "informant")
    place(state, MORIARTY, 1, "bribe")
    place(state, HOLMES, 2, "witness")
    assert side_total(state, 0, MORIARTY) == 2
    state.players[MORIARTY].agent.activated = True
    state.players[HOLMES].agent.activated = True
    assert side_total(state, 0, MORIARTY) == 4 and side_total(state, 1, MORIARTY) == 2
    assert side_total(state, 2, HOLMES) == 4


def test_john_clay_draws_two():
    """John Clay (cost 1): draw 2 Influence Cards."""
    state = course(agents=True, turn=MORIARTY, hands=((), ("bribe",)))
    agent(state, MORIARTY, "john_clay", supports=1)
    state, _ = act(state, MORIARTY, activate_agent={})
    assert len(state.players[MORIARTY].hand) == 3


def test_lestrade_moves_the_clock_back_at_this_summary():
    """Inspector Lestrade (cost 2): at this round's Summary, move the Time Marker back 1 hour."""
    state = course(agents=True, hours=4)
    agent(state, HOLMES, "lestrade", supports=2)
    state, _ = act(state, HOLMES, activate_agent={})
    conclude(state)
    assert state.hours == 3


def test_mycroft_shows_holmes_one_face_down_crime_card():
    """Mycroft Holmes (cost 3): look at one face-down Crime Plan Card."""
    state = course(agents=True)
    agent(state, HOLMES, "mycroft", supports=3)
    state.threads[0].revealed = True
    state, _ = act(state, HOLMES, activate_agent={})
    assert [a.target_thread.thread for a in legal(state, HOLMES)] == [1, 2]
    state, events = act(state, HOLMES, target_thread=dict(thread=2))
    assert GAME.view(state, HOLMES).threads[2].crime_card == state.threads[2].crime_card
    assert GAME.view(state, HOLMES).threads[1].crime_card == 0
    assert GAME.view(state, None).threads[2].crime_card == 0
    public = [e for e in events if e.to is None]
    assert public[0].event.crime_card_seen.crime_card == 0


def test_milverton_makes_holmes_discard_two_random_cards():
    """Charles Augustus Milverton (cost 2): Holmes discards 2 random cards."""
    state = course(agents=True, turn=MORIARTY, hands=(("bribe", "cipher", "witness"), ()))
    agent(state, MORIARTY, "milverton", supports=2)
    state, _ = act(state, MORIARTY, activate_agent={})
    assert len(state.players[HOLMES].hand) == 1 and len(state.players[HOLMES].discard) == 2


def test_porlock_removes_a_deduction_token():
    """Fred Porlock (cost 3): remove one Deduction Token from a Crime Plan Card."""
    state = course(agents=True, turn=MORIARTY)
    agent(state, MORIARTY, "porlock", supports=3)
    state.threads[1].deduction_token = True
    state.deduction_supply -= 1
    state, _ = act(state, MORIARTY, activate_agent={})
    state, events = act(state, MORIARTY, target_thread=dict(thread=1))
    assert not state.threads[1].deduction_token and state.deduction_supply == 3


def test_agents_activate_only_on_their_owners_turn():
    """The ability can be activated only on the active player's turn. (Rule 4)"""
    state = course(agents=True, turn=HOLMES)
    agent(state, MORIARTY, "john_clay", supports=1)
    assert GAME.pending(state)[0].seat == HOLMES
    assert runtime.legal_actions(GAME, state, MORIARTY) == []
