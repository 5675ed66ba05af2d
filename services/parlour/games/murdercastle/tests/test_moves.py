"""Moving and collecting (Rulebook: Action Tiles: Move into 1 Room, Move up to 2 Rooms,
Collect Evidence; Special Room Effects: The Blind Room, The Maze)."""

from __future__ import annotations

from parlour.games.murdercastle.board import Castle, place_of
from parlour.games.murdercastle.cubes import total
from parlour.games.murdercastle.tests.positions import (
    BLUE,
    GREEN,
    PHARMACY_PLACE,
    RED,
    WHITE,
    add_room,
    frame,
    game,
    legal,
    play,
    set_board,
    start_tile,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

A, H, L = pb.CHARACTER_ADELINE, pb.CHARACTER_HOYT, pb.CHARACTER_LOLA


def moves(state: pb.State, seat: int) -> set[int]:
    return {a.move.place for a in legal(state, seat) if a.HasField("move")}


def test_doors_connect_only_when_both_sides_have_a_door():
    """You must move through a door of one room that connects to a door of another; the
    Pharmacy reaches Basement #1 by the stairway (Rulebook: Move into 1 Room; Setup)."""
    state = game([A, H])
    add_room(state, 4, 0, -1)  # Back Room N-S: joins the Pharmacy's north door
    add_room(state, 9, 1, 0)  # Ale Pub E-W: joins the Pharmacy's east door
    add_room(state, 7, -1, 0)  # Black Closet S only: its wall faces the Pharmacy's west door
    castle = Castle(state)
    assert castle.neighbours(PHARMACY_PLACE) == sorted([place_of(4), place_of(9), place_of(1)])
    assert castle.neighbours(place_of(1)) == sorted([place_of(2), PHARMACY_PLACE])


def test_move_up_to_two_rooms_and_never_into_holmes_room():
    """Move up to 2 rooms (3 with the bonus); nobody moves into or through Holmes' room
    (Rulebook: Move up to 2 Rooms; Encountering Holmes)."""
    state = game([A, H])
    add_room(state, 4, 0, -1)
    add_room(state, 13, 0, -2)  # Blind Room N-S above the Back Room
    state.holmes = place_of(4)
    start_tile(state, 0, pb.ACTION_TILE_MOVE_TWO)
    assert frame(state).count == 3
    assert place_of(4) not in moves(state, 0)
    state.holmes = place_of(2)
    assert moves(state, 0) == {place_of(4), place_of(1)}
    play(state, 0, move=pb.Move(place=place_of(4)))
    play(state, 0, move=pb.Move(place=place_of(13)))
    assert state.players[0].place == place_of(13)


def test_brick_walls_block_movement():
    """No players are able to move through Brick Wall tiles (Rulebook: Move up to 2 Rooms)."""
    state = game([A, H])
    state.room_pile.remove(90)
    state.tiles.add(tile=90, x=0, y=-1)
    assert Castle(state).neighbours(PHARMACY_PLACE) == [place_of(1)]
    assert Castle(state).explorable(PHARMACY_PLACE) == [1, 3]


def test_collect_one_cube_two_with_the_bonus_never_a_completed_category():
    """Collect 1 cube (2 for the selector), never into a completed category (Rulebook: Collect
    Evidence)."""
    state = game([A, H, L])
    add_room(state, 12, 0, -1, cubes={BLUE: 2, RED: 1, GREEN: 1})
    for seat in (0, 1):
        state.players[seat].place = place_of(12)
    set_board(state, 0, [4, 2, 2, 2, 3])
    set_board(state, 1, [2, 2, 4, 2, 3])
    start_tile(state, 0, pb.ACTION_TILE_COLLECT)
    colours = {a.collect.colour for a in legal(state, 0) if a.HasField("collect")}
    assert colours == {RED, GREEN}  # blue is complete
    play(state, 0, collect=pb.Collect(colour=RED))
    play(state, 0, collect=pb.Collect(colour=GREEN))
    assert list(state.players[0].board.counts) == [4, 2, 3, 3, 3]
    assert frame(state).seat == 1 and frame(state).count == 1
    assert {a.collect.colour for a in legal(state, 1) if a.HasField("collect")} == {BLUE}


def test_no_collecting_or_bonus_with_holmes_in_your_room():
    """You cannot Collect Evidence or use selection bonuses while Holmes occupies your room
    (Rulebook: Encountering Holmes)."""
    state = game([A, H])
    add_room(state, 12, 0, -1, cubes={BLUE: 2})
    state.players[0].place = place_of(12)
    state.holmes = place_of(12)
    start_tile(state, 0, pb.ACTION_TILE_MOVE_TWO)
    assert frame(state).count == 2  # no bonus room
    state2 = game([A, H])
    add_room(state2, 12, 0, -1, cubes={BLUE: 2})
    state2.players[0].place = place_of(12)
    state2.players[1].place = place_of(12)
    state2.holmes = place_of(12)
    start_tile(state2, 0, pb.ACTION_TILE_COLLECT)
    assert total(Castle(state2).safe(place_of(12))) == 2  # nobody could collect


def test_blind_room_needs_two_collect_actions():
    """The Blind Room requires 2 Collect Evidence actions for 1 cube, even with the bonus
    (Rulebook: Special Room Effects: The Blind Room)."""
    state = game([A, H])
    add_room(state, 13, 0, -1, cubes={BLUE: 1, WHITE: 1})
    state.players[0].place = place_of(13)
    set_board(state, 0, [2, 2, 3, 3, 3])
    start_tile(state, 0, pb.ACTION_TILE_COLLECT)
    assert [a.collect.colour for a in legal(state, 0) if a.HasField("collect")] == [0]
    play(state, 0, collect=pb.Collect())
    assert state.players[0].blind_progress == 1 and total(state.players[0].board) == 13
    play(state, 0, collect=pb.Collect(colour=WHITE))  # the bonus is the second action: 1 cube
    assert total(state.players[0].board) == 14 and state.players[0].blind_progress == 0
    assert frame(state).seat == 1  # and only 1 cube, even with the bonus
    state.players[1].place = place_of(13)
    start_tile(state, 1, pb.ACTION_TILE_COLLECT)
    play(state, 1, **{"pass": pb.Pass()})
    play(state, 0, collect=pb.Collect())  # without the bonus: a search this time …
    assert frame(state).kind != pb.FRAME_KIND_ACT or frame(state).seat != 0
    start_tile(state, 1, pb.ACTION_TILE_COLLECT)
    play(state, 1, **{"pass": pb.Pass()})
    play(state, 0, collect=pb.Collect(colour=BLUE))  # … and the cube the next time
    assert total(state.players[0].board) == 15


def test_the_maze_is_two_rooms():
    """The Maze is 2 rooms: top and left doors reach one side, bottom and right the other; you
    explore only from your side (Rulebook: Special Room Effects: The Maze)."""
    state = game([A, H])
    add_room(state, 5, 0, -1)  # The Maze: its south door meets the Pharmacy
    castle = Castle(state)
    south_east = place_of(5, 1)
    assert castle.neighbours(PHARMACY_PLACE)[-1] == south_east
    assert castle.neighbours(south_east) == [PHARMACY_PLACE]
    assert castle.explorable(south_east) == [1]
    assert castle.explorable(place_of(5, 0)) == [0, 3]
    assert castle.adjacent(south_east) == sorted([PHARMACY_PLACE, place_of(5, 0)])
