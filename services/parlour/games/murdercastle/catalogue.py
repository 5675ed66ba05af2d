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
class Catalogue:
    """Every component of the standard game and of The 2nd Story (its rooms are in `rooms` too;
    `second_story_pile` and `second_story_movement` say which)."""

    rooms: dict[int, Room]
    start: tuple[StartTile, ...]
    pile: tuple[int, ...]
    brick_walls: tuple[int, ...]
    jonah_brick_wall: int
    events: dict[int, EventKind]
    movement: dict[int, MovementCard]
    setup_cards: tuple[tuple[int, ...], ...]
    rules: dict
    second_story_pile: tuple[int, ...]
    second_story_movement: frozenset[int]

    def event(self, card: int) -> EventKind:
        """The kind of an Event Card id."""
        return self.events[card]

    def is_brick_wall(self, tile: int) -> bool:
        """Whether a tile number is a Brick Wall."""
        return tile in self.brick_walls


@cache
def catalogue() -> Catalogue:
    """The catalogue, loaded and checked once."""
    raw_rooms = _load("rooms.json")
    upstairs = raw_rooms["second_story"]
    rooms = {r["number"]: _room(r) for r in raw_rooms["start"] + raw_rooms["pile"] + upstairs}
    start = tuple(StartTile(r["number"], r["x"], r["y"], r["level"]) for r in raw_rooms["start"])
    events: dict[int, EventKind] = {}
    for raw in _load("events.json")["kinds"]:
        kind = EventKind(
            kind=raw["kind"], name=raw["name"], copies=raw["copies"],
            keep=raw["timing"] == "keep", category=raw["category"],
            defends=tuple(raw.get("defends", ())), effect=raw["effect"],
        )
        for _ in range(kind.copies):
            events[len(events) + 1] = kind
    raw_movement = _load("holmes_movement.json")
    movement = {
        i: MovementCard(tuple(c.get("rooms", ())), c.get("special", ""))
        for i, c in enumerate(raw_movement["cards"] + raw_movement["second_story"], start=1)
    }
    first_new = len(raw_movement["cards"]) + 1
    rules = _load("rules.json")
    colours = rules["colours"]
    setup = tuple(tuple(card[c] for c in colours) for card in _load("evidence_setup.json"))
    cat = Catalogue(
        rooms=rooms, start=start, pile=tuple(r["number"] for r in raw_rooms["pile"]),
        brick_walls=tuple(raw_rooms["brick_walls"] + raw_rooms["second_story_brick_walls"]),
        jonah_brick_wall=raw_rooms["jonah_brick_wall"],
        events=events, movement=movement, setup_cards=setup, rules=rules,
        second_story_pile=tuple(r["number"] for r in upstairs)
        + tuple(raw_rooms["second_story_brick_walls"]),
        second_story_movement=frozenset(i for i in movement if i >= first_new),
    )
    _check(cat)
    return cat


def _check(cat: Catalogue) -> None:
    extra = cat.rules["second_story"]
    new_rooms = [t for t in cat.second_story_pile if t in cat.rooms]
    assert len(cat.rooms) - len(new_rooms) == 24, "24 Room Tiles"
    assert len(new_rooms) == extra["rooms"] == 5, "5 2nd Story Room Tiles"
    assert len(cat.brick_walls) - extra["brick_walls"] == 3, "3 Brick Wall Tiles"
    assert len(cat.second_story_pile) - len(new_rooms) == extra["brick_walls"] == 1
    assert len(cat.events) == 79, "79 Event Cards"
    assert len(cat.movement) - len(cat.second_story_movement) == 33, "33 Holmes' Movement cards"
    assert len(cat.second_story_movement) == extra["movement_cards"] == 9, "9 more"
    assert extra["shelf_potions"] + extra["board_potions"] == 17, "17 Potion Tokens"
    assert all(cat.rooms[t].stairs >= 0 or cat.rooms[t].special == "dumbwaiter"
               for t in new_rooms), "every 2nd Story room but the Dumbwaiter has stairs"
    assert len(cat.setup_cards) == 24 and all(sum(c) == 13 for c in cat.setup_cards)
    for card in cat.movement.values():
        assert all(r in cat.rooms for r in card.rooms), card


def action_tiles(players: int) -> list[int]:
    """The Action Tiles in play for this many players: 6, plus the 6-7 player Move into 1 Room."""
    return sorted(t["tile"] for t in catalogue().rules["action_tiles"] if players >= t["min_seats"])
