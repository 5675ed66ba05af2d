"""The two decks: revealing Rooms, drawing up, discarding, rebuilding an empty deck."""

from __future__ import annotations

from parlour.engine.game import Emitted
from parlour.engine.rng import state_rng
from parlour.engine.zones import take_top
from parlour.games.houseofhorrors.catalogue import (
    DAWN,
    HAND_SIZE,
    LANTERNS_PER_CARD,
    MAX_HAND_SIZE,
    MIDNIGHT,
    ROOM_DECK_IDS,
    card,
)
from parlour.games.houseofhorrors.events import private_with_twin, public
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb


def enough_rooms(state: pb.State) -> bool:
    """Two Room cards are out: two Rooms, or one Room and Midnight or Dawn, which "are always
    played with the other room drawn" (Special Cases, Midnight and Dawn)."""
    rooms = len(state.revealed_rooms)
    hours = sum(1 for c in state.revealed if c in (MIDNIGHT, DAWN))
    return rooms >= 1 and rooms + hours >= 2


def reveal_rooms(state: pb.State) -> list[Emitted]:
    """Turn Room deck cards face up until two Room cards are out (`enough_rooms`); Room Items,
    Midnight and Dawn stay on the table.

    An empty Room deck is rebuilt by shuffling its discard pile (RULES.md: Room deck runs out).
    """
    events: list[Emitted] = []
    del state.revealed[:]
    while not enough_rooms(state) and (state.room_deck or state.room_discard):
        if not state.room_deck:
            with state_rng(state) as rng:
                rng.shuffle(state.room_discard)
            state.room_deck[:] = state.room_discard
            del state.room_discard[:]
            rebuilt = pb.DeckReshuffled(room_deck=True, count=len(state.room_deck))
            events.append(public(reshuffled=rebuilt))
        (top,) = take_top(state.room_deck)
        state.revealed.append(top)
        events.append(public(revealed=pb.CardRevealed(card=top)))
        if card(top).kind == pb.CARD_KIND_ROOM:
            state.revealed_rooms.append(top)
            continue
        state.table.append(top)
        if top == MIDNIGHT:
            state.midnight = state.midnight_drawn = True
        elif top == DAWN:
            state.final_round = True
    return events


def hand_limit(state: pb.State, seat: int) -> int:
    """Six cards, plus one for every three lanterns in the seat's spoils, at most ten."""
    lanterns = sum(card(c).lanterns for c in state.spoils[seat].cards)
    return min(MAX_HAND_SIZE, HAND_SIZE + lanterns // LANTERNS_PER_CARD)


def draw_up(state: pb.State, first: int) -> list[Emitted]:
    """Every seat, from `first` clockwise, draws up to its hand size."""
    events: list[Emitted] = []
    for step in range(state.seats):
        seat = (first + step) % state.seats
        need = hand_limit(state, seat) - len(state.hands[seat].cards)
        drawn: list[int] = []
        while len(drawn) < need:
            if not state.house_deck:
                if not state.house_discard:
                    break
                events.append(_rebuild_house_deck(state))
            drawn += take_top(state.house_deck, need - len(drawn))
        if drawn:
            state.hands[seat].cards.extend(drawn)
            twin = pb.Event(drawn=pb.CardsDrawn(seat=seat, count=len(drawn)))
            private = pb.Event(drawn=pb.CardsDrawn(seat=seat, count=len(drawn), cards=drawn))
            events += private_with_twin(seat, private, twin)
    return events


def _rebuild_house_deck(state: pb.State) -> Emitted:
    with state_rng(state) as rng:
        rng.shuffle(state.house_discard)
    state.house_deck[:] = state.house_discard
    del state.house_discard[:]
    return public(reshuffled=pb.DeckReshuffled(room_deck=False, count=len(state.house_deck)))


def discard(state: pb.State, card_id: int) -> None:
    """Put a card face up on its own deck's discard pile."""
    (state.room_discard if card_id in ROOM_DECK_IDS else state.house_discard).append(card_id)
