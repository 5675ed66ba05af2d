"""Card effects as small named code keyed by catalogue key.

Two families: an Influence Card's effect when used and a Crime Plan Card's
effect when revealed (a mode adds its own). Effects that need a choice leave
a PendingEffect (see targets.py).
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.engine.game import Emitted
from parlour.games.clashofminds.catalogue import CARD_ID, CATALOGUE, HOLMES, MORIARTY
from parlour.games.clashofminds.table import (
    discard_random,
    discarded,
    draw,
    move_clock,
    opponent,
)
from parlour.games.clashofminds.targets import INFLUENCE, fizzled, wait_or_fizzle
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

Effect = Callable[[pb.State, int, int, int], list[Emitted]]


# -- Influence Cards: when used -------------------------------------------------------
def _no_use_effect(state: pb.State, seat: int, thread: int, index: int) -> list[Emitted]:
    """Constant-effect cards (Fingerprints, Footprints) do nothing more when used."""
    return []


def _informant(state: pb.State, seat: int, thread: int, index: int) -> list[Emitted]:
    """Draw 1 Influence Card."""
    return draw(state, seat, 1)


def _bribe(state: pb.State, seat: int, thread: int, index: int) -> list[Emitted]:
    """The opponent discards 1 random card from hand."""
    events = discard_random(state, opponent(seat), 1, "bribe")
    return events or fizzled(seat, INFLUENCE, CARD_ID["bribe"])


def _cipher(state: pb.State, seat: int, thread: int, index: int) -> list[Emitted]:
    """The opponent discards the top card of his Influence Deck."""
    rival = state.players[opponent(seat)]
    if not rival.deck:
        return fizzled(seat, INFLUENCE, CARD_ID["cipher"])
    card = rival.deck.pop()
    rival.discard.append(card)
    return [discarded(opponent(seat), [card], "cipher")]


def _telegram(state: pb.State, seat: int, thread: int, index: int) -> list[Emitted]:
    """Draw 2 Influence Cards, then discard 1 from hand (a pending choice)."""
    events = draw(state, seat, 2)
    return events + wait_or_fizzle(state, seat, INFLUENCE, CARD_ID["telegram"], thread, index)


def _targeted(key: str) -> Effect:
    def start(state: pb.State, seat: int, thread: int, index: int) -> list[Emitted]:
        return wait_or_fizzle(state, seat, INFLUENCE, CARD_ID[key], thread, index)

    start.__doc__ = f"{key}: choose a target (a pending effect)."
    return start


USE_EFFECTS: dict[str, Effect] = {
    "fingerprints": _no_use_effect,
    "footprints": _no_use_effect,
    "informant": _informant,
    "bribe": _bribe,
    "cipher": _cipher,
    "telegram": _telegram,
    "street_urchin": _targeted("street_urchin"),
    "witness": _targeted("witness"),
    "disguise": _targeted("disguise"),
    "forged_letter": _targeted("forged_letter"),
}


def on_use(state: pb.State, seat: int, thread: int, index: int) -> list[Emitted]:
    """Resolve the effect of the Influence Card just used."""
    card = state.threads[thread].sides[seat].cards[index].card
    return USE_EFFECTS[CATALOGUE.influence[card].key](state, seat, thread, index)


# -- Crime Plan Cards: when revealed -------------------------------------------------
def _crime_passive(state: pb.State, thread: int) -> list[Emitted]:
    """The Prime Minister, Blackmail, Robbery, The Air Gun act "from now on" (see table.py)."""
    return []


def _duchess(state: pb.State, thread: int) -> list[Emitted]:
    """Move the Time Marker back 1 hour."""
    return [move_clock(state, -1, "duchess")]


def _dynamite(state: pb.State, thread: int) -> list[Emitted]:
    """Add 1 hour to the clock."""
    return [move_clock(state, 1, "dynamite")]


def _banker(state: pb.State, thread: int) -> list[Emitted]:
    """Holmes draws 2 Influence Cards."""
    return draw(state, HOLMES, 2)


def _poison(state: pb.State, thread: int) -> list[Emitted]:
    """Holmes discards 2 random cards from his hand."""
    return discard_random(state, HOLMES, 2, "poison")


def _kidnapping(state: pb.State, thread: int) -> list[Emitted]:
    """Both players discard all their Support Cards in this Crime Thread."""
    events = []
    for seat in (HOLMES, MORIARTY):
        side = state.threads[thread].sides[seat]
        supports = [c.card for c in side.cards if c.support]
        if supports:
            kept = [c for c in side.cards if not c.support]
            del side.cards[:]
            side.cards.extend(kept)
            state.players[seat].discard.extend(supports)
            events.append(discarded(seat, supports, "kidnapping"))
    return events


CRIME_EFFECTS: dict[str, Callable[[pb.State, int], list[Emitted]]] = {
    "prime_minister": _crime_passive,
    "blackmail": _crime_passive,
    "robbery": _crime_passive,
    "air_gun": _crime_passive,
    "duchess": _duchess,
    "dynamite": _dynamite,
    "banker": _banker,
    "poison": _poison,
    "kidnapping": _kidnapping,
}


def reveal_crime(state: pb.State, thread: int) -> list[Emitted]:
    """Turn a Crime Plan Card face up and resolve its effect immediately."""
    crime_thread = state.threads[thread]
    crime_thread.revealed = True
    if crime_thread.deduction_token:
        crime_thread.deduction_token = False
        state.deduction_supply += 1
    events = [Emitted(pb.Event(crime_card_revealed=pb.CrimeCardRevealed(
        thread=thread, crime_card=crime_thread.crime_card)))]
    return events + CRIME_EFFECTS[CATALOGUE.crime[crime_thread.crime_card].key](state, thread)
