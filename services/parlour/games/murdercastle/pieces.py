"""Putting pieces on the castle: a player into a room, a revealed tile onto the grid."""

from __future__ import annotations

from parlour.games.murdercastle.board import STEPS, Castle, tile_of
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.stack import Out, public, push
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb


def move_player(state: pb.State, seat: int, place: int, how: str, out: Out) -> None:
    """Move a seat into a room."""
    player = state.players[seat]
    out.append(public(pb.Event(moved=pb.Moved(seat=seat, from_place=player.place, to_place=place,
                                              how=how))))
    player.place = place
    player.blind_progress = 0
    player.partnered = False


def reveal_tile(state: pb.State, seat: int, place: int, side: int, tile: int, out: Out) -> None:
    """Place a revealed tile: a Brick Wall at once, a room after choosing its rotation."""
    out.append(public(pb.Event(revealed=pb.RoomRevealed(seat=seat, tile=tile))))
    origin = Castle(state).placed[tile_of(place)]
    dx, dy = STEPS[side]
    x, y = origin.x + dx, origin.y + dy
    if catalogue().is_brick_wall(tile):
        placed = state.tiles.add(tile=tile, x=x, y=y, level=origin.level)
        out.append(public(pb.Event(room=pb.RoomPlaced(seat=seat, tile=placed))))
        return
    push(state, pb.FRAME_KIND_PLACE_ROOM, seat, tile=tile, x=x, y=y, side=side, place=place)
