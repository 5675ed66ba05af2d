"""The House of Horrors catalogue: every card, loaded from data/cards.json and checked.

Each physical card has its own id: the House of Horrors deck first, then the
Room deck, in file order, copies one after another.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

DATA = Path(__file__).resolve().parent / "data" / "cards.json"

ABILITIES = (pb.ABILITY_PSYCHIC, pb.ABILITY_STRENGTH, pb.ABILITY_TERROR)
ABILITY_KEYS = ("psychic", "strength", "terror")
_KINDS = {
    "mortal": pb.CARD_KIND_MORTAL,
    "horror": pb.CARD_KIND_HORROR,
    "item": pb.CARD_KIND_ITEM,
    "room": pb.CARD_KIND_ROOM,
    "room_item": pb.CARD_KIND_ROOM_ITEM,
    "midnight": pb.CARD_KIND_MIDNIGHT,
    "dawn": pb.CARD_KIND_DAWN,
}
_FLOORS = {"basement": pb.FLOOR_BASEMENT, "main": pb.FLOOR_MAIN, "upstairs": pb.FLOOR_UPSTAIRS}
_SIDES = {"mortal": pb.SIDE_MORTAL, "horror": pb.SIDE_HORROR, "either": pb.SIDE_UNSPECIFIED}
_TARGETS = {
    "female_mortal": pb.CLAIM_TARGET_FEMALE_MORTAL,
    "mage_horror": pb.CLAIM_TARGET_MAGE_HORROR,
    "vampire": pb.CLAIM_TARGET_VAMPIRE,
}
CHARACTER_SIDE = {pb.CARD_KIND_MORTAL: pb.SIDE_MORTAL, pb.CARD_KIND_HORROR: pb.SIDE_HORROR}


@dataclass(frozen=True, slots=True)
class CardInfo:
    """One physical card. Values are (fixed, dice) per ability; a '?' is (0, 1)."""

    id: int
    name: str
    kind: int
    floors: frozenset[int]
    values: tuple[tuple[int, int], ...]
    bonus: tuple[int, ...]
    mage_bonus: tuple[int, ...]
    side: int
    hourglasses: int
    lanterns: int
    female: bool
    mage: bool
    claim_target: int
    claim_roll: int
    text: str

    @property
    def is_character(self) -> bool:
        """A Mortal or a Horror."""
        return self.kind in CHARACTER_SIDE

    @property
    def is_item(self) -> bool:
        """An Item or a Room Item: it adds a bonus to its player."""
        return self.kind in (pb.CARD_KIND_ITEM, pb.CARD_KIND_ROOM_ITEM)


def _value(raw: int | str) -> tuple[int, int]:
    if isinstance(raw, str):
        if set(raw) != {"?"}:
            raise ValueError(f"bad value {raw!r}")
        return 0, len(raw)
    return int(raw), 0


def _card(card_id: int, raw: dict) -> CardInfo:
    kind = _KINDS[raw["kind"]]
    bonus = tuple(int(raw.get("bonus", {}).get(k, 0)) for k in ABILITY_KEYS)
    mage = raw.get("mage_bonus")
    claim = raw.get("claim") or {}
    return CardInfo(
        id=card_id,
        name=raw["name"],
        kind=kind,
        floors=frozenset(_FLOORS[f] for f in raw.get("floors", ())),
        values=tuple(_value(raw.get(k, 0)) for k in ABILITY_KEYS),
        bonus=bonus,
        mage_bonus=tuple(int(mage.get(k, 0)) for k in ABILITY_KEYS) if mage else bonus,
        side=_SIDES[raw.get("side", "either")],
        hourglasses=int(raw.get("hourglasses", 0)),
        lanterns=int(raw.get("lanterns", 0)),
        female=bool(raw.get("female", False)),
        mage=bool(raw.get("mage", False)),
        claim_target=_TARGETS[claim["target"]] if claim else pb.CLAIM_TARGET_UNSPECIFIED,
        claim_roll=int(claim.get("min_roll", 0)),
        text=raw.get("text", ""),
    )


def _expand(deck: list[dict], first_id: int) -> list[CardInfo]:
    cards = []
    for raw in deck:
        for _ in range(int(raw["copies"])):
            cards.append(_card(first_id + len(cards), raw))
    return cards


def _check(house: list[CardInfo], room: list[CardInfo]) -> None:
    """The numbers the rulebook and our reconstruction rely on."""
    kinds = [c.kind for c in room]
    if kinds.count(pb.CARD_KIND_MIDNIGHT) != 1 or kinds.count(pb.CARD_KIND_DAWN) != 1:
        raise ValueError("the Room deck needs exactly one Midnight and one Dawn")
    if not all(c.is_character or c.kind == pb.CARD_KIND_ITEM for c in house):
        raise ValueError("the House of Horrors deck holds only Mortals, Horrors and Items")
    for card in house + room:
        if (card.is_character or card.kind == pb.CARD_KIND_ROOM) and not card.floors:
            raise ValueError(f"{card.name} names no floor")
        if card.kind == pb.CARD_KIND_ROOM and len(card.floors) != 1:
            raise ValueError(f"room {card.name} must be on exactly one floor")
        if card.is_item and card.floors:
            raise ValueError(f"item {card.name} cannot name a floor")
        if card.claim_target and not card.claim_roll:
            raise ValueError(f"{card.name} claims without a roll")


def _load() -> tuple[dict, list[CardInfo], list[CardInfo]]:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    house = _expand(raw["house_deck"], 1)
    room = _expand(raw["room_deck"], len(house) + 1)
    _check(house, room)
    return raw, house, room


_RAW, _HOUSE, _ROOM = _load()

HAND_SIZE: int = int(_RAW["hand_size"])
MAX_HAND_SIZE: int = int(_RAW["max_hand_size"])
LANTERNS_PER_CARD: int = int(_RAW["lanterns_per_card"])

#: Every card, indexed by id (index 0 is unused).
CARDS: tuple[CardInfo, ...] = (None, *_HOUSE, *_ROOM)  # type: ignore[assignment]
HOUSE_DECK: tuple[int, ...] = tuple(c.id for c in _HOUSE)
ROOM_DECK: tuple[int, ...] = tuple(c.id for c in _ROOM)
ALL_IDS: tuple[int, ...] = HOUSE_DECK + ROOM_DECK
MIDNIGHT: int = next(c.id for c in _ROOM if c.kind == pb.CARD_KIND_MIDNIGHT)
DAWN: int = next(c.id for c in _ROOM if c.kind == pb.CARD_KIND_DAWN)
ROOM_DECK_IDS: frozenset[int] = frozenset(ROOM_DECK)


def card(card_id: int) -> CardInfo:
    """The card with this id."""
    return CARDS[card_id]


def by_name(name: str) -> list[int]:
    """Ids of every copy of the card called `name`."""
    return [c.id for c in CARDS[1:] if c.name == name]


def card_name(card_id: int) -> str:
    """The printed name of a card (or '?' for an unknown id)."""
    return CARDS[card_id].name if 0 < card_id < len(CARDS) else "?"
