"""Clash of Minds in words: action labels, event lines and the table, in the rulebook's terms.

Conventions (every line here follows them):
- Crime Threads are numbered from 1, left to right as Moriarty laid them out ("Crime Thread 1"
  is `threads[0]` of the State and the View); nothing is ever numbered from 0.
- A card is named as printed: an Influence Card in hand as "Informant (2, used 1)" (its
  played and used Influence Values), on the table by its state ("Informant (2)", "Informant
  (used, 1)", "Informant (Support Card)"); where a side holds two of one card, by its place
  from the Crime Plan Card outward ("the second Informant (2)").
- The actor of an event is `seat(n)` ("{seat:1} put Witness into play …"), so each client
  writes "You" or the player's name; a line about a seat as such adds its role
  ("{seat:0} (Holmes)"); whose card or hand is named by seat ("your Informant", "Ben's
  hand"), so your own is never told in the third person.
- The clock is "Hour 4 of 12": hours gone since 12 o'clock, never hours left.
- Labels are imperative ("put Witness (2, used 2) into play in Crime Thread 1") and written
  from the seat's View alone; `describe_action` names no card that is still secret.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from parlour.engine.text import item, owner, seat, section, table
from parlour.engine.v1.table_pb2 import TableItem, TableSection, TableText
from parlour.games.clashofminds.catalogue import CATALOGUE, HOLMES, MORIARTY
from parlour.games.clashofminds.hooks import player_lines, words
from parlour.games.clashofminds.influence import side_total
from parlour.games.clashofminds.names import (
    ACTION_NAMES,
    action_card,
    action_detail,
    card_name,
    crime,
    effect_key,
    hours_line,
    influence,
    influence_detail,
    ordinal,
    placed,
    placed_on,
    plural,
    role,
    source_detail,
    source_name,
    thread,
    who,
)
from parlour.games.clashofminds.table import influence_limit
from parlour.games.clashofminds.turns import ACTION_CARDS
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

RESULTS = {
    pb.RESULT_MORIARTY_VICTORY: "Moriarty's Victory: the crime of the century was committed",
    pb.RESULT_HOLMES_VICTORY: "Holmes's Victory: the crime was prevented and Moriarty caught",
    pb.RESULT_UNRESOLVED_DUEL: "Unresolved Duel: the crime was prevented but Moriarty escaped",
}
PHASES = {
    pb.PHASE_PREPARING_CRIME: "Preparing the Crime",
    pb.PHASE_INITIAL_SETUP: "Initial Setup",
    pb.PHASE_COURSE: "Course of the Investigation",
    pb.PHASE_FINAL_PLACEMENT: "Final Turn: placing Action Cards",
    pb.PHASE_FINAL_REVEAL: "Final Turn: revealing Action Cards",
    pb.PHASE_ARCHIVING: "Archiving",
    pb.PHASE_OVER: "The game is over",
}
#: What moved the clock (ClockMoved.cause), in the rulebook's words.
CLOCK_CAUSES = {
    "site": "the Investigation Site", "moriarty_advantage": "Moriarty's Advantage",
    "duchess": "The Duchess", "dynamite": "The Dynamite",
}
#: Why cards went to a discard pile (CardsDiscarded.cause), as the end of the line.
DISCARD_CAUSES = {
    "archiving": "at Archiving", "bribe": "because of Bribe",
    "cipher": "from the top of the Influence Deck because of Cipher",
    "telegram": "for Telegram", "prime_minister": "from the table for The Prime Minister",
    "kidnapping": "from the table because of Kidnapping", "poison": "because of The Poison",
}
# -- labels ------------------------------------------------------------------------------
Label = Callable[[pb.View, int, object], str]


def _side(view: pb.View, t: int, owner: int) -> pb.Side:
    return view.threads[t].sides[owner]


def _slot(view: pb.View, viewer: int, card: int) -> pb.FinalSlot:
    return next(s for s in view.players[viewer].final_slots if s.card == card)


def _open_slot(view: pb.View, viewer: int) -> pb.FinalSlot:
    return next(s for s in view.players[viewer].final_slots if s.revealed and not s.resolved)


def _target_card(view: pb.View, viewer: int, a: pb.TargetCard) -> str:
    key = effect_key(view.effect)
    if key == "forged_letter":
        return (f"swap Forged Letter with {placed_on(_side(view, a.thread, viewer), a.index)} "
                f"in {thread(a.thread)}")
    rival = 1 - viewer
    target = placed_on(_side(view, a.thread, rival), a.index, f"{role(rival)}'s")
    if key == "witness":
        return f"return {target} in {thread(a.thread)} to {role(rival)}'s hand (Witness)"
    return f"put a Distraction Token on {target} in {thread(a.thread)} (Disguise)"


def _support(view: pb.View, viewer: int, a: pb.AddSupport) -> str:
    return (f"add {influence(a.card)} as a Support Card in {thread(a.thread)} "
            f"with {action_card(a.action_card)}")


LABELS: dict[str, Label] = {
    "arrange_crime": lambda v, s, a: "lay out " + ", ".join(
        f"{crime(c)} as {thread(t)}" for t, c in enumerate(a.order)),
    "place_setup_card": lambda v, s, a: (
        f"place {influence(a.card)} face down in {thread(a.thread)}"),
    "play_influence": lambda v, s, a: f"put {influence(a.card)} into play in {thread(a.thread)}",
    "pass_mandatory": lambda v, s, a: "use the Mandatory card with nothing to put into play",
    "draw_influence": lambda v, s, a: f"draw one Influence Card with {action_card(a.action_card)}",
    "use_influence": lambda v, s, a: (
        f"use {placed_on(_side(v, a.thread, s), a.index, printed=True)} in {thread(a.thread)} "
        f"with {action_card(a.action_card)}"),
    "add_support": _support,
    "remove_support": lambda v, s, a: (
        f"discard {placed_on(_side(v, a.thread, s), a.index)} from {thread(a.thread)} "
        f"(The Prime Minister) with {action_card(a.action_card)}"),
    "end_turn": lambda v, s, a: "end the turn",
    "place_action_card": lambda v, s, a: (
        f"place {action_card(a.card)} face down in {thread(a.thread)}"),
    "reveal_action_card": lambda v, s, a: (
        f"reveal {action_card(a.card)} in {thread(_slot(v, s, a.card).thread)}"),
    "skip_action": lambda v, s, a: (
        f"skip {action_card(_open_slot(v, s).card)} in {thread(_open_slot(v, s).thread)}"),
    "move_card": lambda v, s, a: (
        f"move {placed_on(_side(v, a.thread, s), a.index)} from {thread(a.thread)} to "
        f"{thread(a.to_thread)} (Street Urchin)"),
    "target_card": _target_card,
    "target_thread": lambda v, s, a: f"choose {thread(a.thread)}",
    "discard_card": lambda v, s, a: (
        f"discard {influence(a.card)} for Telegram" if v.HasField("effect")
        else f"discard {influence(a.card)} from your hand"),
    "keep_hand": lambda v, s, a: "keep the rest of your hand",
}


def label_actions(view: pb.View, viewer: int, actions: Sequence[pb.Action]) -> list[str]:
    """Each legal action's label, from the viewer's View alone."""
    table = {**LABELS, **words("labels")}
    labels = []
    for action in actions:
        kind = action.WhichOneof("kind")
        labels.append(table[kind](view, viewer, getattr(action, kind)))
    return labels


# -- actions out of context --------------------------------------------------------------
def _nth(index: int) -> str:
    return f"the {ordinal(index + 1)} Influence Card"


ACTIONS: dict[str, Callable[[object], str]] = {
    "arrange_crime": lambda a: "lay out the Crime Plan face down",
    "place_setup_card": lambda a: f"place an Influence Card face down in {thread(a.thread)}",
    "play_influence": lambda a: f"put {influence(a.card)} into play in {thread(a.thread)}",
    "pass_mandatory": lambda a: "use the Mandatory card with nothing to put into play",
    "draw_influence": lambda a: f"draw one Influence Card with {action_card(a.action_card)}",
    "use_influence": lambda a: (f"use {_nth(a.index)} on its side of {thread(a.thread)} with "
                                f"{action_card(a.action_card)}"),
    "add_support": lambda a: (f"add a Support Card in {thread(a.thread)} with "
                              f"{action_card(a.action_card)}"),
    "remove_support": lambda a: (f"discard {_nth(a.index)} (a Support Card) of "
                                 f"{thread(a.thread)} for The Prime Minister"),
    "end_turn": lambda a: "end the turn",
    "place_action_card": lambda a: f"place an Action Card face down in {thread(a.thread)}",
    "reveal_action_card": lambda a: f"reveal {action_card(a.card)}",
    "skip_action": lambda a: "skip the revealed Action Card",
    "move_card": lambda a: (f"move {_nth(a.index)} of {thread(a.thread)} to "
                            f"{thread(a.to_thread)}"),
    "target_card": lambda a: f"choose {_nth(a.index)} on its side of {thread(a.thread)}",
    "target_thread": lambda a: f"choose {thread(a.thread)}",
    "discard_card": lambda a: f"discard {influence(a.card)}",
    "keep_hand": lambda a: "keep the rest of the hand",
}


#: Actions that differ only by a card still secret (the Crime Plan order, which Action Card
#: goes face down, which Support Card): `describe_action` names them alike, as naming the
#: card would reveal it.
SECRET_ACTIONS = frozenset(
    {"arrange_crime", "place_action_card", "add_support", "place_setup_card"})


def describe_action(action: pb.Action) -> str:
    """One line for an action out of context; it names no card that is still secret (the
    Crime Plan order, face-down cards and Supports), so anyone may read it."""
    kind = action.WhichOneof("kind")
    return {**ACTIONS, **words("actions")}[kind](getattr(action, kind)) if kind else "nothing"


# -- events ------------------------------------------------------------------------------
def _names(cards: Sequence[int]) -> str:
    return ", ".join(card_name(c) for c in cards)


def _clock(e: pb.ClockMoved) -> str:
    cause = {**CLOCK_CAUSES, **words("clock_causes")}.get(e.cause, e.cause)
    if e.delta == 0:
        return f"The clock stayed at 12 o'clock ({cause})"
    way = "forward" if e.delta > 0 else "back"
    return f"The clock moved {plural(abs(e.delta), 'hour')} {way} ({cause}): {hours_line(e.hours)}"


def _drawn(e: pb.CardsDrawn) -> str:
    what = "an Influence Card" if e.count == 1 else f"{e.count} Influence Cards"
    return f"{seat(e.seat)} drew {what}" + (f": {_names(e.cards)}" if e.cards else "")


def _concluded(e: pb.ThreadConcluded) -> str:
    lead = e.holmes - e.moriarty
    verdict = (f"Holmes's Advantage of {lead}" if lead > 0 else
               f"Moriarty's Advantage of {-lead}" if lead < 0 else "a draw")
    return f"{thread(e.thread)} summed up: Holmes {e.holmes}, Moriarty {e.moriarty}, {verdict}"


def _discard_cause(cause: str) -> str:
    return {**DISCARD_CAUSES, **words("discard_causes")}.get(cause, cause)


def _fizzled(e: pb.EffectFizzled) -> str:
    return f"{owner(e.seat)} {source_name(e.source, e.card)} had nothing to act on"


def _support_added(e: pb.SupportAdded) -> str:
    what = f"{card_name(e.card)} as a Support Card" if e.card else "a Support Card"
    return f"{seat(e.seat)} added {what} in {thread(e.thread)}"


EVENTS: dict[str, Callable[[object], str]] = {
    "crime_arranged": lambda e: f"{seat(MORIARTY)} laid out the Crime Plan face down" + (
        ": " + ", ".join(f"{crime(c)} as {thread(t)}" for t, c in enumerate(e.order))
        if e.order else ""),
    "site_revealed": lambda e: (
        f"Round {e.round} began at {CATALOGUE.sites[e.site].name} "
        f"(+{plural(CATALOGUE.sites[e.site].hours, 'hour')}, Influence Card Limit "
        f"{CATALOGUE.sites[e.site].limit})"),
    "clock_moved": _clock,
    "cards_drawn": _drawn,
    "deck_reshuffled": lambda e: (f"{seat(e.seat)} shuffled the discard pile into a new "
                                  f"Influence Deck of {plural(e.size, 'card')}"),
    "setup_card_placed": lambda e: f"{seat(e.seat)} placed " + (
        card_name(e.card) if e.card else "an Influence Card") + f" face down in {thread(e.thread)}",
    "setup_card_revealed": lambda e: (f"{seat(e.seat)} turned up {card_name(e.card)} in "
                                      f"{thread(e.thread)}"),
    "influence_played": lambda e: (f"{seat(e.seat)} put {card_name(e.card)} into play in "
                                   f"{thread(e.thread)}"),
    "mandatory_passed": lambda e: f"{seat(e.seat)} had no Influence Card to put into play",
    "action_card_used": lambda e: f"{seat(e.seat)} used {action_card(e.card)}",
    "card_used": lambda e: (f"{seat(e.seat)} used {card_name(e.card)} in {thread(e.thread)} "
                            f"(used value {CATALOGUE.influence[e.card].used})"),
    "support_added": _support_added,
    "cards_discarded": lambda e: (f"{seat(e.seat)} discarded {_names(e.cards)} "
                                  f"{_discard_cause(e.cause)}"),
    "card_moved": lambda e: (f"{seat(e.seat)} moved {card_name(e.card)} from "
                             f"{thread(e.from_thread)} to {thread(e.to_thread)}"),
    "card_returned": lambda e: (f"{owner(e.seat)} {card_name(e.card)} went back from "
                                f"{thread(e.thread)} to {owner(e.seat)} hand"),
    "card_distracted": lambda e: (f"{owner(e.seat)} {card_name(e.card)} in {thread(e.thread)} "
                                  "got a Distraction Token"),
    "effect_fizzled": _fizzled,
    "crime_card_seen": lambda e: f"{seat(HOLMES)} looked at the Crime Plan Card of " + (
        f"{thread(e.thread)}: {crime(e.crime_card)}" if e.crime_card else thread(e.thread)),
    "deduction_token_removed": lambda e: f"The Deduction Token left {thread(e.thread)}",
    "turn_ended": lambda e: f"{seat(e.seat)} ended the turn",
    "last_turn_began": lambda e: f"{seat(e.seat)} began one last turn before the Final Turn",
    "final_turn_began": lambda e: f"The Final Turn of round {e.round} began",
    "action_card_placed": lambda e: (f"{seat(e.seat)} placed {action_card(e.card)} face down "
                                     f"in {thread(e.thread)}"),
    "action_card_revealed": lambda e: (f"{seat(e.seat)} revealed {action_card(e.card)} in "
                                       f"{thread(e.thread)}"),
    "action_skipped": lambda e: f"{seat(e.seat)} skipped {action_card(e.card)}",
    "thread_concluded": _concluded,
    "deduction_token_placed": lambda e: f"A Deduction Token went on {thread(e.thread)}",
    "crime_card_revealed": lambda e: (f"The Crime Plan Card of {thread(e.thread)} was revealed: "
                                      f"{crime(e.crime_card)}"),
    "round_archived": lambda e: (f"Round {e.round} was archived; {who(e.first_player)} "
                                 "took the First Player Card"),
    "game_ended": lambda e: f"{RESULTS[e.result]}, at {hours_line(e.hours)}",
}


def describe_event(event: pb.Event) -> str:
    """One past-tense line for an event."""
    kind = event.WhichOneof("kind")
    return {**EVENTS, **words("events")}[kind](getattr(event, kind)) if kind else "Nothing happened"


# -- the table ---------------------------------------------------------------------------
def describe_view(view: pb.View, viewer: int | None) -> TableText:
    """The View in the rulebook's words: the investigation, the Crime Threads, your hand, and
    each player's cards and Action Cards, and a mode's components."""
    return table(
        _investigation(view),
        _drawn_crime(view),
        *(_thread(view, t, viewer) for t in range(len(view.threads))),
        _hand(view, viewer),
        *(_player(view, n, viewer) for n in range(len(view.players))),
    )


def _investigation(view: pb.View) -> TableSection:
    items: list[TableItem | str] = []
    if view.site:
        site = CATALOGUE.sites[view.site]
        items.append(item(f"Round {view.round} at {site.name}: +{plural(site.hours, 'hour')}, "
                          f"Influence Card Limit {influence_limit(view)}",
                          f"{site.name}: {site.text}"))
    items.append(item(hours_line(view.hours), "The Time Marker starts at 12 o'clock. When the "
                      "clock strikes twelve with a Thread unrevealed, Moriarty wins."))
    if view.phase == pb.PHASE_OVER:
        items.append(RESULTS[view.result])
    else:
        last = ", the last turn before the Final Turn" if view.last_turn else ""
        phase = {**PHASES, **words("phases")}[view.phase]
        items.append(f"{phase}{last}: waiting for {who(view.turn)}")
    if view.HasField("effect"):
        effect = view.effect
        items.append(item(f"Waiting for {who(effect.seat)} to choose a target for "
                          f"{source_name(effect.source, effect.card)}",
                          source_detail(effect.source, effect.card)))
    items.append(f"First Player: {who(view.first_player)}")
    earlier = ", ".join(CATALOGUE.sites[s].name for s in view.site_discard)
    items.append(f"Investigation Site Deck: {plural(view.site_deck_size, 'card')}"
                 + (f"; earlier sites: {earlier}" if earlier else ""))
    items.append(f"Supply: {plural(view.deduction_supply, 'Deduction Token')}, "
                 f"{plural(view.distraction_supply, 'Distraction Token')}")
    return section("The investigation", items)


def _drawn_crime(view: pb.View) -> TableSection:
    return section("Crime Plan Cards drawn, to lay out", [
        item(crime(c), CATALOGUE.crime[c].text) for c in view.crime_drawn])


def _crime_line(crime_thread: pb.CrimeThread) -> TableItem:
    notes = [] if not crime_thread.deduction_token else ["a Deduction Token on it"]
    if crime_thread.seen_by_holmes and not crime_thread.revealed:
        notes.append("Holmes has looked at it")
    card = crime_thread.crime_card
    state = "revealed" if crime_thread.revealed else "face down"
    words = f"{crime(card)}, {state}" if card else state
    return item(f"Crime Plan Card: {', '.join([words, *notes])}",
                f"{CATALOGUE.crime[card].name}: {CATALOGUE.crime[card].text}" if card else "")


def _thread(view: pb.View, t: int, viewer: int | None) -> TableSection:
    crime_thread = view.threads[t]
    counted = not any(c.face_down for side in crime_thread.sides for c in side.cards)
    items = [_crime_line(crime_thread)]
    for holder, side in enumerate(crime_thread.sides):
        cards = ", ".join(placed(c) for c in side.cards) or "no cards"
        total = f", Influence {side_total(view, t, holder)}" if counted and side.cards else ""
        texts = dict.fromkeys(c.card for c in side.cards if c.card and not c.support)
        slots = [s for s in view.players[holder].final_slots if s.thread == t]
        actions = ("; Action Cards here: " + ", ".join(_slot_words(s) for s in slots)
                   if slots else "")
        items.append(item(f"{who(holder)}{total}: {cards}{actions}",
                          " ".join(influence_detail(c) for c in texts)))
    return section(thread(t), items)


def _slot_words(slot: pb.FinalSlot) -> str:
    if not slot.card:
        return "an Action Card face down"
    state = "used or skipped" if slot.resolved else "revealed" if slot.revealed else "face down"
    return f"{ACTION_NAMES[slot.card]} ({state})"


def _hand(view: pb.View, viewer: int | None) -> TableSection:
    if viewer is None:
        return section("Your hand", [])
    counts: dict[int, int] = {}
    for card in view.hand:
        counts[card] = counts.get(card, 0) + 1
    items = [item(influence(c) + (f" ×{n}" if n > 1 else ""), influence_detail(c))
             for c, n in counts.items()]
    return section("Your hand", items or ["no cards"])


def _player(view: pb.View, n: int, viewer: int | None) -> TableSection:
    shown = view.players[n]
    items: list[TableItem | str] = [
        f"{plural(shown.hand_size, 'card')} in hand, {shown.deck_size} in the Influence Deck, "
        f"{len(shown.discard)} in the discard pile",
    ]
    if view.site:
        items.append(f"{shown.played_this_round} of {influence_limit(view)} Influence Cards "
                     "put into play this round")
    if shown.setup_left and view.phase == pb.PHASE_INITIAL_SETUP:
        items.append(f"{plural(shown.setup_left, 'Initial Setup card')} still to place")
    if view.phase == pb.PHASE_COURSE and view.turn == n:
        ready = [c for c in ACTION_CARDS if c not in shown.used_actions]
        items.append(item("Action Cards ready this turn: " + (", ".join(
            ACTION_NAMES[c] for c in ready) or "none"),
            "; ".join(action_detail(c) for c in ACTION_CARDS)))
    if shown.discard:
        items.append(f"Discard pile: {_names(shown.discard)}")
    items += player_lines(view, n, viewer)
    return section(who(n), items)
