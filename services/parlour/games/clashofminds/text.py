"""One readable line per action and per event, for logs and the demo feed."""

from __future__ import annotations

from parlour.games.clashofminds.catalogue import CATALOGUE, HOLMES
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

ACTION_NAMES = {
    pb.ACTION_CARD_MANDATORY: "the Mandatory card",
    pb.ACTION_CARD_DRAW_OR_USE: "the Draw/Use card",
    pb.ACTION_CARD_USE_OR_SUPPORT: "the Use/Support card",
    pb.ACTION_CARD_DRAW_OR_SUPPORT: "the Draw/Support card",
}
RESULTS = {
    pb.RESULT_MORIARTY_VICTORY: "Moriarty's victory: the crime of the century is committed",
    pb.RESULT_HOLMES_VICTORY: "Holmes's victory: the crime is prevented and Moriarty caught",
    pb.RESULT_UNRESOLVED_DUEL: "Unresolved Duel: the crime is prevented but Moriarty escapes",
}


def who(seat: int) -> str:
    """The role name of a seat."""
    return "Holmes" if seat == HOLMES else "Moriarty"


def card(card_id: int) -> str:
    """An Influence Card's name, or 'a card' when hidden."""
    return CATALOGUE.influence[card_id].name if card_id else "a card"


def cards(card_ids) -> str:
    """A list of Influence Card names."""
    return ", ".join(card(c) for c in card_ids)


def crime(card_id: int) -> str:
    """A Crime Plan Card's name, or 'a face-down card'."""
    return CATALOGUE.crime[card_id].name if card_id else "a face-down card"


def agent(agent_id: int) -> str:
    """An Agent's name, or 'an Agent' when hidden."""
    return CATALOGUE.agents[agent_id].name if agent_id else "an Agent"


def action_card(value: int) -> str:
    """An Action Card's name, or 'an Action Card' when hidden."""
    return ACTION_NAMES.get(value, "an Action Card")


def thread(index: int) -> str:
    """A Crime Thread, counted from 1."""
    return f"thread {index + 1}"


def describe_action(action: pb.Action) -> str:
    """One line for an action (the actor is named by the caller).

    Secret choices (the Crime Plan order, face-down cards) are not named, so the line
    is safe to show to anyone; the owner's private events carry the details.
    """
    kind = action.WhichOneof("kind")
    a = getattr(action, kind) if kind else None
    lines = {
        "arrange_crime": lambda: "arranges the Crime Plan face down",
        "keep_agent": lambda: "keeps the Agent in play",
        "replace_agent": lambda: "replaces the Agent in play",
        "place_setup_card": lambda: f"places a card face down in {thread(a.thread)}",
        "play_influence": lambda: f"puts {card(a.card)} into play in {thread(a.thread)}",
        "pass_mandatory": lambda: "uses the Mandatory Action with nothing to play",
        "draw_influence": lambda: f"draws a card with {action_card(a.action_card)}",
        "use_influence": lambda: f"uses card {a.index + 1} of {thread(a.thread)} "
                                 f"with {action_card(a.action_card)}",
        "add_support": lambda: "adds a Support "
                               + ("under the Agent" if a.under_agent else f"in {thread(a.thread)}"),
        "remove_support": lambda: f"discards Support {a.index + 1} of {thread(a.thread)}",
        "activate_agent": lambda: "activates the Agent",
        "end_turn": lambda: "ends the turn",
        "place_action_card": lambda: f"places an Action Card face down in {thread(a.thread)}",
        "reveal_action_card": lambda: f"reveals {action_card(a.card)}",
        "skip_action": lambda: "skips the revealed Action Card",
        "move_card": lambda: f"moves card {a.index + 1} of {thread(a.thread)} "
                             f"to {thread(a.to_thread)}",
        "target_card": lambda: f"targets card {a.index + 1} of {thread(a.thread)}",
        "target_thread": lambda: f"targets the Crime Plan Card of {thread(a.thread)}",
        "discard_card": lambda: f"discards {card(a.card)}",
        "keep_hand": lambda: "keeps the rest of the hand",
    }
    return lines[kind]() if kind else "does nothing"


def describe_event(event: pb.Event) -> str:
    """One line for an event."""
    kind = event.WhichOneof("kind")
    e = getattr(event, kind) if kind else None
    lines = {
        "crime_arranged": lambda: "Moriarty arranges the Crime Plan"
                                  + "".join(f"; {thread(t)}: {crime(c)}"
                                            for t, c in enumerate(e.order)),
        "site_revealed": lambda: f"Round {e.round}: the investigation moves to "
                                 f"{CATALOGUE.sites[e.site].name}",
        "clock_moved": lambda: f"the clock moves {e.delta:+d} h ({e.cause}); "
                               f"{e.hours} of 12 hours gone",
        "cards_drawn": lambda: f"{who(e.seat)} draws {e.count} card(s)"
                               + (f": {cards(e.cards)}" if e.cards else ""),
        "deck_reshuffled": lambda: f"{who(e.seat)} reshuffles the discard pile "
                                   f"into a deck of {e.size}",
        "agent_drawn": lambda: f"{who(e.seat)} draws {agent(e.agent)} face down",
        "agent_kept": lambda: f"{who(e.seat)} keeps the Agent in play",
        "agent_discarded": lambda: f"{who(e.seat)} discards {agent(e.agent)}",
        "setup_card_placed": lambda: f"{who(e.seat)} places {card(e.card)} face down "
                                     f"in {thread(e.thread)}",
        "setup_card_revealed": lambda: f"{who(e.seat)} reveals {card(e.card)} "
                                       f"in {thread(e.thread)}",
        "influence_played": lambda: f"{who(e.seat)} puts {card(e.card)} into play "
                                    f"in {thread(e.thread)}",
        "mandatory_passed": lambda: f"{who(e.seat)} has nothing to put into play",
        "action_card_used": lambda: f"{who(e.seat)} uses {action_card(e.card)}",
        "card_used": lambda: f"{who(e.seat)} uses {card(e.card)} in {thread(e.thread)}",
        "support_added": lambda: f"{who(e.seat)} adds {card(e.card)} as a Support "
                                 + (f"in {thread(e.thread)}", "under the Agent")[e.under_agent],
        "cards_discarded": lambda: f"{who(e.seat)} discards {cards(e.cards)} ({e.cause})",
        "card_moved": lambda: f"{who(e.seat)}'s {card(e.card)} moves from {thread(e.from_thread)} "
                              f"to {thread(e.to_thread)}",
        "card_returned": lambda: f"{who(e.seat)}'s {card(e.card)} returns to hand "
                                 f"from {thread(e.thread)}",
        "card_distracted": lambda: f"{who(e.seat)}'s {card(e.card)} in {thread(e.thread)} "
                                   "gets a Distraction Token",
        "effect_fizzled": lambda: f"{who(e.seat)}'s "
                                  + (card(e.card) if e.source == pb.EFFECT_SOURCE_INFLUENCE
                                     else agent(e.card)) + " has nothing to act on",
        "agent_activated": lambda: f"{who(e.seat)} reveals and activates {agent(e.agent)}",
        "crime_card_seen": lambda: f"Holmes looks at {crime(e.crime_card)} in {thread(e.thread)}",
        "deduction_token_removed": lambda: f"the Deduction Token leaves {thread(e.thread)}",
        "turn_ended": lambda: f"{who(e.seat)} ends the turn",
        "last_turn_began": lambda: f"{who(e.seat)} takes one last turn before the Final Turn",
        "final_turn_began": lambda: f"the Final Turn of round {e.round} begins",
        "action_card_placed": lambda: f"{who(e.seat)} places {action_card(e.card)} face down "
                                      f"in {thread(e.thread)}",
        "action_card_revealed": lambda: f"{who(e.seat)} reveals {action_card(e.card)} "
                                        f"in {thread(e.thread)}",
        "action_skipped": lambda: f"{who(e.seat)} skips {action_card(e.card)}",
        "thread_concluded": lambda: f"{thread(e.thread)}: Holmes {e.holmes}, Moriarty {e.moriarty}",
        "deduction_token_placed": lambda: f"a Deduction Token goes on {thread(e.thread)}",
        "crime_card_revealed": lambda: f"{thread(e.thread)} is revealed: {crime(e.crime_card)}",
        "round_archived": lambda: f"round {e.round} is archived; {who(e.first_player)} "
                                  "becomes First Player",
        "game_ended": lambda: f"{RESULTS[e.result]} ({e.hours} hours gone)",
    }
    return lines[kind]() if kind else "nothing happened"
