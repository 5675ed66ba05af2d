"""Every Event Card's effect, keyed by catalogue kind (Rulebook: Event Cards; Trapdoors and
Trapdoor Landing Zones; Hidden Bookcase Pathways).

An effect runs as an EFFECT frame whose `count` is its stage; each stage either
asks for a choice (CHOOSE_SEAT, CHOOSE_PLACE, CHOOSE_COLOUR, DEFEND, EVENT_MOVE …,
whose answers are written back into the EFFECT frame) or finishes the effect.
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.engine.rng import state_rng
from parlour.games.murdercastle import holmes
from parlour.games.murdercastle.board import PHARMACY, Castle, opposite, place_of, tile_of
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.cubes import FAKE, collectable, move, present, total, unloading
from parlour.games.murdercastle.cubes import draw as draw_cube
from parlour.games.murdercastle.defence import (
    TRAPDOOR_FALL,
    ask_defence,
    category_code,
    may_be_asked,
)
from parlour.games.murdercastle.hooks import declared, rules
from parlour.games.murdercastle.pieces import move_player
from parlour.games.murdercastle.stack import (
    NOBODY,
    Out,
    investigators,
    key_order,
    pop,
    public,
    push,
)
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb


def step_effect(state: pb.State, frame: pb.Frame, out: Out) -> None:
    """Run the card effect's next stage."""
    EFFECTS[catalogue().event(frame.card).kind][1](state, frame, out)


def _choose_place(state: pb.State, frame: pb.Frame, places: list[int],
                  chooser: int | None = None) -> None:
    frame.count += 1
    push(state, pb.FRAME_KIND_CHOOSE_PLACE, frame.source if chooser is None else chooser,
         card=frame.card, places=places)


def _choose_seat(state: pb.State, frame: pb.Frame, seats: list[int]) -> None:
    frame.count += 1
    push(state, pb.FRAME_KIND_CHOOSE_SEAT, frame.source, card=frame.card, seats=seats)


def _choose_colour(state: pb.State, frame: pb.Frame, colours: list[int]) -> None:
    frame.count += 1
    push(state, pb.FRAME_KIND_CHOOSE_COLOUR, frame.source, card=frame.card, colours=colours)


def _others_in_room(state: pb.State, seat: int) -> list[int]:
    place = state.players[seat].place
    return [s for s in investigators(state) if s != seat and state.players[s].place == place]


def _always(state: pb.State, seat: int) -> bool:
    return True


# Lucky Break
def _lucky_break(state: pb.State, frame: pb.Frame, out: Out) -> None:
    pop(state)
    seat = frame.source
    player = state.players[seat]
    with state_rng(state) as rng:
        colour = draw_cube(state.bag, rng)
    if not colour:
        return
    if colour == FAKE:  # "consider it an unlucky break": back into the bag
        state.bag.fake += 1
        return
    castle = Castle(state)
    if collectable(state, player.board, colour):
        player.board.counts[colour - 1] += 1
        out.append(public(pb.Event(collected=pb.Collected(seat=seat, colour=colour))))
        return
    safe = castle.safe(player.place)
    anywhere = (player.place == place_of(PHARMACY)
                or castle.special(player.place) in declared("unbounded_rooms"))
    if anywhere or total(safe) < castle.capacity(player.place):
        safe.counts[colour - 1] += 1
        out.append(public(pb.Event(cube=pb.CubePlaced(seat=seat, place=player.place,
                                                      colour=colour, source="bag"))))
    else:
        state.bag.counts[colour - 1] += 1


# Destined for Success
def _destined(state: pb.State, frame: pb.Frame, out: Out) -> None:
    pop(state)
    place = state.players[frame.source].place
    castle = Castle(state)
    gondola = rules(state).fill_source(state, place)
    cubes = state.gondolas[gondola - 1] if gondola else unloading(state)
    count = min(castle.capacity(place) - total(castle.safe(place)), total(cubes))
    if count > 0:
        push(state, pb.FRAME_KIND_FILL_SAFE, frame.source, place=place, count=count,
             gondola=gondola)


# Holmes is Alerted (Keep): a movement card, its player choosing
def _alerted(state: pb.State, frame: pb.Frame, out: Out) -> None:
    pop(state)
    holmes.reveal(state, frame.source, False, out, aimed=False)


# Holmes is Alerted (Play Now): Holmes goes to a room its player chooses
def alert_rooms(state: pb.State) -> list[int]:
    """Rooms Holmes may be sent to: any explored room but his own and the Pharmacy."""
    return [p for p in Castle(state).places() if p not in (place_of(PHARMACY), state.holmes)]


def _alerted_now(state: pb.State, frame: pb.Frame, out: Out) -> None:
    if rules(state).alerted_now(state, frame, out):
        return
    chooser = rules(state).holmes_chooser(state)  # who "chooses which room to move to"
    if frame.count == 0:
        _choose_place(state, frame, alert_rooms(state), chooser)
        return
    room = frame.places[0]
    if frame.count == 1:
        frame.count = 2
        frame.seats.extend(s for s in key_order(state)
                           if (chooser is not None or s != frame.source)
                           and state.players[s].place == room)
    while frame.seats and not frame.cancelled:
        if ask_defence(state, frame, frame.seats.pop(0), "play_now"):
            return
    pop(state)
    if not frame.cancelled:
        holmes.enter(state, room, NOBODY, out)


# Secret Passage
def _passage_ok(state: pb.State, seat: int) -> bool:
    return bool(passage_moves(state, seat))


def passage_moves(state: pb.State, seat: int) -> list[int]:
    """Rooms on tiles around the seat's room, regardless of doorways (not Holmes' room)."""
    return [p for p in Castle(state).adjacent(state.players[seat].place) if p != state.holmes]


def _passage(state: pb.State, frame: pb.Frame, out: Out) -> None:
    pop(state)
    push(state, pb.FRAME_KIND_EVENT_MOVE, frame.source, count=2, card=frame.card, bonus=True)


# Hidden Bookcase Pathway
def pathway_pairs(state: pb.State) -> list[tuple[int, int]]:
    """Adjacent rooms not yet joined, while a pathway token is left."""
    if len(state.pathways) >= rules(state).pathway_tokens(state):
        return []
    castle = Castle(state)
    pairs = []
    for a in castle.places():
        joined = set(castle.neighbours(a))
        pairs += [(a, b) for b in castle.adjacent(a) if b not in joined and b != a]
    return pairs


def _pathway_ok(state: pb.State, seat: int) -> bool:
    return bool(pathway_pairs(state))


def _pathway(state: pb.State, frame: pb.Frame, out: Out) -> None:
    pairs = pathway_pairs(state)
    if frame.count == 0:
        _choose_place(state, frame, sorted({a for a, _ in pairs}))
    elif frame.count == 1:
        first = frame.places[0]
        _choose_place(state, frame, sorted({b for a, b in pairs if a == first}))
    else:
        pop(state)
        path = pb.Pathway(a=frame.places[0], b=frame.places[1])
        state.pathways.append(path)
        out.append(public(pb.Event(pathway=pb.PathwayPlaced(pathway=path))))
        replace_padlock(state, path.a, path.b)


def replace_padlock(state: pb.State, a: int, b: int) -> None:
    """A Hidden Bookcase Pathway across a padlocked doorway replaces and removes its Padlock
    (it always has a room on the other side) (Rulebook: Automa and Play as Holmes
    clarifications: Hidden Bookcase Pathway)."""
    castle = Castle(state)
    for side in castle.walls(a):
        other = castle.neighbour_tile(a, side)
        if other is None or other.tile != tile_of(b):
            continue
        mine = castle.placed[tile_of(a)]
        for tile, facing in ((mine, side), (other, opposite(side))):
            if facing in tile.padlocked:
                tile.padlocked.remove(facing)


# Trapdoor
def trapdoor_rooms(state: pb.State, deathtrap: bool = False) -> list[int]:
    """Rooms with evidence and no Trapdoor or Deathtrap yet (not the Pharmacy), while a token of
    the kind is left."""
    tokens = (rules(state).deathtrap_tokens() if deathtrap
              else catalogue().rules["trapdoor_tokens"])
    if sum(t.deathtrap == deathtrap for t in state.trapdoors) >= tokens:
        return []
    castle = Castle(state)
    taken = {t.room for t in state.trapdoors} | {t.landing for t in state.trapdoors}
    return [p for p in castle.places()
            if p != place_of(PHARMACY) and p not in taken and total(castle.safe(p))
            and rules(state).built_in_trapdoor(state, p) is None]


def landing_rooms(state: pb.State, trap: int) -> list[int]:
    """Rooms that can take a Landing Zone (The Maze: only a side with a room built beside it)."""
    castle = Castle(state)
    taken = {t.room for t in state.trapdoors} | {t.landing for t in state.trapdoors} | {trap}
    return _landings(state, castle, taken)


def _landings(state: pb.State, castle: Castle, taken: set[int]) -> list[int]:
    found = []
    for p in castle.places():
        if p in taken:
            continue
        if castle.special(p) == "maze" and not any(
                castle.neighbour_tile(p, s) is not None for s in castle.sides(p)):
            continue
        found.append(p)
    return found


def _trapdoor_ok(state: pb.State, seat: int) -> bool:
    rooms = trapdoor_rooms(state)
    if not rooms:
        return False
    taken = {t.room for t in state.trapdoors} | {t.landing for t in state.trapdoors}
    landings = _landings(state, Castle(state), taken)
    return any(set(landings) - {r} for r in rooms)


def _trapdoor(state: pb.State, frame: pb.Frame, out: Out) -> None:
    if frame.count == 0:
        _choose_place(state, frame, [r for r in trapdoor_rooms(state) if landing_rooms(state, r)])
    elif frame.count == 1:
        _choose_place(state, frame, landing_rooms(state, frame.places[0]))
    else:
        pop(state)
        trap = pb.Trapdoor(room=frame.places[0], landing=frame.places[1])
        state.trapdoors.append(trap)
        out.append(public(pb.Event(trapdoor=pb.TrapdoorChanged(trapdoor=trap, placed=True))))


# Disarm a Trapdoor
def _disarm_ok(state: pb.State, seat: int) -> bool:
    return bool(state.trapdoors)


def _disarm(state: pb.State, frame: pb.Frame, out: Out) -> None:
    if frame.count == 0:
        _choose_place(state, frame, sorted(t.room for t in state.trapdoors))
    else:
        pop(state)
        remove_trapdoor(state, frame.places[0], out)


def remove_trapdoor(state: pb.State, room: int, out: Out) -> None:
    """Take a Trapdoor and its Landing Zone off the castle."""
    for i, trap in enumerate(state.trapdoors):
        if trap.room == room:
            out.append(public(pb.Event(trapdoor=pb.TrapdoorChanged(trapdoor=trap, placed=False))))
            del state.trapdoors[i]
            return


def after_cube_taken(state: pb.State, seat: int, place: int, frame: pb.Frame | None,
                     out: Out) -> None:
    """A collector in a Trapdoor room (or a room with a built-in Trapdoor, `built_in_trapdoor`)
    falls through; an emptied room loses its Trapdoor (a built-in one is permanent)."""
    trap = next((t for t in state.trapdoors if t.room == place), None)
    landing = trap.landing if trap is not None else rules(state).built_in_trapdoor(state, place)
    if landing is None:
        return
    deathtrap = trap is not None and trap.deathtrap
    if frame is not None and state.players[seat].place == place:
        if frame.courage and frame.count:
            frame.courage = False  # Liquid Courage: a second cube before falling
            frame.count = 1
            frame.place = landing
            frame.deathtrap = deathtrap
        else:
            frame.count = 0
            frame.place = 0
            push(state, pb.FRAME_KIND_FALL, seat, place=landing, deathtrap=deathtrap)
    if trap is not None and not total(Castle(state).safe(place)):
        remove_trapdoor(state, place, out)


def fall_if_pending(state: pb.State, act: pb.Frame) -> None:
    """An action ending after a Trapdoor collection (Liquid Courage) ends with the fall."""
    if act.place:
        push(state, pb.FRAME_KIND_FALL, act.seat, place=act.place, deathtrap=act.deathtrap)


def step_fall(state: pb.State, frame: pb.Frame, out: Out) -> None:
    """Fall to the Landing Zone unless a defence was played (Rulebook: Trapdoors)."""
    if not frame.started:
        frame.started = True
        here = state.players[frame.seat].place
        built_in = rules(state).built_in_trapdoor(state, here) is not None
        # Disarm a Trapdoor answers a built-in Trapdoor, a card's (frame.card) and a flagged one
        category = "five_door" if built_in or frame.card or frame.deathtrap else "room"
        if may_be_asked(state, frame.seat, category):
            push(state, pb.FRAME_KIND_DEFEND, frame.seat, card=TRAPDOOR_FALL, source=frame.seat,
                 tile=category_code(category))
            return
    pop(state)
    if frame.cancelled or frame.place == state.holmes:
        return
    move_player(state, frame.seat, frame.place, "deathtrap" if frame.deathtrap else "trapdoor",
                out)
    if frame.deathtrap:
        rules(state).track(state, frame.seat, "deathtrap", out)


# Peephole
def peephole_rooms(state: pb.State, seat: int) -> list[int]:
    """Adjacent rooms with another player and a cube this seat can still collect."""
    castle = Castle(state)
    board = state.players[seat].board
    occupied = {state.players[s].place for s in investigators(state) if s != seat}
    return [p for p in castle.adjacent(state.players[seat].place)
            if p in occupied and any(collectable(state, board, c)
                                     for c in present(castle.safe(p)))]


def _peephole_ok(state: pb.State, seat: int) -> bool:
    return bool(peephole_rooms(state, seat))


def _peephole(state: pb.State, frame: pb.Frame, out: Out) -> None:
    seat = frame.source
    if frame.count == 0:
        _choose_place(state, frame, peephole_rooms(state, seat))
        return
    room = frame.places[0]
    if frame.count == 1:
        frame.count = 2
        frame.seats.extend(s for s in key_order(state)
                           if s != seat and state.players[s].place == room)
    if frame.count == 2:
        while frame.seats and not frame.cancelled:
            if ask_defence(state, frame, frame.seats.pop(0), "room"):
                return
        if frame.cancelled:
            pop(state)
            return
        board = state.players[seat].board
        _choose_colour(state, frame, [c for c in present(Castle(state).safe(room))
                                      if collectable(state, board, c)])
        return
    pop(state)
    move(Castle(state).safe(room), state.players[seat].board, frame.colour)
    out.append(public(pb.Event(collected=pb.Collected(seat=seat, place=room,
                                                      colour=frame.colour))))
    after_cube_taken(state, seat, room, None, out)


# Pickpocket
def pickpocket_targets(state: pb.State, seat: int) -> list[int]:
    """Players in the seat's room holding a cube it can still collect."""
    board = state.players[seat].board
    return [s for s in _others_in_room(state, seat)
            if any(collectable(state, board, c) for c in present(state.players[s].board))]


def _pickpocket_ok(state: pb.State, seat: int) -> bool:
    return bool(pickpocket_targets(state, seat))


def _pickpocket(state: pb.State, frame: pb.Frame, out: Out) -> None:
    seat = frame.source
    if frame.count == 0:
        _choose_seat(state, frame, pickpocket_targets(state, seat))
    elif frame.count == 1:
        frame.count = 2
        if ask_defence(state, frame, frame.target, "player"):
            return
        step_effect(state, frame, out)
    elif frame.count == 2:
        if frame.cancelled:
            pop(state)
            return
        board = state.players[seat].board
        _choose_colour(state, frame, [c for c in present(state.players[frame.target].board)
                                      if collectable(state, board, c)])
    else:
        pop(state)
        move(state.players[frame.target].board, state.players[seat].board, frame.colour)
        out.append(public(pb.Event(collected=pb.Collected(seat=seat, colour=frame.colour))))


# Snitch
def snitch_targets(state: pb.State, seat: int) -> list[int]:
    """Players Holmes could be sent to (not in the Pharmacy, not already with him)."""
    return [s for s in investigators(state) if s != seat
            and state.players[s].place not in (place_of(PHARMACY), state.holmes)]


def _snitch_ok(state: pb.State, seat: int) -> bool:
    return bool(snitch_targets(state, seat))


def _snitch(state: pb.State, frame: pb.Frame, out: Out) -> None:
    if frame.count == 0:
        _choose_seat(state, frame, snitch_targets(state, frame.source))
    elif frame.count == 1:
        frame.count = 2
        if ask_defence(state, frame, frame.target, "player"):
            return
        step_effect(state, frame, out)
    else:
        pop(state)
        if not frame.cancelled:
            holmes.enter(state, state.players[frame.target].place, NOBODY, out)


# Ambush
def ambush_targets(state: pb.State, seat: int) -> list[int]:
    """Other players in the seat's room holding evidence."""
    return [s for s in _others_in_room(state, seat) if total(state.players[s].board)]


def _ambush_ok(state: pb.State, seat: int) -> bool:
    return bool(ambush_targets(state, seat))


def _ambush(state: pb.State, frame: pb.Frame, out: Out) -> None:
    if frame.count == 0:
        frame.count = 1
        targets = ambush_targets(state, frame.source)
        frame.seats.extend(s for s in key_order(state) if s in targets)
        frame.target = NOBODY
    if frame.target != NOBODY:
        victim, frame.target = frame.target, NOBODY
        if not frame.cancelled:
            _drop_one(state, victim)
            return
    if frame.seats:
        victim = frame.seats.pop(0)
        if ask_defence(state, frame, victim, "room"):
            return
        frame.target = NOBODY
        _drop_one(state, victim)
        return
    pop(state)


def _drop_one(state: pb.State, victim: int) -> None:
    push(state, pb.FRAME_KIND_DROP_EVIDENCE, victim, count=1, place=state.players[victim].place)


Check = Callable[[pb.State, int], bool]
Step = Callable[[pb.State, pb.Frame, Out], None]
EFFECTS: dict[str, tuple[Check, Step]] = {
    "lucky_break": (_always, _lucky_break),
    "destined_for_success": (_always, _destined),
    "holmes_alerted_now": (_always, _alerted_now),
    "holmes_alerted_keep": (_always, _alerted),
    "secret_passage": (_passage_ok, _passage),
    "bookcase_pathway": (_pathway_ok, _pathway),
    "trapdoor": (_trapdoor_ok, _trapdoor),
    "disarm_trapdoor": (_disarm_ok, _disarm),
    "peephole": (_peephole_ok, _peephole),
    "pickpocket": (_pickpocket_ok, _pickpocket),
    "snitch": (_snitch_ok, _snitch),
    "ambush": (_ambush_ok, _ambush),
}
