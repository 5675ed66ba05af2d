"""Agent Cards Included in words: its moves, events, prompt and table lines, in the rulebook's
terms (the conventions of text.py)."""

from __future__ import annotations

from parlour.engine.text import item, seat
from parlour.engine.v1.table_pb2 import TableItem
from parlour.games.clashofminds import text
from parlour.games.clashofminds.agents.cards import AGENTS, agent
from parlour.games.clashofminds.hooks import Words
from parlour.games.clashofminds.names import (
    action_card,
    card_name,
    effect_key,
    influence,
    plural,
    thread,
)
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb


def _own_agent(view: pb.View, viewer: int) -> str:
    shown = view.players[viewer].agent
    return f"your Agent {agent(shown.agent)}" if shown.agent else "your Agent"


def _support(view: pb.View, viewer: int, a: pb.AddSupport) -> str:
    if not a.under_agent:
        return text.LABELS["add_support"](view, viewer, a)
    return (f"add {influence(a.card)} as a Support Card under {_own_agent(view, viewer)} "
            f"with {action_card(a.action_card)}")


def _agents(view: pb.View, viewer: int, keep: bool) -> str:
    mine = view.players[viewer]
    now, drawn = agent(mine.agent.agent), agent(mine.drawn_agent)
    return f"keep {now} and discard {drawn}" if keep else f"replace {now} with {drawn}"


def _support_action(a: pb.AddSupport) -> str:
    if not a.under_agent:
        return text.ACTIONS["add_support"](a)
    return f"add a Support Card under the Agent with {action_card(a.action_card)}"


def _support_added(e: pb.SupportAdded) -> str:
    if not e.under_agent:
        return text.EVENTS["support_added"](e)
    what = f"{card_name(e.card)} as a Support Card" if e.card else "a Support Card"
    return f"{seat(e.seat)} added {what} under the Agent"


def _target_thread(view: pb.View, viewer: int, a: pb.TargetThread) -> str:
    if effect_key(view.effect) == "porlock":
        return f"remove the Deduction Token from {thread(a.thread)} (Fred Porlock)"
    return f"look at the face-down Crime Plan Card of {thread(a.thread)} (Mycroft Holmes)"


def _prompt(view: pb.View, me: int) -> str:
    mine = view.players[me] if me < len(view.players) else pb.PlayerView()
    return (f"Start of the Investigation: keep your Agent {agent(mine.agent.agent)} or "
            f"replace it with {agent(mine.drawn_agent)}, just drawn.")


def player_lines(view: pb.View, n: int, viewer: int | None) -> list[TableItem | str]:
    """A player's Agent in play (and the Supports under it), the one just drawn, the Agent
    Deck and the discarded Agents, as the viewer may see them."""
    shown = view.players[n]
    spec = shown.agent
    lines: list[TableItem | str] = []
    supports = plural(len(spec.supports), "Support Card")
    if spec.supports and all(spec.supports):
        supports += ": " + ", ".join(card_name(c) for c in spec.supports)
    if spec.in_play:
        state = "activated" if spec.activated else "face down"
        name = f"{agent(spec.agent)}, {state}" if spec.agent else state
        rule = AGENTS[spec.agent].text if spec.agent else ""
        lines.append(item(f"Agent: {name}; under it {supports}", rule))
    elif spec.supports:
        lines.append(f"Waiting in the Agent's place for the next Agent: {supports}")
    if shown.drawn_agent:
        lines.append(item(f"Agent just drawn: {agent(shown.drawn_agent)}: keep one of the two",
                          AGENTS[shown.drawn_agent].text))
    if n == viewer and view.own_agent_deck:
        lines.append("Agent Deck: " + ", ".join(agent(a) for a in view.own_agent_deck))
    elif shown.agent_deck_size:
        lines.append(f"Agent Deck: {plural(shown.agent_deck_size, 'card')}")
    if shown.agent_discard:
        lines.append("Discarded Agents: " + ", ".join(agent(a) for a in shown.agent_discard))
    return lines


WORDS = Words(
    labels={
        "keep_agent": lambda v, s, a: _agents(v, s, keep=True),
        "replace_agent": lambda v, s, a: _agents(v, s, keep=False),
        "add_support": _support,
        "activate_agent": lambda v, s, a: f"reveal and activate {_own_agent(v, s)}",
        "target_thread": _target_thread,
    },
    actions={
        "keep_agent": lambda a: "keep the Agent in play",
        "replace_agent": lambda a: "replace the Agent in play with the one just drawn",
        "add_support": _support_action,
        "activate_agent": lambda a: "reveal and activate the Agent",
    },
    events={
        "agent_drawn": lambda e: f"{seat(e.seat)} drew " + (
            f"{agent(e.agent)} face down" if e.agent else "an Agent face down"),
        "agent_kept": lambda e: f"{seat(e.seat)} kept the Agent in play",
        "agent_discarded": lambda e: f"{seat(e.seat)} discarded the Agent {agent(e.agent)}",
        "support_added": _support_added,
        "agent_activated": lambda e: f"{seat(e.seat)} revealed and activated {agent(e.agent)}",
    },
    phases={pb.PHASE_AGENTS: "Start of the Investigation: the Agents"},
    clock_causes={"lestrade": "Inspector Lestrade"},
    discard_causes={"milverton": "because of Charles Augustus Milverton",
                    "agent_activation": "from under the activated Agent"},
    prompts={pb.PHASE_AGENTS: _prompt},
    target_prompts={
        "mycroft": "choose a Crime Thread whose face-down Crime Plan Card you look at",
        "porlock": "choose a Crime Thread to remove its Deduction Token",
    },
    turn_notes={"activate_agent": "your Agent can be activated"},
    reasons={
        "AGENT_NOT_READY": "No Agent of yours has reached its Activation Cost.",
        "NO_AGENT_TO_SUPPORT": "You have no unactivated Agent for that Support Card.",
    },
    decisions={"keep_or_replace_agent": "Keep the Agent drawn or replace it."},
    preference={"activate_agent": "add_support", "keep_agent": "place_setup_card",
                "replace_agent": "place_setup_card"},
)
