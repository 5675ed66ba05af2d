"""Influence Values: what each card in a Crime Thread is worth, and each side's total."""

from __future__ import annotations

from parlour.games.clashofminds.catalogue import AGENT_ID, CARD_ID, CATALOGUE, HOLMES, PERSON
from parlour.games.clashofminds.table import at_site
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

#: The Agents whose ability gives +2 to threads holding a person-icon card.
PERSON_BONUS_AGENTS = {HOLMES: AGENT_ID["watson"], 1: AGENT_ID["moran"]}
PERSON_BONUS = 2
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


def agent_bonus(state: pb.State, thread: int, seat: int) -> int:
    """Dr. Watson / Sebastian Moran: +2 where the side holds a person-icon card."""
    agent = state.players[seat].agent
    active = agent.in_play and agent.activated and agent.agent == PERSON_BONUS_AGENTS[seat]
    return PERSON_BONUS if active and has_person(state, thread, seat) else 0


def side_total(state: pb.State, thread: int, seat: int) -> int:
    """A player's total Influence in one Crime Thread."""
    cards = state.threads[thread].sides[seat].cards
    total = sum(card_value(state, thread, seat, i) for i in range(len(cards)))
    return total + agent_bonus(state, thread, seat)
