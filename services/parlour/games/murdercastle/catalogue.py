"""The catalogue: room tiles, Event and Holmes' Movement cards, Evidence Setup cards, as data.

Everything is loaded once from data/*.json and checked against the numbers the
rulebook states (tests/test_catalogue.py checks them again, one by one).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
SIDES = "NESW"


@dataclass(frozen=True, slots=True)
class Room:
    """A room tile as printed (sides in the printed orientation, 0 N … 3 W)."""

    number: int
    name: str
    doors: tuple[int, ...]
    capacity: int
    halves: tuple[tuple[int, ...], ...]
    special: str = ""
    stairs_to: int = 0
    dead_end_side: int = -1
    stairs: int = -1


@dataclass(frozen=True, slots=True)
class StartTile:
    """Where a start tile lies in the setup diagram."""

    number: int
    x: int
    y: int
    level: int


@dataclass(frozen=True, slots=True)
class EventKind:
    """One kind of Event Card."""

    kind: str
    name: str
    copies: int
    keep: bool
    category: str
    defends: tuple[str, ...]
    effect: str


@dataclass(frozen=True, slots=True)
class MovementCard:
    """A Holmes' Movement card: rooms in reading order, or a special card."""

    rooms: tuple[int, ...]
    special: str = ""


def _sides(text: str) -> tuple[int, ...]:
    return tuple(SIDES.index(c) for c in text)


def _load(name: str) -> dict:
    return json.loads((DATA / name).read_text())


def _room(raw: dict) -> Room:
    doors = _sides(raw["doors"])
    halves = tuple(_sides(h) for h in raw.get("halves", [])) or (doors,)
    dead = raw.get("dead_end_side")
    stairs = raw.get("stairs")
    return Room(
        number=raw["number"], name=raw["name"], doors=doors, capacity=raw["capacity"],
        halves=halves, special=raw.get("special", ""), stairs_to=raw.get("stairs_to", 0),
        dead_end_side=SIDES.index(dead) if dead else -1,
        stairs=SIDES.index(stairs) if stairs else -1,
    )


@dataclass(frozen=True, slots=True)
class Box:
    """The numbers of one box's Room Tiles for the pile, Brick Walls and Holmes' Movement cards."""

    pile: tuple[int, ...]
    brick_walls: tuple[int, ...]
    movement: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Catalogue:
    """Every printed component, by number: the standard game's (`game`) and those the data
    lists as added by a mode (`added`, by the name the mode's module reads its box by)."""

    rooms: dict[int, Room]
    start: tuple[StartTile, ...]
    brick_walls: tuple[int, ...]
    jonah_brick_wall: int
    events: dict[int, EventKind]
    movement: dict[int, MovementCard]
    setup_cards: tuple[tuple[int, ...], ...]
    rules: dict
    game: Box
    added: dict[str, Box]

    def event(self, card: int) -> EventKind:
        """The kind of an Event Card id."""
        return self.events[card]

    def is_brick_wall(self, tile: int) -> bool:
        """Whether a tile number is a Brick Wall."""
        return tile in self.brick_walls


def _box(tiles: dict, cards: list[dict], rooms: dict[int, Room],
         movement: dict[int, MovementCard]) -> Box:
    """One box's tiles and cards added to the catalogue's rooms and movement cards (its cards
    numbered on from those before)."""
    rooms |= {r["number"]: _room(r) for r in tiles["pile"]}
    first = len(movement) + 1
    movement |= {i: MovementCard(tuple(c.get("rooms", ())), c.get("special", ""))
                 for i, c in enumerate(cards, start=first)}
    return Box(pile=tuple(r["number"] for r in tiles["pile"]),
               brick_walls=tuple(tiles["brick_walls"]),
               movement=tuple(range(first, len(movement) + 1)))


@cache
def catalogue() -> Catalogue:
    """The catalogue, loaded and checked once."""
    raw_rooms, raw_movement = _load("rooms.json"), _load("holmes_movement.json")
    rooms = {r["number"]: _room(r) for r in raw_rooms["start"]}
    movement: dict[int, MovementCard] = {}
    game = _box(raw_rooms, raw_movement["cards"], rooms, movement)
    added = {name: _box(tiles, raw_movement["added"][name], rooms, movement)
             for name, tiles in raw_rooms["added"].items()}
    events: dict[int, EventKind] = {}
    for raw in _load("events.json")["kinds"]:
        kind = EventKind(
            kind=raw["kind"], name=raw["name"], copies=raw["copies"],
            keep=raw["timing"] == "keep", category=raw["category"],
            defends=tuple(raw.get("defends", ())), effect=raw["effect"],
        )
        for _ in range(kind.copies):
            events[len(events) + 1] = kind
    rules = _load("rules.json")
    colours = rules["colours"]
    setup = tuple(tuple(card[c] for c in colours) for card in _load("evidence_setup.json"))
    cat = Catalogue(
        rooms=rooms,
        start=tuple(StartTile(r["number"], r["x"], r["y"], r["level"]) for r in raw_rooms["start"]),
        brick_walls=game.brick_walls + tuple(w for box in added.values() for w in box.brick_walls),
        jonah_brick_wall=raw_rooms["jonah_brick_wall"],
        events=events, movement=movement, setup_cards=setup, rules=rules,
        game=game, added=added,
    )
    _check(cat)
    return cat


def _check(cat: Catalogue) -> None:
    assert len(cat.start) + len(cat.game.pile) == 24, "24 Room Tiles"
    assert len(cat.game.brick_walls) == 3, "3 Brick Wall Tiles"
    assert cat.jonah_brick_wall in cat.game.brick_walls
    assert len(cat.events) == 79, "79 Event Cards"
    assert len(cat.game.movement) == 33, "33 Holmes' Movement cards"
    assert len(cat.setup_cards) == 24 and all(sum(c) == 13 for c in cat.setup_cards)
    for card in cat.movement.values():
        assert all(r in cat.rooms for r in card.rooms), card


def action_tiles(players: int) -> list[int]:
    """The Action Tiles in play for this many players: 6, plus the 6-7 player Move into 1 Room."""
    return sorted(t["tile"] for t in catalogue().rules["action_tiles"] if players >= t["min_seats"])
