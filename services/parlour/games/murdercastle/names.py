"""The rulebook's names for the standard game's components: rooms, cards, evidence, tiles,
characters (the modes' components are named in `modes.names`)."""

from __future__ import annotations

from parlour.games.murdercastle.board import place_name
from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.cubes import COLOURS, FAKE
from parlour.games.murdercastle.hooks import declared
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

SIDE_NAMES = ("north", "east", "south", "west")
SPOT_NAMES = {pb.HIDING_SPOT_BED: "under the bed", pb.HIDING_SPOT_BATHROOM: "in the bathroom"}
#: The standard game's levels: (the floor, where a room is on it); a mode adds its own
#: (`hooks.Points.floors`).
FLOORS = {-1: ("the basement", "in the basement"), 0: ("the main floor", "on the main floor")}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh")


def floors() -> dict[int, tuple[str, str]]:
    """Every level's names, lowest first: the standard game's and the installed modes'."""
    return dict(sorted((FLOORS | declared("floors")).items()))


def level_name(level: int) -> str:
    """Where a room on this level is ("on the main floor")."""
    return floors()[level][1]


def tile_name(tile: int) -> str:
    """A room tile's (or Brick Wall's) name."""
    room = catalogue().rooms.get(tile)
    return room.name if room else "a Brick Wall"


def room(place: int) -> str:
    """A place's room name ("The Maze (north-west)")."""
    return place_name(place)


def card_name(card: int) -> str:
    """An Event Card's name."""
    return catalogue().event(card).name if card else "a card"


def card_text(card: int) -> str:
    """An Event Card's printed effect."""
    return catalogue().event(card).effect if card else ""


def evidence(colour: int) -> str:
    """An evidence type with its cube colour ("Castle Blueprints (blue)"), or Fake Evidence."""
    if colour == FAKE:
        return "Fake Evidence"
    if not colour:
        return "no evidence"
    rules = catalogue().rules
    return f"{rules['evidence_names'][colour - 1]} ({rules['colours'][colour - 1].lower()})"


def cubes(counts: pb.Cubes, empty: str = "no evidence") -> str:
    """Cubes by evidence type ("3 Castle Blueprints (blue), 1 Fake Evidence")."""
    parts = [f"{n} {evidence(c)}" for c, n in zip(COLOURS, counts.counts, strict=False) if n]
    if counts.fake:
        parts.append(f"{counts.fake} Fake Evidence")
    return ", ".join(parts) or empty


def movement_name(card: int) -> str:
    """A Holmes' Movement card as text."""
    move = catalogue().movement[card]
    if move.special:
        return "Lights Out!" if move.special == "lights_out" else "Holmes Goes on a Rampage"
    return " / ".join(tile_name(r) for r in move.rooms)


def action_tile_name(tile: int) -> str:
    """An Action Tile's name."""
    for raw in catalogue().rules["action_tiles"]:
        if raw["tile"] == tile:
            return raw["name"]
    return "no tile"


def character_name(character: int) -> str:
    """A character's name."""
    for raw in catalogue().rules["characters"]:
        if raw["character"] == character:
            return raw["name"]
    return "Holmes"


def character_ability(character: int) -> str:
    """A character's ability text."""
    for raw in catalogue().rules["characters"]:
        if raw["character"] == character:
            return raw["ability"]
    return ""


def ordinal(n: int) -> str:
    """1 → "first"."""
    return ORDINALS[n - 1] if n <= len(ORDINALS) else f"{n}th"
