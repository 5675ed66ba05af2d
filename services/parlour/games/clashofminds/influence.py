"""Influence Values: what each card in a Crime Thread is worth, and each side's total."""

from __future__ import annotations

from parlour.games.clashofminds.catalogue import CARD_ID, CATALOGUE, PERSON
from parlour.games.clashofminds.hooks import bonus
from parlour.games.clashofminds.table import at_site
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

#: Fingerprints: "All other Influence Cards in this Crime Thread have an Influence Value of 1."
FINGERPRINTED_VALUE = 1


def effect_active(card: pb.PlacedCard, key: str) -> bool:
    """A face-up, undistracted Influence Card of this kind whose constant effect applies."""
    return (
        card.card == CARD_ID[key] and not card.support and not card.face_down
        and not card.distracted
    )


def card_value(state: pb.State, thread: int, seat: int, index: int) -> int:
    """One card's Influence Value with every modifier (see RULES.md: Summary)."""
    crime_thread = state.threads[thread]
    card = crime_thread.sides[seat].cards[index]
    if card.support:
        return 0 if at_site(state, "buckingham_palace") else 1
    spec = CATALOGUE.influence[card.card]
    fingerprinted = any(
        effect_active(other, "fingerprints")
        for s, side in enumerate(crime_thread.sides)
        for i, other in enumerate(side.cards)
        if (s, i) != (seat, index)
    )
    if fingerprinted:
        return FINGERPRINTED_VALUE
    value = spec.used if card.used else spec.played
    if card.used:
        value += 1 if at_site(state, "the_docks") else 0
        value += sum(1 for c in crime_thread.sides[seat].cards if effect_active(c, "footprints"))
    return value


def has_person(state: pb.State, thread: int, seat: int) -> bool:
    """Whether a side holds a face-up person-icon Influence Card."""
    return any(
        not c.support and not c.face_down and CATALOGUE.influence[c.card].icon == PERSON
        for c in state.threads[thread].sides[seat].cards
    )


def side_total(state: pb.State | pb.View, thread: int, seat: int) -> int:
    """A player's total Influence in one Crime Thread (in a State or a View), a mode's bonus
    included."""
    cards = state.threads[thread].sides[seat].cards
    total = sum(card_value(state, thread, seat, i) for i in range(len(cards)))
    return total + bonus(state, thread, seat)
