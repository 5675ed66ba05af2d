"""Agent Cards Included, in play: one Agent per player, drawn at the Start of the
Investigation, supported with Influence Cards from hand, activated on the owner's turn once
its Activation Cost is reached, and discarded at Archiving once activated."""

from __future__ import annotations

from collections.abc import Callable

from parlour.engine.game import Emitted, IllegalAction
from parlour.engine.zones import remove_one
from parlour.games.clashofminds import turns
from parlour.games.clashofminds.agents.cards import AGENT_ID, AGENTS
from parlour.games.clashofminds.catalogue import HOLMES, MORIARTY
from parlour.games.clashofminds.influence import has_person
from parlour.games.clashofminds.rounds import begin_setup, order_of_play
from parlour.games.clashofminds.table import (
    discard_random,
    discarded,
    draw,
    move_clock,
    only,
)
from parlour.games.clashofminds.targets import fizzled, wait_or_fizzle
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

AGENT = pb.EFFECT_SOURCE_AGENT
#: Phases with a player's turn, where an Agent may be activated (the Final Turn included).
TURN_PHASES = (pb.PHASE_COURSE, pb.PHASE_FINAL_PLACEMENT, pb.PHASE_FINAL_REVEAL)
#: The Agents whose ability gives +2 to threads holding a person-icon card.
PERSON_BONUS_AGENTS = {HOLMES: AGENT_ID["watson"], MORIARTY: AGENT_ID["moran"]}
PERSON_BONUS = 2


# -- the Start of the Investigation: one Agent in play per player ----------------------------
def continue_agents(state: pb.State, position: int) -> list[Emitted]:
    """Each player in order draws one Agent; one who already has an Agent keeps one of two."""
    events: list[Emitted] = []
    for seat in order_of_play(state)[position:]:
        player = state.players[seat]
        if not player.agent_deck:
            continue
        if player.agent.in_play:
            player.drawn_agent = player.agent_deck.pop()
            state.phase = pb.PHASE_AGENTS
            state.turn = seat
            return events + agent_drawn(seat, player.drawn_agent)
        player.agent.agent = player.agent_deck.pop()
        player.agent.in_play = True
        player.agent.activated = False
        events += agent_drawn(seat, player.agent.agent)
    return events + begin_setup(state)


def agent_drawn(seat: int, agent: int) -> list[Emitted]:
    """The draw of a face-down Agent: its name only in the owner's copy."""
    return [
        Emitted(pb.Event(agent_drawn=pb.AgentDrawn(seat=seat)), hidden_from=only(seat)),
        Emitted(pb.Event(agent_drawn=pb.AgentDrawn(seat=seat, agent=agent)), to=only(seat)),
    ]


def keep_agent(state: pb.State, seat: int, action: pb.Action) -> list[Emitted]:
    """Leave the Agent in play; the one just drawn goes face up onto the Agent discard pile."""
    player = state.players[seat]
    rejected = player.drawn_agent
    player.agent_discard.append(rejected)
    player.drawn_agent = 0
    events = [Emitted(pb.Event(agent_kept=pb.AgentKept(seat=seat))),
              Emitted(pb.Event(agent_discarded=pb.AgentDiscarded(seat=seat, agent=rejected)))]
    return events + continue_agents(state, order_of_play(state).index(seat) + 1)


def replace_agent(state: pb.State, seat: int, action: pb.Action) -> list[Emitted]:
    """Discard the Agent in play (face up); the one just drawn takes its place and Supports."""
    player = state.players[seat]
    old = player.agent.agent
    player.agent_discard.append(old)
    player.agent.agent = player.drawn_agent
    player.drawn_agent = 0
    events = [Emitted(pb.Event(agent_discarded=pb.AgentDiscarded(seat=seat, agent=old)))]
    return events + continue_agents(state, order_of_play(state).index(seat) + 1)


def keep_or_replace(state: pb.State, seat: int) -> list[pb.Action]:
    """The two choices of a player who drew an Agent beside the one in play."""
    return [pb.Action(keep_agent=pb.KeepAgent()), pb.Action(replace_agent=pb.ReplaceAgent())]


# -- Supports under the Agent ------------------------------------------------------------
def agent_open(state: pb.State, seat: int) -> bool:
    """Whether the player has an unactivated Agent to put Supports under."""
    agent = state.players[seat].agent
    return agent.in_play and not agent.activated


def add_support(state: pb.State, seat: int, action: pb.Action) -> list[Emitted]:
    """Add one Support Card: under your unactivated Agent (not in the Final Turn), else into
    its thread as in the base game."""
    support = action.add_support
    if not support.under_agent:
        return turns.add_support(state, seat, support)
    ctx = turns.support_context(state, seat, support)
    if ctx.final or not agent_open(state, seat):
        raise IllegalAction("NO_AGENT_TO_SUPPORT", "you have no unactivated Agent for it")
    player = state.players[seat]
    remove_one(player.hand, support.card, "CARD_NOT_IN_HAND")
    player.agent.supports.append(support.card)
    where = pb.SupportAdded(seat=seat, thread=0, under_agent=True)
    return turns.supported(state, seat, ctx, support, where)


def support_actions(state: pb.State, seat: int, card: int) -> list[pb.Action]:
    """Every card in hand under the unactivated Agent, with this Action Card."""
    if not agent_open(state, seat):
        return []
    return [pb.Action(add_support=pb.AddSupport(action_card=card, card=c, under_agent=True))
            for c in sorted(set(state.players[seat].hand))]


# -- activation -------------------------------------------------------------------------
def can_activate(state: pb.State, seat: int) -> bool:
    """Whether the Agent has enough Supports under it and may be activated now."""
    agent = state.players[seat].agent
    return (
        state.phase in TURN_PHASES and state.turn == seat and not state.HasField("effect")
        and agent_open(state, seat) and len(agent.supports) >= AGENTS[agent.agent].cost
    )


def activation(state: pb.State, seat: int) -> list[pb.Action]:
    """The Agent activation, when it is possible now."""
    return [pb.Action(activate_agent=pb.ActivateAgent())] if can_activate(state, seat) else []


def activate_agent(state: pb.State, seat: int, action: pb.Action) -> list[Emitted]:
    """Reveal the Agent and activate its ability (on your own turn, the Final Turn included)."""
    if not can_activate(state, seat):
        raise IllegalAction("AGENT_NOT_READY", "no Agent whose Activation Cost is reached")
    agent = state.players[seat].agent
    agent.activated = True
    events = [Emitted(pb.Event(agent_activated=pb.AgentActivated(seat=seat, agent=agent.agent)))]
    return events + ABILITIES[AGENTS[agent.agent].key](state, seat)


# -- abilities: when activated ------------------------------------------------------------
def _draw_two(state: pb.State, seat: int) -> list[Emitted]:
    """Mrs. Hudson / John Clay: draw 2 Influence Cards."""
    return draw(state, seat, 2)


def _constant(state: pb.State, seat: int) -> list[Emitted]:
    """Dr. Watson / Sebastian Moran / Inspector Lestrade act while in play (Summary)."""
    return []


def _milverton(state: pb.State, seat: int) -> list[Emitted]:
    """Holmes discards 2 random cards from his hand."""
    return discard_random(state, HOLMES, 2, "milverton") or fizzled(
        seat, AGENT, state.players[seat].agent.agent)


def _targeted(state: pb.State, seat: int) -> list[Emitted]:
    """Mycroft Holmes / Fred Porlock: choose a Crime Thread (a pending effect)."""
    return wait_or_fizzle(state, seat, AGENT, state.players[seat].agent.agent, 0, 0)


ABILITIES: dict[str, Callable[[pb.State, int], list[Emitted]]] = {
    "watson": _constant,
    "moran": _constant,
    "lestrade": _constant,
    "mrs_hudson": _draw_two,
    "john_clay": _draw_two,
    "milverton": _milverton,
    "mycroft": _targeted,
    "porlock": _targeted,
}


def _unseen_threads(state: pb.State) -> list[pb.Action]:
    return [pb.Action(target_thread=pb.TargetThread(thread=t))
            for t, ct in enumerate(state.threads) if not ct.revealed and not ct.seen_by_holmes]


def _token_threads(state: pb.State) -> list[pb.Action]:
    return [pb.Action(target_thread=pb.TargetThread(thread=t))
            for t, ct in enumerate(state.threads) if ct.deduction_token]


def _look(state: pb.State, effect: pb.PendingEffect, action: pb.Action) -> list[Emitted]:
    """Mycroft Holmes: Holmes looks at a face-down Crime Plan Card."""
    thread = action.target_thread.thread
    crime_thread = state.threads[thread]
    crime_thread.seen_by_holmes = True
    return [
        Emitted(
            pb.Event(crime_card_seen=pb.CrimeCardSeen(thread=thread)), hidden_from=only(HOLMES)
        ),
        Emitted(pb.Event(crime_card_seen=pb.CrimeCardSeen(
            thread=thread, crime_card=crime_thread.crime_card)), to=only(HOLMES)),
    ]


def _unmask(state: pb.State, effect: pb.PendingEffect, action: pb.Action) -> list[Emitted]:
    """Fred Porlock: a Deduction Token goes back to the supply."""
    thread = action.target_thread.thread
    state.threads[thread].deduction_token = False
    state.deduction_supply += 1
    return [Emitted(pb.Event(deduction_token_removed=pb.DeductionTokenRemoved(thread=thread)))]


TARGETS = {"mycroft": _unseen_threads, "porlock": _token_threads}
RESOLVERS = {"mycroft": _look, "porlock": _unmask}


# -- the Summary and Archiving ---------------------------------------------------------------
def activated(table: pb.State | pb.View, seat: int) -> int:
    """The player's Agent in play once activated, its ability in effect (0: none)."""
    agent = table.players[seat].agent
    return agent.agent if agent.in_play and agent.activated else 0


def person_bonus(table: pb.State | pb.View, thread: int, seat: int) -> int:
    """Dr. Watson / Sebastian Moran: +2 where the side holds a person-icon card."""
    on = activated(table, seat) == PERSON_BONUS_AGENTS[seat]
    return PERSON_BONUS if on and has_person(table, thread, seat) else 0


def lestrade(state: pb.State) -> list[Emitted]:
    """Inspector Lestrade, activated: the clock moves back 1 hour after the Conclusion."""
    return ([move_clock(state, -1, "lestrade")]
            if activated(state, HOLMES) == AGENT_ID["lestrade"] else [])


def discard_activated(state: pb.State, seat: int) -> list[Emitted]:
    """The activated Agent and the Supports used to activate it (its cost, the first placed)
    are discarded; any further Supports stay in the Agent's place for the next Agent."""
    player = state.players[seat]
    agent = player.agent
    if not activated(state, seat):
        return []
    cost = AGENTS[agent.agent].cost
    used, surplus = list(agent.supports[:cost]), list(agent.supports[cost:])
    player.agent_discard.append(agent.agent)
    events = [Emitted(pb.Event(agent_discarded=pb.AgentDiscarded(seat=seat, agent=agent.agent)))]
    if used:
        player.discard.extend(used)
        events.append(discarded(seat, used, "agent_activation"))
    player.agent.CopyFrom(pb.Agent(supports=surplus))
    return events
