"""How Clash of Minds names its components: cards as printed, Crime Threads from 1, seats
with their roles, the clock as hours gone (the words text.py builds its lines from)."""

from __future__ import annotations

from parlour.engine.text import seat
from parlour.games.clashofminds.catalogue import CATALOGUE, CLOCK_HOURS
from parlour.games.clashofminds.hooks import added
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

ROLES = ("Holmes", "Moriarty")
ACTION_NAMES = {
    pb.ACTION_CARD_MANDATORY: "Mandatory card",
    pb.ACTION_CARD_DRAW_OR_USE: "Draw/Use card",
    pb.ACTION_CARD_USE_OR_SUPPORT: "Use/Support card",
    pb.ACTION_CARD_DRAW_OR_SUPPORT: "Draw/Support card",
}
#: The actions printed on the Action Cards (Rulebook: Action Cards).
PRINTED_ACTIONS = {"play": "Put one Influence Card into play", "draw": "Draw one Influence Card",
                   "use": "Use one Influence Card", "support": "Add one Support Card"}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
            "ninth", "tenth")


def thread(index: int) -> str:
    """A Crime Thread, numbered from 1 as the rulebook lays them out."""
    return f"Crime Thread {index + 1}"


def ordinal(n: int) -> str:
    """'first', 'second', … for n = 1, 2, …"""
    return ORDINALS[n - 1] if n <= len(ORDINALS) else f"{n}th"


def card_name(card: int) -> str:
    """An Influence Card's printed name."""
    return CATALOGUE.influence[card].name


def influence(card: int) -> str:
    """An Influence Card with its printed values: 'Informant (2, used 1)'."""
    spec = CATALOGUE.influence[card]
    return f"{spec.name} ({spec.played}, used {spec.used})"


def influence_detail(card: int) -> str:
    """An Influence Card's printed text, for hover and `?`."""
    spec = CATALOGUE.influence[card]
    kind = "constant effect" if spec.constant else "effect when used"
    return (f"{spec.name}: {spec.icon} icon; Influence Value {spec.played} in play, "
            f"{spec.used} used; {kind}: {spec.text} ({spec.copies} in each deck)")


def crime(card: int) -> str:
    """A Crime Plan Card with its type: 'The Duchess (Victim)'."""
    spec = CATALOGUE.crime[card]
    return f"{spec.name} ({spec.thread.capitalize()})"


def action_card(card: int) -> str:
    """An Action Card in a sentence: 'the Draw/Use card', or 'an Action Card' when face down."""
    return f"the {ACTION_NAMES[card]}" if card in ACTION_NAMES else "an Action Card"


def action_detail(card: int) -> str:
    """The actions printed on an Action Card."""
    sides = " | ".join(PRINTED_ACTIONS[s] for s in CATALOGUE.actions[card].sides)
    return f"{ACTION_NAMES[card]}: {sides}"


def placed(card: pb.PlacedCard) -> str:
    """A card on the table as its viewer sees it (no article)."""
    if not card.card:
        return "Support Card" if card.support else "face-down card"
    spec = CATALOGUE.influence[card.card]
    if card.support:
        return f"{spec.name} (Support Card)"
    if card.face_down:
        return f"{spec.name} (face down)"
    if card.used:
        return f"{spec.name} (used, {spec.used}{', distracted' if card.distracted else ''})"
    return f"{spec.name} ({spec.played})"


def placed_on(side: pb.Side, index: int, owner: str = "", *, printed: bool = False) -> str:
    """One card of a side, told apart from the same card beside it: 'the second Informant (2)',
    or "Moriarty's Witness (2)" with an owner; `printed`: with both its values."""
    card = side.cards[index]

    def same(other: pb.PlacedCard) -> bool:
        return (other.card, other.support) == (card.card, card.support)

    alike = [i for i, other in enumerate(side.cards) if same(other)]
    words = influence(card.card) if printed else placed(card)
    if len(alike) > 1:
        words = f"{ordinal(alike.index(index) + 1)} {words}"
    elif card.card:
        return f"{owner} {words}" if owner else words
    return f"{owner} {words}" if owner else f"the {words}"


def role(n: int) -> str:
    """A seat's role."""
    return ROLES[n]


def who(n: int) -> str:
    """A seat as such, with its role: '{seat:0} (Holmes)'."""
    return f"{seat(n)} ({ROLES[n]})"


def hours_line(hours: int) -> str:
    """The Clock Tower as hours gone: 'Hour 4 of 12 (4 hours gone, 8 left)'."""
    if hours >= CLOCK_HOURS:
        return (f"Hour {CLOCK_HOURS} of {CLOCK_HOURS} (the clock has struck twelve: "
                f"{plural(hours, 'hour')} gone)")
    return (f"Hour {hours} of {CLOCK_HOURS} ({plural(hours, 'hour')} gone, "
            f"{CLOCK_HOURS - hours} left)")


def plural(n: int, noun: str) -> str:
    """'1 card', '2 cards'."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _spec(source: int, card: int):
    """The catalogue entry of an effect's source: an Influence Card or a mode's component."""
    if source == pb.EFFECT_SOURCE_INFLUENCE:
        return CATALOGUE.influence[card]
    return added("sources")[source].cards[card]


def source_name(source: int, card: int) -> str:
    """The name of the card (or a mode's component) whose effect acts."""
    return _spec(source, card).name


def source_detail(source: int, card: int) -> str:
    """The printed text of the card (or a mode's component) whose effect acts."""
    if source == pb.EFFECT_SOURCE_INFLUENCE:
        return influence_detail(card)
    return _spec(source, card).text


def effect_source(effect: pb.PendingEffect) -> str:
    """The name of the card whose effect waits for a target."""
    return source_name(effect.source, effect.card)


def effect_key(effect: pb.PendingEffect) -> str:
    """The catalogue key of the card whose effect waits."""
    return _spec(effect.source, effect.card).key
