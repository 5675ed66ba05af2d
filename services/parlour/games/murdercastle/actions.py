"""The Action Tiles: what each seat may do with the current tile, and doing it.

Compound actions are split into small decisions: an ACT frame holds the steps
left (rooms to move, cubes to collect, rooms to explore, cards to draw); exploring
pushes PLACE_ROOM (rotation) and FILL_SAFE (which cubes) frames.
"""

from __future__ import annotations

from parlour.engine.rng import state_rng
from parlour.games.murdercastle import (
    cards,
    characters,
    effects,
    holmes,
)
from parlour.games.murdercastle.board import Castle, opposite, tile_of
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.cubes import (
    advance_wheel,
    collectable,
    fill_from_bag,
    movable,
    move,
    present,
    total,
    unloading,
)
from parlour.games.murdercastle.hooks import rules
from parlour.games.murdercastle.pieces import move_player, reveal_tile
from parlour.games.murdercastle.stack import Out, clockwise, pop, public, push
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

MOVES = {pb.ACTION_TILE_MOVE_ONE: 1, pb.ACTION_TILE_MOVE_ONE_CROWD: 1, pb.ACTION_TILE_MOVE_TWO: 2}
PASS = pb.Action(**{"pass": pb.Pass()})


def start_action(state: pb.State, seat: int) -> None:
    """Push the ACT frame of a seat for the current Action Tile (Rulebook: Overview)."""
    tile = state.current
    player = state.players[seat]
    bonus = (seat == state.selector and state.holmes != player.place
             and rules(state).selection_bonus(state))
    if tile == pb.ACTION_TILE_EXPLORE and state.explore_flipped:
        room = Castle(state).capacity(player.place) - total(Castle(state).safe(player.place))
        count = max(0, room) if bonus else min(1, max(0, room))
    elif tile in MOVES:
        extra = tile != pb.ACTION_TILE_MOVE_ONE and bonus
        count = MOVES[tile] + int(extra)
    else:
        count = 1 + int(bonus and tile in (pb.ACTION_TILE_EXPLORE, pb.ACTION_TILE_COLLECT,
                                           pb.ACTION_TILE_DRAW))
    push(state, pb.FRAME_KIND_ACT, seat, action=tile, count=count,
         bonus=bonus and tile == pb.ACTION_TILE_MOVE_ONE, escape_ready=bonus)


def act_options(state: pb.State, frame: pb.Frame) -> list[pb.Action]:
    """Everything the acting seat may do now with its Action Tile."""
    seat = frame.seat
    player = state.players[seat]
    found: list[pb.Action] = []
    if not frame.started:
        found += plays_at_action_start(state, frame)
    tile = frame.action
    mandatory = False
    if frame.count:
        castle = Castle(state)
        if tile == pb.ACTION_TILE_EXPLORE and state.explore_flipped:
            room = castle.capacity(player.place) - total(castle.safe(player.place))
            colours = movable(unloading(state)) if room > 0 else []
            found += [pb.Action(cube=pb.ChooseCube(colour=c)) for c in colours]
            mandatory = bool(colours)
        elif tile == pb.ACTION_TILE_EXPLORE:
            if state.room_pile:
                found += [pb.Action(explore=pb.Explore(side=s))
                          for s in castle.explorable(player.place)]
        elif tile in MOVES:
            found += [pb.Action(move=pb.Move(place=p))
                      for p in castle.neighbours(player.place) if p != state.holmes]
        elif tile == pb.ACTION_TILE_COLLECT:
            found += collect_options(state, seat, castle)
        elif tile == pb.ACTION_TILE_DRAW:
            if state.event_deck or state.event_discard:
                found.append(pb.Action(draw=pb.Draw()))
        elif tile == pb.ACTION_TILE_MOVE_HOLMES:
            found.append(pb.Action(reveal=pb.RevealHolmes()))
    if frame.bonus:
        found.append(pb.Action(turn_wheel=pb.TurnWheel()))
    if not mandatory:
        found.append(PASS)
    return found


def end_action(state: pb.State, frame: pb.Frame) -> None:
    """The seat's action is over: it may play cards right after it (Rulebook: Event Card
    Overview, "move into 1 room to complete your movement and then play an Event Card"), except
    in an Event draw or when the phase's window follows at once; then any Trapdoor fall."""
    pop(state)
    if frame.started and frame.action != pb.ACTION_TILE_DRAW and state.to_act:
        push(state, pb.FRAME_KIND_EVENT_WINDOW, frame.seat, seats=[frame.seat])
    rules(state).action_over(state, frame)
    effects.fall_if_pending(state, frame)


def plays_at_action_start(state: pb.State, frame: pb.Frame) -> list[pb.Action]:
    """Cards and abilities a seat may use before it begins its action (not in an Event draw)."""
    if frame.action == pb.ACTION_TILE_DRAW:
        return []
    return cards.plays(state, frame.seat, frame) + characters.ability_actions(
        state, frame.seat, frame)


def collect_options(state: pb.State, seat: int, castle: Castle) -> list[pb.Action]:
    """Cubes the seat may collect from its room (Rulebook: Collect Evidence)."""
    player = state.players[seat]
    if state.holmes == player.place or player.partnered:
        return []
    if rules(state).collect_blocked(state, seat):
        return []
    safe = castle.safe(player.place)
    colours = [c for c in present(safe) if collectable(state, player.board, c)]
    if castle.special(player.place) == "blind_room" and colours and not player.blind_progress:
        return [pb.Action(collect=pb.Collect())]
    return [pb.Action(collect=pb.Collect(colour=c)) for c in colours]


def act(state: pb.State, frame: pb.Frame, action: pb.Action, out: Out) -> None:
    """Perform one step of the current Action Tile."""
    seat = frame.seat
    kind = action.WhichOneof("kind")
    if kind == "pass":
        out.append(public(pb.Event(passed=pb.Passed(seat=seat, frame=frame.kind))))
        end_action(state, frame)
        return
    if kind == "play":
        cards.play(state, seat, action.play.card, out, frame)
        return
    if kind == "ability":
        characters.use(state, seat, out, frame)
        return
    if kind == "turn_wheel":
        frame.bonus = False
        with state_rng(state) as rng:
            out.append(public(pb.Event(wheel=advance_wheel(state, rng))))
        return
    frame.started = True
    frame.count -= 1
    if kind == "cube":
        place_cube(state, seat, state.players[seat].place, action.cube.colour, out)
    elif kind == "explore":
        explore(state, seat, action.explore.side, out)
    elif kind == "move":
        move_player(state, seat, action.move.place, "door", out)
    elif kind == "collect":
        collect(state, frame, action.collect.colour, out)
    elif kind == "draw":
        cards.draw(state, seat, out)
    elif kind == "reveal":
        holmes.reveal(state, seat, frame.escape_ready, out)


def source(state: pb.State, frame: pb.Frame) -> pb.Cubes:
    """The gondola a fill takes from: the unloading one, or the one the frame names."""
    return state.gondolas[frame.gondola - 1] if frame.gondola else unloading(state)


def place_cube(state: pb.State, seat: int, place: int, colour: int, out: Out,
               gondola: int = 0) -> bool:
    """Move a cube from a gondola into a safe; True once that gondola is empty. An empty
    unloading gondola turns the wheel; another gondola (a room's own,
    `fill_source`) is refilled."""
    castle = Castle(state)
    cubes = state.gondolas[gondola - 1] if gondola else unloading(state)
    move(cubes, castle.safe(place), colour)
    out.append(public(pb.Event(cube=pb.CubePlaced(seat=seat, place=place, colour=colour,
                                                  source="gondola"))))
    if total(cubes):
        return False
    with state_rng(state) as rng:
        if gondola:
            refill = fill_from_bag(state.bag, cubes, catalogue().rules["gondola_size"], rng)
            out.append(public(pb.Event(gondola=pb.GondolaRefilled(gondola=gondola - 1,
                                                                  refill=refill))))
        else:
            out.append(public(pb.Event(wheel=advance_wheel(state, rng))))
    return True


def explore(state: pb.State, seat: int, side: int, out: Out) -> None:
    """Reveal the top room tile beyond a doorway (Rulebook: Explore the Castle)."""
    reveal_tile(state, seat, state.players[seat].place, side, state.room_pile.pop(), out)


def rotation_options(state: pb.State, frame: pb.Frame) -> list[pb.Action]:
    """Rotations that join the revealed tile to the explored doorway."""
    castle = Castle(state)
    origin = castle.placed[tile_of(frame.place)]
    room = catalogue().rooms[frame.tile]
    rotations = castle.rotations(frame.tile, frame.side,
                                 rules(state).stairs_must_face(state, origin, room))
    levels = rules(state).levels(state, origin, frame.tile)
    return [pb.Action(rotate=pb.Rotate(rotation=r, level=level if len(levels) > 1 else 0))
            for r in rotations for level in levels]


def place_room(state: pb.State, frame: pb.Frame, rotate: pb.Rotate, out: Out) -> None:
    """Put the revealed room on the grid and fill its safe from the unloading gondola."""
    cat = catalogue()
    origin_tile = Castle(state).placed[tile_of(frame.place)]
    room = cat.rooms[frame.tile]
    rotation = rotate.rotation
    levels = rules(state).levels(state, origin_tile, frame.tile)
    placed = state.tiles.add(tile=frame.tile, x=frame.x, y=frame.y, rotation=rotation,
                             level=rotate.level if len(levels) > 1 else levels[0],
                             stairs=(room.stairs + rotation) % 4 + 1 if room.stairs >= 0 else 0)
    for _ in room.halves:
        placed.safes.add(counts=[0] * 5)
    facing = opposite(frame.side)
    origin_room = cat.rooms[origin_tile.tile]
    if origin_room.dead_end_side >= 0:
        placed.padlocked.extend(
            sorted((p + rotation) % 4 for p in room.doors if (p + rotation) % 4 != facing))
    rules(state).after_placing(state, placed)
    seat = frame.seat
    pop(state)
    out.append(public(pb.Event(room=pb.RoomPlaced(seat=seat, tile=placed))))
    target = Castle(state).place_facing(placed, facing)
    gondola = rules(state).fill_on_explore(state, seat, target, out)
    if gondola == 0:
        return
    count = min(room.capacity, total(state.gondolas[gondola - 1] if gondola else unloading(state)))
    if count:
        push(state, pb.FRAME_KIND_FILL_SAFE, seat, place=target, count=count,
             gondola=gondola or 0)


def fill_options(state: pb.State, frame: pb.Frame) -> list[pb.Action]:
    """Colours the filler may take from the gondola."""
    return [pb.Action(cube=pb.ChooseCube(colour=c)) for c in movable(source(state, frame))]


def fill(state: pb.State, frame: pb.Frame, colour: int, out: Out) -> None:
    """Put one chosen cube into the safe; the fill stops when the gondola empties."""
    frame.count -= 1
    emptied = place_cube(state, frame.seat, frame.place, colour, out, frame.gondola)
    if not frame.count or emptied:
        pop(state)


def fill_forced(state: pb.State, frame: pb.Frame, out: Out) -> bool:
    """Fill without asking when every choice leads to the same safe."""
    gondola = source(state, frame)
    colours = movable(gondola)
    if len(colours) > 1 and frame.count < total(gondola):
        return False
    depth = len(state.frames)
    while len(state.frames) == depth and colours:
        fill(state, frame, colours[0], out)
        colours = movable(gondola)
    return True


def collect(state: pb.State, frame: pb.Frame, colour: int, out: Out) -> None:
    """Collect a cube (Rulebook: Collect Evidence; the Blind Room; Trapdoors)."""
    seat = frame.seat
    player = state.players[seat]
    castle = Castle(state)
    if not colour:
        player.blind_progress = 1
        out.append(public(pb.Event(collected=pb.Collected(seat=seat, place=player.place))))
        return
    if castle.special(player.place) == "blind_room":
        player.blind_progress = 0
        frame.count = 0
    move(castle.safe(player.place), player.board, colour)
    out.append(public(pb.Event(collected=pb.Collected(seat=seat, place=player.place,
                                                      colour=colour))))
    rules(state).collected(state, frame, player.place, colour)
    effects.after_cube_taken(state, seat, player.place, frame, out)


def select(state: pb.State, seat: int, tile: int, out: Out) -> None:
    """Select an Action Tile; the selector acts first, then everyone else clockwise."""
    state.tiles_open.remove(tile)
    state.current = tile
    state.selector = seat
    state.selections += 1
    pop(state)
    out.append(public(pb.Event(selected=pb.TileSelected(seat=seat, tile=tile))))
    order = clockwise(state, seat)
    state.to_act.extend(order[:1] if tile == pb.ACTION_TILE_MOVE_HOLMES else order)
    rules(state).tile_selected(state, tile, out)


def can_explore(state: pb.State, seat: int) -> bool:
    """Whether the seat's room has a doorway to explore and a tile is left to reveal."""
    return bool(state.room_pile) and bool(Castle(state).explorable(state.players[seat].place))


def selectable(state: pb.State, seat: int) -> list[int]:
    """The open Action Tiles the seat may select: Explore the Castle only from a room with
    a doorway to explore (Rulebook: "You can use the Explore the Castle Action Tile when the
    room you occupy has a doorway with no connecting room tile"), unless it is the last tile
    left."""
    tiles = sorted(state.tiles_open)
    kept = [t for t in tiles if t != pb.ACTION_TILE_EXPLORE or state.explore_flipped
            or can_explore(state, seat)]
    return kept or tiles


def maybe_flip(state: pb.State, out: Out) -> None:
    """Flip Explore the Castle once nothing can be explored (Rulebook: Explore the Room)."""
    if state.explore_flipped:
        return
    rooms = catalogue().rooms
    if not any(t in rooms for t in state.room_pile) or not Castle(state).any_explorable():
        state.explore_flipped = True
        out.append(public(pb.Event(flipped=pb.ExploreFlipped())))


def drop_options(state: pb.State, frame: pb.Frame) -> list[pb.Action]:
    """Colours the struck seat may drop."""
    board = state.players[frame.seat].board
    return [pb.Action(cube=pb.ChooseCube(colour=c)) for c in present(board)]


def drop(state: pb.State, frame: pb.Frame, colour: int, out: Out) -> None:
    """Drop a cube into the room's safe, regardless of its capacity."""
    player = state.players[frame.seat]
    move(player.board, Castle(state).safe(frame.place), colour)
    out.append(public(pb.Event(cube=pb.CubePlaced(seat=frame.seat, place=frame.place,
                                                  colour=colour, source="board"))))
    frame.count -= 1
    if not frame.count or not total(player.board):
        pop(state)


def drop_forced(state: pb.State, frame: pb.Frame, out: Out) -> bool:
    """Drop without asking when only one colour is held or everything must go."""
    board = state.players[frame.seat].board
    colours = present(board)
    if len(colours) > 1 and frame.count < total(board):
        return False
    depth = len(state.frames)
    while len(state.frames) == depth and colours:
        drop(state, frame, colours[0], out)
        colours = present(board)
    return True
