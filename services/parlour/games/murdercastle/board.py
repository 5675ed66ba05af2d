"""The castle as a grid of placed tiles: doorways, stairs, pathways, padlocks and levels.

A *place* is one room: `tile * 2 + side`, where side is 0 except for the second
room of The Maze. Board sides are 0 N, 1 E, 2 S, 3 W; a tile's printed sides
turn clockwise by its rotation. Levels keep stories apart (a doorway joins two
tiles only on the same story), except a placed tile's stairs doorway and every doorway of
a room a mode declares to reach every level (`hooks.Points.any_level_rooms`).
"""

from __future__ import annotations

from parlour.games.murdercastle.catalogue import Room, catalogue
from parlour.games.murdercastle.hooks import declared
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

PHARMACY = 26
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))


def place_of(tile: int, half: int = 0) -> int:
    """The place id of a room on a tile."""
    return tile * 2 + half


def tile_of(place: int) -> int:
    """The tile number a place lies on."""
    return place // 2


def opposite(side: int) -> int:
    """The side facing `side` on the neighbouring tile."""
    return (side + 2) % 4


def place_name(place: int) -> str:
    """A readable room name ("The Maze (south-east)" for The Maze's second room)."""
    room = catalogue().rooms.get(tile_of(place))
    if room is None:
        return f"room {place}"
    if len(room.halves) > 1:
        return f"{room.name} ({'north-west' if place % 2 == 0 else 'south-east'})"
    return room.name


def room_special(place: int) -> str:
    """The special effect of a place's room, if any."""
    room = catalogue().rooms.get(tile_of(place))
    return room.special if room else ""


def story(level: int) -> int:
    """The story of a level: every level above the main floor counts as one ("Consider the
    2nd, 3rd, and 4th levels the same level")."""
    return min(level, 1)


def board_sides(rotation: int, printed: tuple[int, ...]) -> tuple[int, ...]:
    """Printed sides turned to board sides."""
    return tuple((p + rotation) % 4 for p in printed)


class Castle:
    """Read-only geometry over a State's placed tiles."""

    __slots__ = ("state", "cells", "placed", "rooms")

    def __init__(self, state: pb.State) -> None:
        self.state = state
        self.rooms = catalogue().rooms
        self.cells: dict[tuple[int, int], pb.PlacedTile] = {}
        self.placed: dict[int, pb.PlacedTile] = {}
        for tile in state.tiles:
            self.cells[(tile.x, tile.y)] = tile
            self.placed[tile.tile] = tile

    # -- tiles and places --------------------------------------------------
    def places(self) -> list[int]:
        """Every explored room."""
        return [
            place_of(t.tile, h)
            for t in self.state.tiles if t.tile in self.rooms
            for h in range(len(self.rooms[t.tile].halves))
        ]

    def is_explored(self, place: int) -> bool:
        """Whether a place is on the castle."""
        tile = self.placed.get(tile_of(place))
        return tile is not None and place % 2 < len(self.rooms[tile.tile].halves)

    def sides(self, place: int) -> tuple[int, ...]:
        """The board sides of a place's doorways."""
        tile = self.placed[tile_of(place)]
        room = self.rooms[tile.tile]
        return board_sides(tile.rotation, room.halves[place % 2])

    def walls(self, place: int) -> tuple[int, ...]:
        """The board sides a place touches (all four, or its half of The Maze)."""
        tile = self.placed[tile_of(place)]
        room = self.rooms[tile.tile]
        if len(room.halves) == 1:
            return (0, 1, 2, 3)
        return self.sides(place)

    def place_facing(self, tile: pb.PlacedTile, side: int) -> int:
        """The room of `tile` that touches board side `side`."""
        room = self.rooms[tile.tile]
        printed = (side - tile.rotation) % 4
        for half, printed_sides in enumerate(room.halves):
            if printed in printed_sides:
                return place_of(tile.tile, half)
        return place_of(tile.tile, 0)

    def neighbour_tile(self, place: int, side: int) -> pb.PlacedTile | None:
        """The tile beside a place's tile on a board side."""
        tile = self.placed[tile_of(place)]
        dx, dy = STEPS[side]
        return self.cells.get((tile.x + dx, tile.y + dy))

    def capacity(self, place: int) -> int:
        """The number printed on a place's safe."""
        return self.rooms[tile_of(place)].capacity

    def safe(self, place: int) -> pb.Cubes:
        """The cubes in a place's safe."""
        return self.placed[tile_of(place)].safes[place % 2]

    def special(self, place: int) -> str:
        """The special effect of a place's room, if any."""
        return room_special(place)

    # -- connections --------------------------------------------------------
    def doorway_to(self, place: int, side: int) -> int | None:
        """The place a doorway leads to, if both tiles have an open door there on one story
        (or the doorway reaches every story)."""
        tile = self.placed[tile_of(place)]
        if side in tile.padlocked:
            return None
        other = self.neighbour_tile(place, side)
        if other is None or other.tile not in self.rooms:
            return None
        facing = opposite(side)
        if facing in other.padlocked:
            return None
        room = self.rooms[other.tile]
        if (facing - other.rotation) % 4 not in room.doors:
            return None
        if not (story(tile.level) == story(other.level) or self._between_stories(tile, side)
                or self._between_stories(other, facing)):
            return None
        return self.place_facing(other, facing)

    def _between_stories(self, tile: pb.PlacedTile, side: int) -> bool:
        """A stairs doorway, or any doorway of a room that reaches every level, reaches every
        story."""
        return (tile.stairs == side + 1
                or self.rooms[tile.tile].special in declared("any_level_rooms"))

    def neighbours(self, place: int) -> list[int]:
        """Rooms one step away through doorways, stairs and Hidden Bookcase Pathways."""
        found = []
        for side in self.sides(place):
            nxt = self.doorway_to(place, side)
            if nxt is not None:
                found.append(nxt)
        stairs = self.rooms[tile_of(place)].stairs_to
        if stairs and stairs in self.placed:
            found.append(place_of(stairs))
        for path in self.state.pathways:
            if path.a == place:
                found.append(path.b)
            elif path.b == place:
                found.append(path.a)
        return sorted(set(found))

    def adjacent(self, place: int) -> list[int]:
        """Rooms on any tile around this room, regardless of doorways or stories (not diagonal)."""
        found = []
        for side in self.walls(place):
            other = self.neighbour_tile(place, side)
            if other is not None and other.tile in self.rooms:
                found.append(self.place_facing(other, opposite(side)))
        room = self.rooms[tile_of(place)]
        if len(room.halves) > 1:
            found.append(place ^ 1)
        return sorted(set(found))

    def explorable(self, place: int) -> list[int]:
        """Board sides of this room's doorways with no tile beyond them (and no Padlock)."""
        tile = self.placed[tile_of(place)]
        found = []
        for side in self.sides(place):
            if side in tile.padlocked or self.neighbour_tile(place, side) is not None:
                continue
            found.append(side)
        return found

    def any_explorable(self) -> bool:
        """Whether any room in the castle has a doorway that can be explored."""
        return any(self.explorable(p) for p in self.places())

    def rotations(self, tile: int, side: int, stairs_facing: bool = False) -> list[int]:
        """Rotations of a new room tile placed beyond `side` so that a doorway faces back (its
        stairs doorway, when `stairs_facing`).

        Rotations that give the same doorways (and the same rooms and stairs) are offered once.
        """
        room = self.rooms[tile]
        facing = opposite(side)
        seen: set[tuple] = set()
        found = []
        for rotation in range(4):
            if (facing - rotation) % 4 not in room.doors:
                continue
            if stairs_facing and (facing - rotation) % 4 != room.stairs:
                continue
            halves = tuple(sorted(tuple(sorted(board_sides(rotation, h)))
                                  for h in room.halves))
            stairs = (room.stairs + rotation) % 4 if room.stairs >= 0 else -1
            shape = (halves, self._facing_half(room, rotation, facing), stairs)
            if shape in seen:
                continue
            seen.add(shape)
            found.append(rotation)
        return found

    @staticmethod
    def _facing_half(room: Room, rotation: int, facing: int) -> tuple[int, ...]:
        printed = (facing - rotation) % 4
        for half in room.halves:
            if printed in half:
                return tuple(sorted(board_sides(rotation, half)))
        return ()
