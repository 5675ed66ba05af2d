"""Build exact House of Horrors positions for rule tests, and play moves on them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from parlour.engine import runtime
from parlour.engine.game import Emitted
from parlour.engine.rng import Rng
from parlour.games.houseofhorrors import GAME
from parlour.games.houseofhorrors.catalogue import ROOM_DECK_IDS, by_name, card
from parlour.games.houseofhorrors.decks import reveal_rooms
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb


def position(
    seats: int = 4,
    *,
    butler: int = 0,
    hands: dict[int, Sequence[str]] | None = None,
    room: str | None = None,
    battle: int = pb.BATTLE_UNSPECIFIED,
    table: Iterable[str] = (),
    reveal: Sequence[str] = (),
    spoils: dict[int, Sequence[str]] | None = None,
) -> pb.State:
    """A legal state with exactly these hands, spoils, room and table.

    With `room` the encounter is under way (PLAY if `battle` is set, else
    DECLARE); without it the Butler has just revealed `reveal` (in order) from
    the top of the Room deck. Every other card stays in the decks.
    """
    state = GAME.new_state(pb.Options(first_butler=butler), seats, seed=7)
    for hand in state.hands:
        state.house_deck.extend(hand.cards)
        del hand.cards[:]
    state.room_deck.extend(reversed([*state.revealed_rooms, *state.table]))
    del state.revealed_rooms[:]
    del state.revealed[:]
    del state.table[:]
    state.midnight = state.final_round = state.midnight_drawn = False
    for seat, names in (hands or {}).items():
        state.hands[seat].cards.extend(take(state.house_deck, n) for n in names)
    for seat, names in (spoils or {}).items():
        state.spoils[seat].cards.extend(take_any(state, n) for n in names)
    for name in table:
        placed = take(state.room_deck, name)
        state.table.append(placed)
        state.midnight |= name == "Midnight"
        state.midnight_drawn |= name == "Midnight"
        state.final_round |= name == "Dawn"
    state.turn = butler
    if room is not None:
        state.room = take(state.room_deck, room)
        state.battle = battle
        state.phase = pb.PHASE_PLAY if battle else pb.PHASE_DECLARE
        return state
    ids = [take(state.room_deck, n) for n in reveal]
    state.room_deck.extend(reversed(ids))
    reveal_rooms(state)
    return state


def take(zone, name: str) -> int:
    """Remove one copy of the named card from a zone and return its id."""
    for i, c in enumerate(zone):
        if card(c).name == name:
            del zone[i]
            return c
    raise LookupError(f"no {name} left in the zone")


def take_any(state: pb.State, name: str) -> int:
    """One copy of the named card, taken from the deck it belongs to."""
    zone = state.room_deck if by_name(name)[0] in ROOM_DECK_IDS else state.house_deck
    return take(zone, name)


def names(zone) -> list[str]:
    """The names of the cards in a zone, in order."""
    return [card(c).name for c in zone]


def held(state: pb.State, seat: int, name: str) -> int:
    """The id of a named card in a seat's hand (the first copy, as the legal actions offer)."""
    return min(c for c in state.hands[seat].cards if card(c).name == name)


def act(state: pb.State, seat: int, **move: object) -> tuple[pb.State, list[Emitted]]:
    """Apply one action through the runtime (so it is checked and atomic)."""
    return runtime.apply(GAME, state, seat, pb.Action(**move))


def kinds(events: list[Emitted]) -> list[str]:
    """The kinds of the events, in order."""
    return [e.event.WhichOneof("kind") for e in events]


def rigged_rng(*rolls: int) -> int:
    """An RNG state whose next die rolls are exactly `rolls`."""
    for start in range(1_000_000):
        rng = Rng(start)
        if all(rng.roll() == r for r in rolls):
            return start
    raise LookupError(f"no RNG state rolls {rolls}")


def play_round(
    state: pb.State, plays: dict[int, Sequence[str | tuple[str, int]]], rolls: Sequence[int] = ()
) -> tuple[pb.State, list[Emitted]]:
    """Each seat still to play plays its named cards and ends its turn; others discard (or pass).

    An Item is played for its player's side; ("Item", side) names the side of
    an Item played alone. `rolls` rig the dice rolled at resolution.
    """
    events: list[Emitted] = []
    while state.phase == pb.PHASE_PLAY:
        seat = state.turn
        if seat not in plays:
            hand = state.hands[seat].cards
            move = {"discard": pb.DiscardCard(card=hand[0])} if hand else {"end_turn": pb.EndTurn()}
            if rolls and state.turns_done == state.seats - 1:
                state.rng = rigged_rng(*rolls)
            state, emitted = act(state, seat, **move)
            events += emitted
            continue
        for entry in plays[seat]:
            name, side = entry if isinstance(entry, tuple) else (entry, 0)
            c = held(state, seat, name)
            if card(c).is_character:
                state, emitted = act(state, seat, play_character=pb.PlayCharacter(card=c))
            else:
                side = side or state.showings[seat].side or card(c).side
                state, emitted = act(state, seat, play_item=pb.PlayItem(card=c, side=side))
            events += emitted
        if rolls and state.turns_done == state.seats - 1:
            state.rng = rigged_rng(*rolls)
        state, emitted = act(state, seat, end_turn=pb.EndTurn())
        events += emitted
    return state, events


def resolved(events: list[Emitted]) -> pb.EncounterResolved:
    """The one EncounterResolved event among `events`."""
    (found,) = [e.event.resolved for e in events if e.event.HasField("resolved")]
    return found
