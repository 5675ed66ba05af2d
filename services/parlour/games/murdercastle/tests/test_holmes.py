"""Holmes (Rulebook: Move Holmes; Encountering Holmes; Holmes Goes on a Rampage; Special Room
Effects: The Whitechapel Suite)."""

from __future__ import annotations

from parlour.games.murdercastle import flow
from parlour.games.murdercastle.board import Castle, place_of
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.cubes import total
from parlour.games.murdercastle.game import GAME
from parlour.games.murdercastle.tests.positions import (
    BLUE,
    add_room,
    frame,
    game,
    legal,
    movement_card,
    play,
    set_board,
    stack_holmes,
    start_tile,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

A, H, L = pb.CHARACTER_ADELINE, pb.CHARACTER_HOYT, pb.CHARACTER_LOLA
RAMPAGE = movement_card(special="rampage")
LIGHTS_OUT = movement_card(special="lights_out")


def castle_with_rooms(state: pb.State) -> None:
    """Back Room north of the Pharmacy, Holmes' Apartment beyond it, Ale Pub to the east."""
    add_room(state, 4, 0, -1)
    add_room(state, 12, 0, -2)
    add_room(state, 9, 1, 0)


def test_the_selector_chooses_among_explored_listed_rooms():
    """Holmes must move to an explored room on the card; with several the selector chooses; an
    unexplored room is ignored (Rulebook: Move Holmes)."""
    state = game([A, H])
    castle_with_rooms(state)
    stack_holmes(state, movement_card((8, 12)), movement_card((9, 16)))
    start_tile(state, 0, pb.ACTION_TILE_MOVE_HOLMES)
    play(state, 0, reveal=pb.RevealHolmes())
    assert state.holmes == place_of(12)  # Reception Room is not in the castle
    start_tile(state, 1, pb.ACTION_TILE_MOVE_HOLMES)
    play(state, 1, reveal=pb.RevealHolmes())
    assert state.holmes == place_of(9)


def test_holmes_stays_when_no_listed_room_is_explored():
    """If no listed room is in the castle, Holmes does not move (Rulebook: Move Holmes)."""
    state = game([A, H])
    stack_holmes(state, movement_card((15,)))
    start_tile(state, 0, pb.ACTION_TILE_MOVE_HOLMES)
    play(state, 0, reveal=pb.RevealHolmes())
    assert state.holmes == place_of(1)


def test_strikes_drop_cubes_by_the_progression_into_the_safe():
    """Each strike takes a strike cube and drops 1, 1, 2, 2, 3 cubes of the player's choice into
    the room's safe, regardless of its capacity (Rulebook: Encountering Holmes)."""
    state = game([A, H])
    state.players[0].ability_used = True
    add_room(state, 15, 1, 0, rotation=0, cubes={BLUE: 1})  # Bathroom: safe 1, already full
    state.players[0].place = place_of(15)
    dropped = []
    for strike in range(1, 6):
        state.holmes = place_of(1)
        stack_holmes(state, movement_card((15,)))
        start_tile(state, 1, pb.ACTION_TILE_MOVE_HOLMES)
        before = total(state.players[0].board)
        play(state, 1, reveal=pb.RevealHolmes())
        while frame(state).kind == pb.FRAME_KIND_DROP_EVIDENCE:
            play(state, 0, cube=legal(state, 0)[0].cube)
        dropped.append(before - total(state.players[0].board))
        assert state.players[0].strikes == strike
    assert dropped == [1, 1, 2, 2, 3]
    assert total(Castle(state).safe(place_of(15))) == 1 + 9


def test_no_second_strike_while_holmes_stays():
    """If Holmes remains in your room after a movement card, no additional strike (Rulebook:
    Encountering Holmes)."""
    state = game([A, H])
    state.players[0].ability_used = True
    castle_with_rooms(state)
    state.players[0].place = place_of(9)
    state.holmes = place_of(9)
    stack_holmes(state, movement_card((9, 16)))
    start_tile(state, 1, pb.ACTION_TILE_MOVE_HOLMES)
    play(state, 1, reveal=pb.RevealHolmes())
    assert state.players[0].strikes == 0


def test_the_move_holmes_bonus_escapes():
    """If Holmes enters the selector's room, the selector may escape through a doorway (Rulebook:
    Move Holmes: Selection Bonus)."""
    state = game([H, L])
    castle_with_rooms(state)
    state.players[0].place = place_of(4)
    stack_holmes(state, movement_card((4, 13)))
    start_tile(state, 0, pb.ACTION_TILE_MOVE_HOLMES)
    play(state, 0, reveal=pb.RevealHolmes())
    assert frame(state).kind == pb.FRAME_KIND_ESCAPE
    escapes = {a.move.place for a in legal(state, 0) if a.HasField("move")}
    assert escapes == {place_of(12), place_of(26)}
    play(state, 0, move=pb.Move(place=place_of(12)))
    assert state.players[0].strikes == 0 and state.players[0].place == place_of(12)


def test_rampage_visits_every_listed_room_in_order_and_lights_out_ends_it():
    """A rampage moves Holmes through every explored room on each card drawn, left to right;
    Lights Out ends it and reshuffles every movement card (Rulebook: Holmes Goes on a
    Rampage)."""
    state = game([A, H])
    castle_with_rooms(state)
    state.players[1].place = place_of(9)
    state.players[1].ability_used = True
    set_board(state, 1, [4, 0, 0, 0, 0])  # a single colour: the drop needs no choice
    stack_holmes(state, RAMPAGE, movement_card((4, 13)), movement_card((9, 16)), LIGHTS_OUT,
                 movement_card((12,)))
    start_tile(state, 0, pb.ACTION_TILE_MOVE_HOLMES)
    events = play(state, 0, reveal=pb.RevealHolmes())
    route = [e.event.holmes_moved.to_place for e in events if e.event.HasField("holmes_moved")]
    assert route == [place_of(4), place_of(9)]
    assert state.players[1].strikes == 1
    assert state.holmes == place_of(9)
    assert len(state.holmes_deck) == 33 and not state.holmes_discard


def test_a_second_rampage_restarts_the_rampage():
    """Another rampage card drawn during a rampage restarts it (Rulebook: Holmes Goes on a
    Rampage; RULES.md: a rampage reveals 3 cards)."""
    state = game([A, H])
    castle_with_rooms(state)
    second = [c for c in range(1, 34) if c != RAMPAGE
              and catalogue().movement[c].special == "rampage"][0]
    stack_holmes(state, RAMPAGE, movement_card((4,)), second, movement_card((9,)),
                 movement_card((12,)), movement_card((4, 13)))
    start_tile(state, 0, pb.ACTION_TILE_MOVE_HOLMES)
    events = play(state, 0, reveal=pb.RevealHolmes())
    route = [e.event.holmes_moved.to_place for e in events if e.event.HasField("holmes_moved")]
    assert route == [place_of(4), place_of(9), place_of(12), place_of(4)]


def test_whitechapel_suite_hiding():
    """When Holmes enters the Whitechapel Suite the players there secretly hide; those whose
    spot differs from Holmes' are spared (Rulebook: Special Room Effects: The Whitechapel
    Suite)."""
    state = game([H, L, A])
    state.players[2].ability_used = True
    add_room(state, 27, 0, -1, rotation=2)  # south door meets the Pharmacy
    for seat in (0, 1):
        state.players[seat].place = place_of(27)
    set_board(state, 0, [3, 3, 3, 3, 1])
    set_board(state, 1, [3, 3, 3, 3, 1])
    stack_holmes(state, movement_card((27,)))
    start_tile(state, 2, pb.ACTION_TILE_MOVE_HOLMES)
    play(state, 2, reveal=pb.RevealHolmes())
    assert sorted(d.seat for d in GAME.pending(state)) == [0, 1]
    events = play(state, 0, hide=pb.Hide(spot=pb.HIDING_SPOT_BED))
    assert all(not e.visible_to(1) or not e.event.hid.spot for e in events)
    events = play(state, 1, hide=pb.Hide(spot=pb.HIDING_SPOT_BATHROOM))
    revealed = [e.event.hiding for e in events if e.event.HasField("hiding")][0]
    struck = 0 if revealed.holmes == pb.HIDING_SPOT_BED else 1
    assert state.players[struck].strikes == 1 and state.players[1 - struck].strikes == 0


def test_lights_out_reshuffles_and_holmes_stays():
    """Lights Out: all movement cards are reshuffled into a new deck; Holmes does not move
    (Rulebook: Move Holmes: Note)."""
    state = game([A, H])
    castle_with_rooms(state)
    stack_holmes(state, movement_card((9,)))
    start_tile(state, 0, pb.ACTION_TILE_MOVE_HOLMES)
    play(state, 0, reveal=pb.RevealHolmes())
    stack_holmes(state, LIGHTS_OUT)
    start_tile(state, 0, pb.ACTION_TILE_MOVE_HOLMES)
    play(state, 0, reveal=pb.RevealHolmes())
    assert state.holmes == place_of(9)
    assert len(state.holmes_deck) == 33 and not state.holmes_discard


def test_no_escape_bonus_at_the_end_of_the_round():
    """The Move Holmes bonus does not apply to the end-of-round movement card (Rulebook: Move
    Holmes: Selection Bonus)."""
    state = game([H, L])
    castle_with_rooms(state)
    state.players[0].place = place_of(4)
    set_board(state, 0, [4, 0, 0, 0, 0])
    stack_holmes(state, movement_card((4, 13)))
    state.selections = 4
    del state.frames[:]
    flow.settle(state, [])  # the round ends: the key holder reveals
    assert state.holmes == place_of(4) and state.players[0].strikes == 1
