"""The 120-card catalogue, loaded from data/cards.json and checked on import.

Card ids are the values of the proto's `Card` enum; everything about a card
(value, Setup Deal Number, Story Sequence, special rule) lives in the data.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb

DATA = Path(__file__).resolve().parent / "data" / "cards.json"

#: When a card may be played (the `plays` field of the data).
PLAY_RULES = frozenset(
    {
        "OPENS",
        "ESCAPE",
        "SEQUENCE",
        "LOCATION",
        "DEFENCE",
        "OUT_OF_SEQUENCE",
        "AFTER_NON_MOVEMENT",
        "AFTER_LONDON_LOCATION",
        "AFTER_MOVEMENT",
        "ANY_TIME",
    }
)
#: Placeholders a `next` list may use for Location cards.
LOCATION_TOKENS = frozenset({"LOCATION_OTHER_REGION", "LOCATION_SAME_REGION", "ANY_LOCATION"})
#: Who a card's special rule hits (the `victim` field).
VICTIMS = frozenset({"OPPONENT", "PREVIOUS_OPPONENT", "NEXT_OPPONENT"})
HAND_SIZE = 6


@dataclass(frozen=True, slots=True)
class Kind:
    """One card kind as printed, plus how many copies the deck holds."""

    id: int
    key: str
    title: str
    category: str
    value: int
    copies: int
    deal: dict[int, int]
    next: tuple[str, ...]
    i_say: bool
    plays: str
    effect: str = ""
    count: int = 0
    victim: str = ""
    defences: frozenset[int] = frozenset()
    unlawful_arrest_penalty: bool = False
    transparent: bool = False
    optional: bool = False
    #: Its special gameplay rule in the rulebook's words.
    text: str = ""

    @property
    def is_villain(self) -> bool:
        """Villains are never played in sequence; holding only Villains is an Escape."""
        return self.category == "VILLAIN"

    @property
    def region(self) -> int:
        """The Location chit side of a Location card (REGION_UNSPECIFIED otherwise)."""
        return {
            "LONDON_LOCATION": pb.REGION_LONDON,
            "COUNTRY_LOCATION": pb.REGION_COUNTRY,
        }.get(self.category, pb.REGION_UNSPECIFIED)


def _kind(raw: dict) -> Kind:
    return Kind(
        id=raw["id"],
        key=raw["key"],
        title=raw["title"],
        category=raw["category"],
        value=raw["value"],
        copies=raw["copies"],
        deal={int(n): c for n, c in raw["deal"].items()},
        next=tuple(raw["next"]),
        i_say=raw["i_say"],
        plays=raw["plays"],
        effect=raw.get("effect", ""),
        count=raw.get("count", 0),
        victim=raw.get("victim", ""),
        defences=frozenset(pb.Card.Value(f"CARD_{d}") for d in raw.get("defences", [])),
        unlawful_arrest_penalty=raw.get("unlawful_arrest_penalty", False),
        transparent=raw.get("transparent", False),
        optional=raw.get("optional", False),
        text=raw.get("text", ""),
    )


def load(path: Path = DATA) -> dict[int, Kind]:
    """Every card kind by id, checked for internal consistency."""
    kinds = {raw["id"]: _kind(raw) for raw in json.loads(path.read_text())["cards"]}
    check(kinds)
    return kinds


def check(kinds: dict[int, Kind]) -> None:
    """Raise ValueError if the data disagrees with the proto enum or with itself."""
    titles = {k.title for k in kinds.values()}
    for kind in kinds.values():
        if pb.Card.Name(kind.id) != f"CARD_{kind.key}":
            raise ValueError(
                f"card {kind.id} is {pb.Card.Name(kind.id)} in the proto, not {kind.key}"
            )
        if not kind.text:
            raise ValueError(f"{kind.key}: no printed rules text")
        if kind.plays not in PLAY_RULES:
            raise ValueError(f"{kind.key}: unknown play rule {kind.plays}")
        if kind.victim and kind.victim not in VICTIMS:
            raise ValueError(f"{kind.key}: unknown victim {kind.victim}")
        if kind.optional and kind.victim != "OPPONENT":
            raise ValueError(f"{kind.key}: only a card that names an opponent can be declined")
        if not 1 <= kind.value <= 50 or sum(kind.deal.values()) > kind.copies:
            raise ValueError(f"{kind.key}: bad value or deal numbers")
        if any(not 3 <= n <= 8 for n in kind.deal):
            raise ValueError(f"{kind.key}: Setup Deal Numbers run from 3 to 8")
        unknown = [t for t in kind.next if t not in titles and t not in LOCATION_TOKENS]
        if unknown:
            raise ValueError(f"{kind.key}: unknown titles in its Story Sequence: {unknown}")
    followers = {name for kind in kinds.values() for name in kind.next}
    stranded = [k.key for k in kinds.values() if k.plays == "SEQUENCE" and k.title not in followers]
    if stranded:
        raise ValueError(f"no Story Sequence leads to {stranded}")
    missing = set(pb.Card.values()) - {pb.CARD_UNSPECIFIED} - set(kinds)
    if missing:
        raise ValueError(f"no data for cards {sorted(missing)}")


KINDS = load()
DECK: tuple[int, ...] = tuple(k.id for k in KINDS.values() for _ in range(k.copies))
VILLAINS = frozenset(k.id for k in KINDS.values() if k.is_villain)


def value(card: int) -> int:
    """A card's Point Value."""
    return KINDS[card].value


def title(card: int) -> str:
    """A card's printed title."""
    return KINDS[card].title


@cache
def deal_out_stack(seats: int) -> tuple[int, ...]:
    """Cards whose Setup Deal Number is at most the number of players, in catalogue order."""
    return tuple(
        k.id for k in KINDS.values() for n, c in k.deal.items() if n <= seats for _ in range(c)
    )


@cache
def draw_pile_cards(seats: int) -> tuple[int, ...]:
    """Cards that start in the Draw Pile: the deck minus the Deal Out Stack."""
    rest = list(DECK)
    for card in deal_out_stack(seats):
        rest.remove(card)
    return tuple(rest)
