"""I Say, Holmes! in words: action labels, event lines and the table, in the rulebook's terms.

Cards are named by their printed title and Point Value ("Holmes (50)"); the two Scotland
Yards say whom they hit. Seats are `seat(n)` references, written out by each client.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from parlour.engine.text import item, owner, seat, section, table
from parlour.engine.v1.table_pb2 import TableItem, TableSection, TableText
from parlour.games.isayholmes.catalogue import KINDS, VILLAINS
from parlour.games.isayholmes.sequence import sequence_index, suitable_after
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb

REGIONS = {pb.REGION_LONDON: "London", pb.REGION_COUNTRY: "The Country"}
#: The printed Story Sequence placeholders for Location cards.
PLACES = {
    "LOCATION_OTHER_REGION": "a Location in the other region",
    "LOCATION_SAME_REGION": "a Location in the same region",
    "ANY_LOCATION": "any Location",
}
DECLINED = {
    pb.PHASE_TARGET: "made no Arrest",
    pb.PHASE_RESPOND: "did not defend",
    pb.PHASE_FLEE: "discarded no Villain",
    pb.PHASE_EXTRA_ARREST: "made no extra Arrest",
}
DECLINE = {
    pb.PHASE_TARGET: "make no Arrest",
    pb.PHASE_RESPOND: "do not defend",
    pb.PHASE_FLEE: "discard no Villain",
    pb.PHASE_EXTRA_ARREST: "make no extra Arrest",
}
ENDS = {
    pb.ROUND_END_ARREST: "an Arrest",
    pb.ROUND_END_ESCAPE: "an Escape",
    pb.ROUND_END_NO_VILLAIN: "no Villain found",
    pb.ROUND_END_STALEMATE: "a stalemate (nobody could play or draw)",
}
_WHOM = {"PREVIOUS_OPPONENT": "previous opponent", "NEXT_OPPONENT": "next opponent"}


# -- cards ------------------------------------------------------------------------------
def name(card: int) -> str:
    """A card's title, told apart where two kinds share one ("Scotland Yard (next opponent)")."""
    kind = KINDS[card]
    whom = _WHOM.get(kind.victim)
    return f"{kind.title} ({whom})" if whom else kind.title


def the(card: int) -> str:
    """A card named in a sentence: "the Inspector", but "Holmes"."""
    people = {"HOLMES", "WATSON", "MYCROFT", "VILLAIN"}
    return name(card) if KINDS[card].category in people else f"the {name(card)}"


def card(card: int) -> str:
    """A card with its Point Value: "Holmes (50)", "Scotland Yard (next opponent, 5)"."""
    kind = KINDS[card]
    whom = _WHOM.get(kind.victim)
    return f"{kind.title} ({whom + ', ' if whom else ''}{kind.value})"


def names(cards: Iterable[int]) -> str:
    """Cards by name, copies counted ("Clue ×2"), "nothing" for none."""
    counts = Counter(cards)
    return ", ".join(name(c) + (f" ×{n}" if n > 1 else "") for c, n in counts.items()) or "nothing"


def _next(kind) -> str:
    steps = [PLACES.get(n, n) for n in kind.next]
    if kind.i_say:
        steps.append("I Say (-10)")
    if steps:
        return "Next: " + ", ".join(steps) + "."
    if kind.transparent:
        return "Next: as after the card beneath it."
    return ""


def detail(card: int) -> str:
    """The card as printed: Point Value, special rule and Story Sequence."""
    kind = KINDS[card]
    return " ".join(filter(None, [f"{name(card)}: Point Value {kind.value}.", kind.text,
                                  _next(kind)]))


def card_item(card_id: int, copies: int = 1, prefix: str = "") -> TableItem:
    """One card as a table line, its printed text as the detail."""
    many = f" ×{copies}" if copies > 1 else ""
    return item(f"{prefix}{card(card_id)}{many}", detail(card_id))


def _cards_of(cards: Iterable[int]) -> list[TableItem]:
    counts = Counter(cards)
    return [card_item(c, n) for c, n in sorted(counts.items(), key=lambda cn: KINDS[cn[0]].id)]


def _count(n: int, word: str = "card") -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# -- actions ----------------------------------------------------------------------------
def _aim(card_id: int, target: int) -> str:
    """What naming `target` does for the card being resolved."""
    kind = KINDS[card_id]
    who = seat(target)
    return {
        "ARREST": f"arrest {who}",
        "DRAW": f"make {who} draw {_count(kind.count)}",
        "ADD_SCORE": f"make {who} add {kind.count} points",
        "LOOK_AT_RANDOM": f"look at {kind.count} random cards of {who}",
        "LOOK_AT_HAND": f"look at the hand of {who}",
        "SHOW_HIGHEST": f"make {who} show you their highest card",
        "GIVE_CARD": f"pass a card to {who}",
        "TRADE_HANDS": f"trade hands with {who}",
    }.get(kind.effect, f"name {who}")


def describe_action(action: pb.Action) -> str:
    """An action out of context (logs, undo and timeout notices)."""
    kind = action.WhichOneof("kind")
    if kind == "play":
        return f"play {card(action.play.card)}"
    if kind == "target":
        return f"name {seat(action.target.seat)}"
    if kind == "defend":
        return f"defend with {card(action.defend.card)}"
    if kind == "show":
        return f"show {card(action.show.card)}"
    if kind == "give":
        return f"give {card(action.give.card)}"
    if kind == "discard_villain":
        return f"discard {card(action.discard_villain.card)}"
    if kind == "pass_left":
        return f"pass {card(action.pass_left.card)} to the left"
    return {
        "draw": "draw a card",
        "pass_turn": "pass (nothing to play or draw)",
        "escape": "reveal your Villains: they escape",
        "decline": "decline",
    }.get(kind or "", "do nothing")


def _threat(effect: pb.Effect) -> str:
    return "the Inspector's Arrest" if effect.extra_arrest else the(effect.card)


def _label(view: pb.View, viewer: int, action: pb.Action) -> str:
    kind = action.WhichOneof("kind")
    effect = view.effect
    if kind == "play":
        played = action.play.card
        in_sequence = played == pb.CARD_I_SAY and KINDS[in_force(view)].i_say
        return f"play {card(played)}" + (": -10 points, in sequence" if in_sequence else "")
    if kind == "draw":
        return "draw the top card of the Draw Pile"
    if kind == "escape":
        return f"reveal your Villains: {names(sorted(view.hand))} escape"
    if kind == "target":
        target = action.target.seat
        if view.phase == pb.PHASE_ACCUSE:
            return f"accuse {seat(target)}"
        if view.phase == pb.PHASE_EXTRA_ARREST:
            return f"also arrest {seat(target)}"
        return f"{_aim(effect.card, target)} ({name(effect.card)})"
    if kind == "decline":
        if view.phase == pb.PHASE_RESPOND:
            return f"do not defend against {_threat(effect)}"
        return DECLINE.get(view.phase, "decline")
    if kind == "give":
        return f"give {card(action.give.card)} to {seat(effect.target)}"
    if kind == "pass_left":
        return f"pass {card(action.pass_left.card)} to {seat((viewer + 1) % len(view.hand_sizes))}"
    if kind == "defend":
        return f"defend with {card(action.defend.card)} against {_threat(effect)}"
    if kind == "show":
        return f"show {card(action.show.card)} to {seat(effect.actor)}"
    return describe_action(action)


def label_actions(view: pb.View, viewer: int, actions: Sequence[pb.Action]) -> list[str]:
    """Each legal action's label, written from the seat's View alone."""
    return [_label(view, viewer, a) for a in actions]


# -- events -----------------------------------------------------------------------------
def _round_started(e: pb.RoundStarted) -> str:
    hand = f"; your hand: {names(e.hand)}" if e.hand else ""
    return f"round {e.round} began: {seat(e.opener)} opened with The Game is Afoot!{hand}"


def _played(e: pb.CardPlayed) -> str:
    how = "drew and played" if e.drawn else "played"
    return f"{seat(e.seat)} {how} {card(e.card)}; Location chit: {REGIONS.get(e.location, '')}"


def _drawn(e: pb.CardsDrawn) -> str:
    why = f" for {the(e.penalty)}" if e.penalty else ""
    what = f": {names(e.cards)}" if e.cards else ""
    return f"{seat(e.seat)} drew {_count(e.count)}{why}{what}"


def _seen(e: pb.CardsSeen) -> str:
    what = f": {names(e.cards)}" if e.cards else ""
    seen = f"{e.count} of {owner(e.target)} cards" if e.count else f"{owner(e.target)} empty hand"
    return f"{seat(e.seat)} looked at {seen} ({name(e.source)}){what}"


def _given(e: pb.CardGiven) -> str:
    what = f": {card(e.card)}" if e.card else ""
    return f"{seat(e.seat)} secretly passed a card to {seat(e.target)} (Constabulary){what}"


def _traded(e: pb.HandsTraded) -> str:
    what = f"; hand received: {names(e.hand)}" if e.hand else ""
    return f"{seat(e.seat)} traded hands with {seat(e.target)} (Mycroft){what}"


def _arrested(e: pb.Arrested) -> str:
    verdict = "Guilty!" if e.guilty else "Not Guilty"
    taken = f"; {seat(e.seat)} took their {_count(e.taken)}" if e.taken else ""
    what = f": {names(e.cards)}" if e.cards else ""
    return f"{seat(e.seat)} arrested {seat(e.target)}: {verdict}{taken}{what}"


def _per_seat(values: Iterable[int]) -> str:
    return ", ".join(f"{seat(s)} {v}" for s, v in enumerate(values))


def _ending(r: pb.RoundResult) -> str:
    """How a round ended and whose Villains were caught or escaped."""
    villains = names(c for c in r.hands[r.villain_seat].cards if c in VILLAINS) if r.hands else ""
    who = {
        pb.ROUND_END_ARREST: f": {seat(r.arrester)} caught {seat(r.villain_seat)} with {villains}",
        pb.ROUND_END_ESCAPE: f": {seat(r.villain_seat)} escaped with {villains}",
    }.get(r.end, "")
    return f"round {r.round} ended with {ENDS.get(r.end, 'no result')}{who}"


def _sum(r: pb.RoundResult, s: int) -> str:
    """One seat's round points, with how they add up where they differ from the shown hand's
    printed values (Rulebook 6: detected Villains count twice for the Guilty player and
    against the arrester; escaped Villains count against the escaper; other Villains not)."""
    cards = r.hands[s].cards if s < len(r.hands) else []
    plain = sum(KINDS[c].value for c in cards if c not in VILLAINS)
    villains = sum(KINDS[c].value for c in cards if c in VILLAINS)
    caught = r.end == pb.ROUND_END_ARREST
    if caught and s == r.villain_seat:
        how = f"cards {plain}, plus Villains {villains} counted twice"
    elif caught and s == r.arrester:
        found = sum(KINDS[c].value for c in r.hands[r.villain_seat].cards if c in VILLAINS)
        how = f"cards {plain}, minus {found} for the Villains caught"
    elif r.end == pb.ROUND_END_ESCAPE and s == r.villain_seat:
        how = f"cards {plain}, minus {villains} for the Villains who escaped"
    elif villains:
        how = f"cards {plain}; Villains not caught do not count"
    else:
        how = ""
    return f"{r.points[s]:+d}" + (f" ({how})" if how else "")


def _round_ended(e: pb.RoundEnded) -> str:
    """How the round ended, whose Villains were caught or escaped, every revealed hand, and
    each seat's points with how they add up."""
    r = e.result
    hands = "; ".join(f"{seat(s)}: {names(sorted(h.cards))}" for s, h in enumerate(r.hands))
    points = ", ".join(f"{seat(s)} {_sum(r, s)}" for s in range(len(r.points)))
    return f"{_ending(r)}; hands shown: {hands}; points {points}; totals {_per_seat(e.scores)}"


def _simple(kind: str, e) -> str | None:
    lines = {
        "turn_passed": lambda: f"{seat(e.seat)} could neither play nor draw, and passed",
        "target_named": lambda: f"{seat(e.seat)} named {seat(e.target)} ({name(e.card)})",
        "defended": lambda: f"{seat(e.seat)} played {card(e.card)} against {the(e.against)}",
        "declined": lambda: f"{seat(e.seat)} {DECLINED.get(e.phase, 'declined')}",
        "score_changed": lambda: f"{seat(e.seat)} scored {e.delta:+d} ({name(e.card)})",
        "villain_discarded": lambda: f"{seat(e.seat)} discarded {card(e.card)} while fleeing",
        "pass_chosen": lambda: f"{seat(e.seat)} chose a card to pass left",
        "passed_left": lambda: "every player passed a card left (Alibi)"
        + (f"; card received: {card(e.received)}" if e.received else ""),
        "passed_right": lambda: "every hand passed right (Mastermind)"
        + (f"; hand received: {names(e.hand)}" if e.hand else ""),
        "redealt": lambda: "Thick Fog: the hands were shuffled together and dealt back, "
        + ", ".join(f"{seat(s)} {_count(n)}" for s, n in enumerate(e.hand_sizes))
        + (f"; your hand: {names(e.hand)}" if e.hand else ""),
        "reshuffled": lambda: (
            "the Plot Thickens" if e.plot_thickens else "the Draw Pile ran out"
        ) + f": the discards were shuffled into a new Draw Pile of {_count(e.draw_pile)}",
        "went_out": lambda: f"{seat(e.seat)} went out and must make an Arrest",
        "escaped": lambda: f"{seat(e.seat)} escaped with {names(e.villains)}",
        "match_ended": lambda: f"the match ended: totals {_per_seat(e.scores)}; lowest: "
        + " and ".join(seat(s) for s in e.winners),
    }
    line = lines.get(kind)
    return line() if line else None


def describe_event(event: pb.Event) -> str:
    """One past-tense line for an event, seats as references."""
    kind = event.WhichOneof("kind")
    if kind is None:
        return "nothing happened"
    e = getattr(event, kind)
    line = _simple(kind, e)
    if line is not None:
        return line
    formatters = {
        "round_started": _round_started,
        "played": _played,
        "drawn": _drawn,
        "seen": _seen,
        "given": _given,
        "traded": _traded,
        "arrested": _arrested,
        "round_ended": _round_ended,
    }
    return formatters[kind](e)


# -- the table --------------------------------------------------------------------------
def in_force(view: pb.View) -> int:
    """The card in force: the one the Story Sequence follows."""
    return view.discard_pile[sequence_index(view.discard_pile)]


def _discard_pile(view: pb.View) -> list[TableItem]:
    if not view.discard_pile:
        return []
    top, force = view.discard_pile[-1], in_force(view)
    lines = [card_item(top, prefix="Top: ")]
    if force != top:
        lines.append(card_item(force, prefix="In force (the Story Sequence follows it): "))
    follow = sorted(suitable_after(force, view.location), key=lambda c: KINDS[c].id)
    if view.phase != pb.PHASE_OVER:
        lines.append(item(f"May follow: {names(follow)}, or an I Say (any time)"))
    lines.append(item(f"{_count(len(view.discard_pile))} in the Discard Pile"))
    return lines


def _now(view: pb.View) -> list[str]:
    """Who the table waits for, and the card being resolved."""
    effect, phase = view.effect, view.phase
    if phase == pb.PHASE_OVER:
        low = min(view.scores)
        best = " and ".join(seat(s) for s, score in enumerate(view.scores) if score == low)
        return [f"The match is over: {best} won with the lowest score, {low}"]
    if phase == pb.PHASE_PASS_LEFT:
        chosen = [seat(s) for s, done in enumerate(view.pass_chosen) if done]
        return [f"{seat(effect.target)} played an Alibi: every player passes a card left",
                f"Chosen: {', '.join(chosen) or 'nobody yet'}"]
    if phase == pb.PHASE_ACCUSE:
        chain = view.chain
        cleared = ", ".join(seat(s) for s in chain.cleared) or "nobody yet"
        return [f"{seat(chain.went_out)} went out; {seat(chain.accuser)} must make an Arrest",
                f"Found Not Guilty: {cleared}"]
    if phase == pb.PHASE_TURN:
        return [f"To play: {seat(view.turn)}"]
    waits = {
        pb.PHASE_TARGET: f"{seat(effect.actor)} must name an opponent",
        pb.PHASE_RESPOND: f"{seat(effect.target)} may defend with an Alibi or Mastermind",
        pb.PHASE_SHOW: f"{seat(effect.target)} must show {seat(effect.actor)} their highest card",
        pb.PHASE_GIVE: f"{seat(effect.actor)} must choose a card to pass to {seat(effect.target)}",
        pb.PHASE_FLEE: f"{seat(effect.actor)} may discard a Villain",
        pb.PHASE_EXTRA_ARREST: f"{seat(effect.actor)} may also make an Arrest",
    }
    aimed = "" if phase in (pb.PHASE_TARGET, pb.PHASE_FLEE) else f" at {seat(effect.target)}"
    return [f"{seat(effect.actor)} played {name(effect.card)}{aimed}", waits[phase]]


def _players(view: pb.View) -> list[str]:
    lines = []
    for s, size in enumerate(view.hand_sizes):
        marks = " ← to play" if view.phase == pb.PHASE_TURN and s == view.turn else ""
        lines.append(f"{seat(s)}: {_count(size)} in hand, score {view.scores[s]}{marks}")
    return lines


def _peek(view: pb.View) -> TableSection:
    """The viewer's latest look at an opponent's cards (Clue, Deduction, Disguise)."""
    peek = view.peek
    if not peek.source:
        return section("Your last look", [])
    seen = _cards_of(peek.cards) or [item("no cards: the hand was empty")]
    return section(f"Your last look ({name(peek.source)}) at the hand of {seat(peek.target)}", seen)


def _last_round(view: pb.View) -> list[str]:
    r = view.last_result
    if not r.round:
        return []
    ending = _ending(r)
    lines = [ending[:1].upper() + ending[1:]]
    lines += [f"{seat(s)}: {names(sorted(h.cards))}; points {_sum(r, s)}"
              for s, h in enumerate(r.hands)]
    return lines


def describe_view(view: pb.View, viewer: int | None) -> TableText:
    """The table as a player sees it: the round, the Location chit, the piles, every
    player's hand size and score, your hand and your last look."""
    hand = _cards_of(view.hand) if viewer is not None else []
    if viewer is not None and view.passing:
        hand.append(card_item(view.passing, prefix="Set aside to pass left: "))
    total = sum(KINDS[c].value for c in view.hand)
    return table(
        section(f"Round {view.round} of {view.rounds}", [
            *_now(view),
            f"Location chit: {REGIONS.get(view.location, '')}",
        ]),
        section(f"Your hand: {_count(len(view.hand))}, {total} points at printed values", hand),
        section("Players (the lowest score wins)", _players(view)),
        section("Discard Pile", _discard_pile(view)),
        section("Draw Pile", [f"{_count(view.draw_pile_size)} face down"]),
        section("Set aside", _cards_of(view.set_aside)),
        _peek(view),
        section("Last round", _last_round(view)),
    )
