"""The Story Sequence: which cards may follow the card in force (Rulebook 2 and 4)."""

from __future__ import annotations

from functools import cache

from parlour.games.isayholmes.catalogue import KINDS, Kind
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb


def sequence_index(discard_pile) -> int:
    """Index of the card in force: the topmost card that is not I Say, Plot Thickens or Fleeing."""
    for i in range(len(discard_pile) - 1, -1, -1):
        if not KINDS[discard_pile[i]].transparent:
            return i
    raise AssertionError("the Discard Pile holds no card in force")


def sequence_card(state: pb.State) -> Kind:
    """The card whose Story Sequence the next card must follow."""
    return KINDS[state.discard_pile[sequence_index(state.discard_pile)]]


def _follows(card: Kind, previous: Kind, location: int) -> bool:
    rule = card.plays
    if rule == "SEQUENCE":
        return card.title in previous.next
    if rule == "LOCATION":
        if previous.category != "MOVEMENT":
            return False
        return "ANY_LOCATION" in previous.next or card.region == location
    if rule == "AFTER_NON_MOVEMENT":
        return previous.category != "MOVEMENT"
    if rule == "AFTER_LONDON_LOCATION":
        return previous.category == "LONDON_LOCATION"
    if rule == "AFTER_MOVEMENT":
        return previous.category == "MOVEMENT"
    return rule == "ANY_TIME"


@cache
def suitable_after(previous: int, location: int) -> frozenset[int]:
    """Every Suitable Card after `previous` with the Location chit on `location`."""
    prev = KINDS[previous]
    return frozenset(k.id for k in KINDS.values() if _follows(k, prev, location))


def suitable_cards(state: pb.State) -> frozenset[int]:
    """The Suitable Cards right now (I Say cards are not among them: they play out of sequence)."""
    return suitable_after(sequence_card(state).id, state.location)


def i_say_penalty(state: pb.State) -> int:
    """Points an I Say scores when played now: -10 if the card in force shows "I Say (-10)"."""
    return KINDS[pb.CARD_I_SAY].count if sequence_card(state).i_say else 0
