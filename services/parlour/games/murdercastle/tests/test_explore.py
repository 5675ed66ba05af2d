"""Explore the Castle and Explore the Room (Rulebook: Action Tiles: Explore the Castle)."""

from __future__ import annotations

from parlour.games.murdercastle.board import Castle, place_of
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.cubes import total
from parlour.games.murdercastle.game import GAME
from parlour.games.murdercastle.tests.positions import (
    BLUE,
    GREEN,
    RED,
    WHITE,
    add_room,
    empty_pile,
    frame,
    game,
    legal,
    play,
    put_on_pile,
    set_gondola,
    start_tile,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

J = pb.CHARACTER_JONAH


def test_jonah_fills_the_steel_vault_with_4_cubes():
    """Jonah explores from the Room of the 3 Corpses and places 4 cubes into the Steel Vault
    from the unloading gondola (Rulebook: Explore the Castle, the worked example)."""
    state = game([J, pb.CHARACTER_LOLA])
    add_room(state, 11, 0, -1, rotation=0)  # Room of the 3 Corpses north of the Pharmacy
    state.players[0].place = place_of(11)
    put_on_pile(state, 10)
    set_gondola(state, {BLUE: 2, WHITE: 2, RED: 1})
    start_tile(state, 0, pb.ACTION_TILE_EXPLORE)
    sides = {a.explore.side for a in legal(state, 0) if a.HasField("explore")}
    assert sides == {0, 1}  # north and east doorways have nothing beyond them
    play(state, 0, explore=pb.Explore(side=1))
    vault = Castle(state).placed[10]
    assert (vault.x, vault.y) == (1, -1)
    assert frame(state).kind == pb.FRAME_KIND_FILL_SAFE and frame(state).count == 4
    for colour in (BLUE, BLUE, WHITE, RED):
        play(state, 0, cube=pb.ChooseCube(colour=colour))
    assert list(vault.safes[0].counts) == [2, 1, 0, 1, 0]
    assert total(state.gondolas[state.unloading]) == 1
    assert Castle(state).doorway_to(place_of(11), 1) == place_of(10)


def test_rotation_must_connect_the_explored_doorway():
    """A revealed tile may be rotated any way that joins a doorway to the explored one
    (Rulebook: Explore the Castle)."""
    state = game([J, pb.CHARACTER_LOLA])
    put_on_pile(state, 20)  # Barber Shop: doors N and W
    start_tile(state, 0, pb.ACTION_TILE_EXPLORE)
    play(state, 0, explore=pb.Explore(side=0))  # north of the Pharmacy
    rotations = [a.rotate.rotation for a in legal(state, 0)]
    assert frame(state).kind == pb.FRAME_KIND_PLACE_ROOM and sorted(rotations) == [2, 3]
    play(state, 0, rotate=pb.Rotate(rotation=3))
    assert Castle(state).doorway_to(place_of(26), 0) == place_of(20)


def test_fill_stops_when_the_gondola_empties_and_the_wheel_turns():
    """With fewer cubes in the unloading gondola than the safe holds, only those are placed;
    the empty gondola moves on and is refilled from the bag (Rulebook: Explore the Castle)."""
    state = game([J, pb.CHARACTER_LOLA])
    put_on_pile(state, 12)  # Holmes' Apartment, safe 4
    set_gondola(state, {GREEN: 2})
    first = state.unloading
    start_tile(state, 0, pb.ACTION_TILE_EXPLORE)
    play(state, 0, explore=pb.Explore(side=0))
    while frame(state).kind == pb.FRAME_KIND_PLACE_ROOM:
        play(state, 0, rotate=legal(state, 0)[0].rotate)
    assert total(Castle(state).safe(place_of(12))) == 2
    assert state.unloading == (first + 1) % 5
    assert total(state.gondolas[first]) == 5


def test_selection_bonus_explores_two_rooms():
    """The selector may explore up to 2 rooms; the others explore 1 (Rulebook: Explore the
    Castle: Selection Bonus)."""
    state = game([J, pb.CHARACTER_LOLA])
    start_tile(state, 0, pb.ACTION_TILE_EXPLORE)
    assert frame(state).count == 2
    state2 = game([J, pb.CHARACTER_LOLA])
    start_tile(state2, 0, pb.ACTION_TILE_EXPLORE)
    play(state2, 0, **{"pass": pb.Pass()})
    assert frame(state2).seat == 1 and frame(state2).count == 1


def test_basement_3_has_one_doorway_and_padlocks_the_new_room():
    """Only 1 room can be explored from Basement #3; its other doorways get Padlocks
    (Rulebook: Explore the Castle: Note)."""
    state = game([J, pb.CHARACTER_LOLA])
    state.players[0].place = place_of(3)
    put_on_pile(state, 6)  # Atrium: 4 doors
    start_tile(state, 0, pb.ACTION_TILE_EXPLORE)
    assert [a.explore.side for a in legal(state, 0) if a.HasField("explore")] == [2]
    play(state, 0, explore=pb.Explore(side=2))
    atrium = Castle(state).placed[6]
    assert sorted(atrium.padlocked) == [1, 2, 3] and atrium.level == -1
    assert Castle(state).explorable(place_of(6)) == []


def test_explore_flips_to_explore_the_room_when_nothing_can_be_explored():
    """With an empty room pile, Explore the Castle flips to Explore the Room; the selector
    fills the whole safe, the others 1 cube each, and neither may pass (Rulebook: Explore the
    Room)."""
    state = game([J, pb.CHARACTER_LOLA])
    add_room(state, 12, 0, -1)  # Holmes' Apartment: safe 4
    state.players[0].place = place_of(12)
    state.players[1].place = place_of(2)  # Basement #2: safe 2, holding 1 cube
    empty_pile(state)
    state.selections = 1
    play(state, frame(state).seat, select=pb.SelectTile(tile=pb.ACTION_TILE_MOVE_ONE))
    while state.frames[-1].kind != pb.FRAME_KIND_SELECT_TILE:
        seat = frame(state).seat
        play(state, seat, **{"pass": pb.Pass()})
    assert state.explore_flipped
    set_gondola(state, {BLUE: 1, WHITE: 1, GREEN: 3})
    start_tile(state, 0, pb.ACTION_TILE_EXPLORE)
    assert frame(state).count == 4
    assert not any(a.HasField("pass") for a in legal(state, 0))
    play(state, 0, cube=pb.ChooseCube(colour=BLUE))
    play(state, 0, cube=pb.ChooseCube(colour=WHITE))  # only green is left: placed for Jonah
    assert list(Castle(state).safe(place_of(12)).counts) == [1, 1, 2, 0, 0]
    assert frame(state).kind == pb.FRAME_KIND_EVENT_WINDOW  # Jonah may use his ability now
    play(state, 0, **{"pass": pb.Pass()})
    # Lola must add 1 cube to Basement #2; the last green one is the only choice, so it is placed
    assert list(Castle(state).safe(place_of(2)).counts)[2] >= 1
    assert total(Castle(state).safe(place_of(2))) == 2


def test_explore_flips_when_only_brick_walls_are_left():
    """"If there are no more rooms from the Room Tile deck …" the tile flips, even while Brick
    Walls remain face down in the pile (Rulebook: Explore the Room)."""
    state = game([J, pb.CHARACTER_LOLA])
    walls = [t for t in state.room_pile if t not in catalogue().rooms]
    rooms = [t for t in state.room_pile if t in catalogue().rooms]
    for i, tile in enumerate(rooms):
        add_room(state, tile, 100 + 2 * i, 100)
    assert list(state.room_pile) == walls and walls
    start_tile(state, 0, pb.ACTION_TILE_MOVE_ONE)
    while frame(state).kind != pb.FRAME_KIND_SELECT_TILE:
        play(state, frame(state).seat, **{"pass": pb.Pass()})
    assert state.explore_flipped


def test_explore_the_castle_is_not_offered_from_a_room_with_nothing_to_explore():
    """"You can use the Explore the Castle Action Tile when the room you occupy has a
    doorway with no connecting room tile" (Rulebook: Action Tiles: Explore the Castle): a
    selector whose room has none is not offered the tile, which would do nothing for them,
    unless it is the last tile left, and then its choice says why."""
    state = game([J, pb.CHARACTER_LOLA])
    seat = frame(state).seat
    assert frame(state).kind == pb.FRAME_KIND_SELECT_TILE
    explore = pb.Action(select=pb.SelectTile(tile=pb.ACTION_TILE_EXPLORE))
    assert explore in legal(state, seat)
    room = Castle(state).placed[state.players[seat].place // 2]
    room.padlocked.extend(s for s in range(4) if s not in room.padlocked)
    assert Castle(state).any_explorable() and not state.explore_flipped
    assert explore not in legal(state, seat)
    assert legal(state, seat)
    del state.tiles_open[:]
    state.tiles_open.append(pb.ACTION_TILE_EXPLORE)
    assert legal(state, seat) == [explore]
    assert GAME.label_actions(state, seat, [explore]) == [
        "select Explore the Castle (your room has no doorway to explore)"]
