"""What each seat may see, and states that differ only in what a seat cannot see."""

from __future__ import annotations

from parlour.engine.game import copy_message
from parlour.engine.rng import Rng
from parlour.games.houseofhorrors.catalogue import ROOM_DECK_IDS
from parlour.games.houseofhorrors.decks import hand_limit
from parlour.games.houseofhorrors.spoils import owed
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb


def view(state: pb.State, seat: int | None) -> pb.View:
    """Hands and face-down spoils are private (others see counts); everything played is public."""
    over = state.phase == pb.PHASE_OVER
    return pb.View(
        phase=state.phase,
        butler=state.butler,
        turn=state.turn,
        hand=sorted(state.hands[seat].cards) if seat is not None else [],
        hand_limit=hand_limit(state, seat) if seat is not None else 0,
        hand_sizes=[len(h.cards) for h in state.hands],
        spoils=sorted(state.spoils[seat].cards) if seat is not None else [],
        spoils_sizes=[len(p.cards) for p in state.spoils],
        room_deck_size=len(state.room_deck),
        house_deck_size=len(state.house_deck),
        room_discard=state.room_discard,
        house_discard=state.house_discard,
        revealed=state.revealed,
        revealed_rooms=state.revealed_rooms,
        table=state.table,
        room=state.room,
        battle=state.battle,
        showings=state.showings,
        under_mortal=state.under_mortal,
        under_horror=state.under_horror,
        claim_card=state.claim_card,
        spoils_pool=state.spoils_pool,
        spoils_leader=state.spoils_leader,
        spoils_owed=owed(state),
        midnight=state.midnight,
        final_round=state.final_round,
        midnight_drawn=state.midnight_drawn,
        final_spoils=[pb.Pile(cards=sorted(p.cards)) for p in state.spoils] if over else [],
    )


def resample_hidden(state: pb.State, seat: int | None, rng: Rng) -> pb.State:
    """Shuffle every card `seat` cannot see among the places it cannot see into.

    House of Horrors cards: the deck, other seats' hands, and the House cards in
    other seats' spoils. Room deck cards: the deck and the Room cards in other
    seats' spoils. Every place keeps its size (and each spoils pile its mix of
    House and Room cards); spoils are revealed once the game is over.
    """
    other = copy_message(state)
    hidden = [s for s in range(state.seats) if s != seat]
    house_slots = [(other.house_deck, i) for i in range(len(other.house_deck))]
    room_slots = [(other.room_deck, i) for i in range(len(other.room_deck))]
    for s in hidden:
        hand = other.hands[s].cards
        house_slots += [(hand, i) for i in range(len(hand))]
        if state.phase != pb.PHASE_OVER:
            pile = other.spoils[s].cards
            for i, c in enumerate(pile):
                (room_slots if c in ROOM_DECK_IDS else house_slots).append((pile, i))
    for slots in (house_slots, room_slots):
        values = [zone[i] for zone, i in slots]
        rng.shuffle(values)
        for (zone, i), value in zip(slots, values, strict=True):
            zone[i] = value
    return other
