"""The 2nd Story expansion, switched on by `Options.second_story` (Rulebook: The 2nd Story
Expansion): its components, stairs and padlocks, and each new room's effect.

`SecondStory` replaces the rule points of `hooks` where the expansion changes a rule: which
tiles and cards are in play, how a new tile is levelled, rotated and padlocked, where a
room's safe is filled from, the 5-Door Room's Trapdoor and the Laboratory's potions; it adds
the potion decision. Without the option every answer is the standard game's.
"""

from __future__ import annotations

from functools import cache

from parlour.engine.game import Variant
from parlour.engine.rng import Rng, state_rng
from parlour.engine.text import seat
from parlour.games.murdercastle.board import Castle, opposite, place_of, story, tile_of
from parlour.games.murdercastle.catalogue import Box, Room, catalogue
from parlour.games.murdercastle.cubes import FAKE, fill_from_bag, move
from parlour.games.murdercastle.hooks import Points
from parlour.games.murdercastle.modes.names import POTION_NAMES
from parlour.games.murdercastle.names import ordinal
from parlour.games.murdercastle.setup import MAX_SEATS, MIN_SEATS
from parlour.games.murdercastle.stack import Out, pop, public, push
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

UPPER = 1
#: The 5-Door Room's Trapdoor always lands in Basement #3.
FIVE_DOOR_LANDING = place_of(3)
SHELF = (pb.POTION_TONIC, pb.POTION_H2O, pb.POTION_H2O, pb.POTION_SNAKE_OIL, pb.POTION_POISON)


def on(state: pb.State) -> bool:
    """Whether the match plays The 2nd Story (Automa and Play as Holmes include it)."""
    return playing(state.options)


def playing(options: pb.Options) -> bool:
    """Whether these options play The 2nd Story."""
    return options.second_story or bool(options.automa) or options.HasField("play_as_holmes")


@cache
def box() -> Box:
    """The 2nd Story's Room Tiles, Brick Wall and Holmes' Movement cards in the catalogue,
    checked against the rulebook (Components: "The 2nd Story expansion also includes")."""
    cat = catalogue()
    own, extra = cat.added["second_story"], cat.rules["second_story"]
    assert len(own.pile) == extra["rooms"] == 5, "5 2nd Story Room Tiles"
    assert len(own.brick_walls) == extra["brick_walls"] == 1, "1 Brick Wall Tile"
    assert len(own.movement) == extra["movement_cards"] == 9, "9 Holmes' Movement cards"
    assert extra["shelf_potions"] + extra["board_potions"] == 17, "17 Potion Tokens"
    assert all(cat.rooms[t].stairs >= 0 or cat.rooms[t].special == "dumbwaiter"
               for t in own.pile), "every 2nd Story room but the Dumbwaiter has stairs"
    return own


def new_tiles() -> tuple[int, ...]:
    """The 2nd Story's Room Tiles and Brick Wall, as they go into the pile."""
    return box().pile + box().brick_walls


def pile(options: pb.Options) -> list[int]:
    """Room tiles and Brick Walls shuffled into the pile (the new ones mixed in)."""
    cat = catalogue()
    tiles = list(cat.game.pile) + [w for w in cat.game.brick_walls
                                   if w != cat.jonah_brick_wall or options.automa]
    if playing(options):
        tiles += list(new_tiles())
    return tiles


def movement(options: pb.Options) -> list[int]:
    """The Holmes' Movement cards in play (the 9 new ones shuffled in)."""
    return list(_movement(playing(options)))


@cache
def _movement(upstairs: bool) -> tuple[int, ...]:
    return tuple(sorted(catalogue().game.movement + (box().movement if upstairs else ())))


def tiles(options: pb.Options) -> frozenset[int]:
    """Every tile of the match: rooms and Brick Walls."""
    return _tiles(playing(options))


@cache
def _tiles(upstairs: bool) -> frozenset[int]:
    standard = Points().all_tiles(pb.Options())
    return standard | frozenset(new_tiles()) if upstairs else standard


def pathway_tokens(state: pb.State) -> int:
    """Hidden Bookcase Pathway tokens: 2, and a 3rd with The 2nd Story."""
    rules = catalogue().rules
    return rules["pathway_tokens"] + (rules["second_story"]["pathways"] if on(state) else 0)


# -- placing a tile ----------------------------------------------------------------
def is_second_story(tile: int) -> bool:
    """Whether a tile is one of The 2nd Story's rooms."""
    return tile in new_tiles()


def stairs_must_face(origin: pb.PlacedTile, room: Room) -> bool:
    """A 2nd Story room's stairs must meet the explored doorway, unless it is explored from
    another 2nd Story room ("you do have the option to rotate the Room Tile in any
    direction")."""
    return room.stairs >= 0 and not is_second_story(origin.tile)


def levels(state: pb.State, origin: pb.PlacedTile, tile: int) -> list[int]:
    """Levels the new tile may take: a 2nd Story room is upstairs; another room takes the
    level of the room explored from, or any level from the Dumbwaiter."""
    if is_second_story(tile):
        return [UPPER]
    if on(state) and catalogue().rooms[origin.tile].special == "dumbwaiter":
        return [-1, 0, UPPER]
    return [story(origin.level)]


def finish_placing(state: pb.State, placed: pb.PlacedTile) -> None:
    """Padlock every doorway of the new tile that meets a door on another story."""
    if not on(state):
        return
    castle = Castle(state)
    room = castle.rooms[placed.tile]
    for printed in room.doors:
        side = (printed + placed.rotation) % 4
        other = castle.neighbour_tile(place_of(placed.tile), side)
        if other is None or other.tile not in castle.rooms or side in placed.padlocked:
            continue
        facing = opposite(side)
        if (facing - other.rotation) % 4 not in castle.rooms[other.tile].doors:
            continue
        if castle.doorway_to(castle.place_facing(placed, side), side) is None:
            placed.padlocked.append(side)


def fill_on_explore(state: pb.State, seat: int, place: int, out: Out) -> int | None:
    """A new room's own way of filling its safe: the Secret Room draws 4 random cubes from the
    bag, the Dumbwaiter holds none; `None` for the standard fill, else the gondola (1 +
    index) to choose from (the Waiting Room: the previous one), 0 for nothing to choose."""
    special = catalogue().rooms[tile_of(place)].special
    if special == "secret_room":
        safe = Castle(state).safe(place)
        with state_rng(state) as rng:
            drawn = fill_from_bag(state.bag, safe, Castle(state).capacity(place), rng)
        for colour, n in [*enumerate(drawn.counts, start=1), (FAKE, drawn.fake)]:
            for _ in range(n):
                out.append(public(pb.Event(cube=pb.CubePlaced(seat=seat, place=place,
                                                              colour=colour, source="bag"))))
        return 0
    if special == "waiting_room":
        return previous_gondola(state) + 1
    return None


def previous_gondola(state: pb.State) -> int:
    """The gondola before the one at the unloading zone."""
    return (state.unloading - 1) % len(state.gondolas)


def fill_source(state: pb.State, place: int) -> int:
    """The gondola (1 + index; 0: the unloading one) a fill of this room takes from: the
    Waiting Room always uses the previous gondola (Destined for Success too)."""
    if catalogue().rooms[tile_of(place)].special == "waiting_room":
        return previous_gondola(state) + 1
    return 0


# -- the 5-Door Room -----------------------------------------------------------------
def built_in_trapdoor(state: pb.State, place: int) -> int | None:
    """The 5-Door Room's permanent Trapdoor: where a collector there falls (Basement #3)."""
    if catalogue().rooms[tile_of(place)].special == "five_door":
        return FIVE_DOOR_LANDING
    return None


# -- the Laboratory ------------------------------------------------------------------
def new_shelf(state: pb.State) -> None:
    """Place the 5 shelf potions face down in random order."""
    del state.shelf[:]
    state.shelf.extend(SHELF)
    with state_rng(state) as rng:
        rng.shuffle(state.shelf)


def potion_blocked(state: pb.State, seat: int) -> bool:
    """No collecting in the Laboratory while a Tonic or Poison token is on your board."""
    player = state.players[seat]
    return (catalogue().rooms[tile_of(player.place)].special == "laboratory"
            and (player.tonic or player.poison))


def spots(state: pb.State) -> list[int]:
    """Shelf spots still holding a face-down potion."""
    return [i for i, p in enumerate(state.shelf) if p != pb.POTION_UNSPECIFIED]


def pick_potion(state: pb.State, frame: pb.Frame, spot: int, out: Out) -> None:
    """Turn over a potion for the next cube collected in the Laboratory."""
    seat = frame.seat
    potion = state.shelf[spot]
    state.shelf[spot] = pb.POTION_UNSPECIFIED
    state.potions_drawn.append(potion)
    out.append(public(pb.Event(potion=pb.PotionDrawn(seat=seat, spot=spot, potion=potion))))
    cube = frame.colours[len(frame.colours) - frame.count]
    frame.count -= 1
    player = state.players[seat]
    if potion == pb.POTION_SNAKE_OIL and player.board.counts[cube - 1]:
        move(player.board, state.bag, cube)
        out.append(public(pb.Event(cube=pb.CubePlaced(seat=seat, colour=cube,
                                                      source="snake oil"))))
    elif potion == pb.POTION_TONIC:
        frame.tonic = True
    elif potion == pb.POTION_POISON:
        frame.poison = True
    if frame.count and spots(state):
        return
    pop(state)
    if frame.tonic and frame.poison:
        return  # "These immediately cancel each other out"
    player.tonic = player.tonic or frame.tonic
    player.poison = player.poison or frame.poison


def refill_shelf(state: pb.State, out: Out) -> None:
    """At the end of the round the drawn potions go back face down (shuffled)."""
    if not on(state) or not state.potions_drawn:
        return
    del state.potions_drawn[:]
    new_shelf(state)
    out.append(public(pb.Event(shelf=pb.ShelfRefilled())))


def strike_modifier(state: pb.State, seat: int, out: Out) -> int | None:
    """A Tonic token blocks the strike (None); a Poison token drops one more cube (+1)."""
    player = state.players[seat]
    if player.tonic:
        player.tonic = False
        out.append(public(pb.Event(spared=pb.Spared(seat=seat, reason="Tonic"))))
        return None
    if player.poison:
        player.poison = False
        return 1
    return 0


def check(state: pb.State) -> None:
    """Conservation of the shelf potions."""
    shelf = [p for p in state.shelf if p] + list(state.potions_drawn)
    if on(state):
        assert sorted(shelf) == sorted(SHELF), "potions not conserved"
    else:
        assert not shelf, "potions without The 2nd Story"


#: Rounds the engine's property tests play The 2nd Story (shorter: the full-length games are in
#: tests/test_playouts.py).
SECOND_STORY_ROUNDS = {2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 7: 1}


#: Refusal reasons of the mode's action kinds (`hooks.Points.reasons`).
REASONS = {"potion": "POTION_NOT_ON_SHELF"}


# -- words ---------------------------------------------------------------------------------
#: The effects of its special rooms, shortened from the rulebook (RULES.md, "Rooms").
ROOM_EFFECTS = {
    "secret_room": "its safe is filled with 4 random cubes from the Evidence Bag",
    "laboratory": "each cube collected here turns over a potion: Tonic blocks your next "
                  "strike, Poison adds a drop to it, Snake Oil sends the cube back to the bag, "
                  "H2O does nothing",
    "waiting_room": "filled with 3 cubes of your choice from the gondola before the unloading "
                    "one",
    "dumbwaiter": "no stairs; its safe takes any number of cubes",
    "five_door": "a built-in Trapdoor to the basement: whoever collects evidence here falls",
}
EVENT_WORDS = {
    "potion": lambda e: f"{seat(e.seat)} drew {POTION_NAMES.get(e.potion, 'a potion')} "
                        "from the Laboratory Shelf",
    "shelf": lambda e: "the potions went back face down on the Laboratory Shelf",
}


# -- the plugin ------------------------------------------------------------------------------
def _potion_options(state: pb.State, frame: pb.Frame, seat: int) -> list[pb.Action]:
    return [pb.Action(potion=pb.PickPotion(spot=s)) for s in spots(state)]


def _potion(state: pb.State, frame: pb.Frame, seat: int, action: pb.Action, out: Out) -> None:
    pick_potion(state, frame, action.potion.spot, out)


class SecondStory(Points):
    """The 2nd Story: the Laboratory Shelf (its rooms, stairs and cards come through the
    piles above)."""

    name = "second-story"
    reason_texts = {
        "POTION_NOT_ON_SHELF": "That potion is not on the Laboratory shelf.",
    }
    decision_texts = {
        "pick_potion": "Collected in the Laboratory: turn over a potion per cube (The 2nd Story).",
    }
    decisions = {pb.FRAME_KIND_PICK_POTION: (_potion_options, _potion)}
    public_choices = frozenset({pb.FRAME_KIND_PICK_POTION})
    reasons = REASONS
    prompts = {pb.FRAME_KIND_PICK_POTION: "The Laboratory: turn over a potion for the cube you "
                                          "collected."}
    action_words = {
        "potion": lambda body: f"turn over the {ordinal(body.spot + 1)} potion on the shelf"}
    event_words = EVENT_WORDS
    room_effects = ROOM_EFFECTS
    floors = {UPPER: ("the 2nd Story", "on the 2nd Story")}
    any_level_rooms = unbounded_rooms = frozenset({"dumbwaiter"})

    def active(self, options: pb.Options) -> bool:
        return playing(options)

    def setup(self, state: pb.State) -> None:
        new_shelf(state)

    def round_over(self, state: pb.State, out: Out) -> None:
        refill_shelf(state, out)

    def title(self, options: pb.Options) -> str | None:
        return "The 2nd Story" if options.second_story else None  # not when a mode brings it

    def variants(self) -> list[Variant]:
        return [Variant("second-story", "The 2nd Story", pb.Options(second_story=True))]

    def test_configurations(self) -> list[tuple[pb.Options, int]]:
        return [(pb.Options(second_story=True, round_limit=SECOND_STORY_ROUNDS[n]), n)
                for n in range(MIN_SEATS, MAX_SEATS + 1)]

    def room_pile(self, options: pb.Options) -> list[int]:
        return pile(options)

    def all_tiles(self, options: pb.Options) -> frozenset[int]:
        return tiles(options)

    def movement_cards(self, options: pb.Options) -> list[int]:
        return movement(options)

    def stairs_must_face(self, state: pb.State, origin: pb.PlacedTile, room: Room) -> bool:
        return stairs_must_face(origin, room)

    def levels(self, state: pb.State, origin: pb.PlacedTile, tile: int) -> list[int]:
        return levels(state, origin, tile)

    def after_placing(self, state: pb.State, placed: pb.PlacedTile) -> None:
        finish_placing(state, placed)

    def fill_on_explore(self, state: pb.State, seat: int, place: int, out: Out) -> int | None:
        return fill_on_explore(state, seat, place, out)

    def fill_source(self, state: pb.State, place: int) -> int:
        return fill_source(state, place)

    def collect_blocked(self, state: pb.State, seat: int) -> bool:
        return potion_blocked(state, seat)

    def collected(self, state: pb.State, frame: pb.Frame, place: int, colour: int) -> None:
        if Castle(state).special(place) == "laboratory":
            frame.lab_cubes.append(colour)

    def action_over(self, state: pb.State, frame: pb.Frame) -> None:
        """The Laboratory: a potion for each cube collected there (while any is on the shelf)."""
        if frame.lab_cubes and spots(state):
            push(state, pb.FRAME_KIND_PICK_POTION, frame.seat, count=len(frame.lab_cubes),
                 colours=list(frame.lab_cubes))

    def view(self, state: pb.State, seat: int | None, view: pb.View) -> None:
        view.shelf_face_down.extend(p != pb.POTION_UNSPECIFIED for p in state.shelf)
        view.potions_drawn.extend(state.potions_drawn)
        for seen, player in zip(view.players, state.players, strict=True):
            seen.tonic, seen.poison = player.tonic, player.poison

    def resample_face_down(self, state: pb.State, seat: int | None, rng: Rng) -> None:
        """The face-down potions of the Laboratory Shelf."""
        face_down = [i for i, p in enumerate(state.shelf) if p != pb.POTION_UNSPECIFIED]
        potions = [state.shelf[i] for i in face_down]
        rng.shuffle(potions)
        for i, potion in zip(face_down, potions, strict=True):
            state.shelf[i] = potion

    def holmes_lines(self, view: pb.View) -> tuple[list[str], list[str]]:
        if not view.shelf_face_down:
            return [], []
        return [], [f"Laboratory Shelf: {sum(view.shelf_face_down)} potions face down"]

    def player_words(self, player: pb.SeatView) -> list[str]:
        drank = [x for x, on in (("a Tonic", player.tonic), ("Poison", player.poison)) if on]
        return ["drank " + " and ".join(drank)] if drank else []

    def pathway_tokens(self, state: pb.State) -> int:
        return pathway_tokens(state)

    def built_in_trapdoor(self, state: pb.State, place: int) -> int | None:
        return built_in_trapdoor(state, place)

    def strike_modifier(self, state: pb.State, seat: int, out: Out) -> int | None:
        return strike_modifier(state, seat, out)

    def check(self, state: pb.State) -> None:
        check(state)

    check_off = check
