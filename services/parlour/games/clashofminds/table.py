"""Shared helpers over the State: who is who, limits, drawing and discarding."""

from __future__ import annotations

from parlour.engine.game import Emitted
from parlour.engine.rng import state_rng
from parlour.games.clashofminds.catalogue import (
    CATALOGUE,
    CRIME_ID,
    HAND_SIZE,
    HOLMES,
    SITE_ID,
)
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb


def opponent(seat: int) -> int:
    """The other player."""
    return 1 - seat


def only(seat: int) -> frozenset[int]:
    """Visibility for one seat."""
    return frozenset((seat,))


def at_site(state: pb.State, key: str) -> bool:
    """Whether the current Investigation Site is the one with this key."""
    return state.site == SITE_ID[key]


def crime_in_force(state: pb.State, key: str) -> bool:
    """Whether a revealed Crime Plan Card with this key is on the table."""
    wanted = CRIME_ID[key]
    return any(t.revealed and t.crime_card == wanted for t in state.threads)


def influence_limit(state: pb.State) -> int:
    """How many Influence Cards one player may put into play this round."""
    return CATALOGUE.sites[state.site].limit + (1 if crime_in_force(state, "robbery") else 0)


def hand_target(state: pb.State, seat: int, *, initiating: bool) -> int:
    """How many cards a player draws up to (Initiating Contacts, after Initial Setup)."""
    if crime_in_force(state, "blackmail"):
        return HAND_SIZE + 1
    if initiating and seat == HOLMES and at_site(state, "baker_street"):
        return HAND_SIZE + 1
    return HAND_SIZE


def can_draw(state: pb.State, seat: int) -> bool:
    """Whether a draw would find a card (in the deck or a discard pile to reshuffle)."""
    player = state.players[seat]
    return bool(player.deck) or bool(player.discard)


def draw(state: pb.State, seat: int, count: int) -> list[Emitted]:
    """Draw up to `count` cards, reshuffling the discard pile into an empty deck."""
    player = state.players[seat]
    drawn: list[int] = []
    events: list[Emitted] = []
    for _ in range(count):
        if not player.deck:
            if not player.discard:
                break
            player.deck.extend(player.discard)
            del player.discard[:]
            with state_rng(state) as rng:
                rng.shuffle(player.deck)
            events.append(Emitted(pb.Event(
                deck_reshuffled=pb.DeckReshuffled(seat=seat, size=len(player.deck)))))
        drawn.append(player.deck.pop())
    player.hand.extend(drawn)
    if drawn:
        events.append(Emitted(pb.Event(cards_drawn=pb.CardsDrawn(seat=seat, count=len(drawn))),
                              hidden_from=only(seat)))
        events.append(Emitted(pb.Event(cards_drawn=pb.CardsDrawn(
            seat=seat, count=len(drawn), cards=sorted(drawn))), to=only(seat)))
    return events


def draw_up_to(state: pb.State, seat: int, *, initiating: bool) -> list[Emitted]:
    """Draw until the hand holds its target size."""
    missing = hand_target(state, seat, initiating=initiating) - len(state.players[seat].hand)
    return draw(state, seat, missing) if missing > 0 else []


def discarded(seat: int, cards: list[int], cause: str) -> Emitted:
    """The public record of cards going to a discard pile."""
    return Emitted(pb.Event(cards_discarded=pb.CardsDiscarded(seat=seat, cards=cards, cause=cause)))


def discard_random(state: pb.State, seat: int, count: int, cause: str) -> list[Emitted]:
    """Discard `count` cards chosen at random from a hand."""
    player = state.players[seat]
    cards: list[int] = []
    with state_rng(state) as rng:
        for _ in range(min(count, len(player.hand))):
            cards.append(player.hand.pop(rng.below(len(player.hand))))
    player.discard.extend(cards)
    return [discarded(seat, cards, cause)] if cards else []


def move_clock(state: pb.State, delta: int, cause: str) -> Emitted:
    """Move the Time Marker (never before 12 o'clock) and record it."""
    before = state.hours
    state.hours = max(0, state.hours + delta)
    return Emitted(pb.Event(clock_moved=pb.ClockMoved(
        delta=state.hours - before, hours=state.hours, cause=cause)))
