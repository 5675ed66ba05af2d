"""A card in words: its name with the values that matter now, and its whole printed face."""

from __future__ import annotations

from parlour.games.houseofhorrors.catalogue import CardInfo, card
from parlour.games.houseofhorrors.effects import COUNTED
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

ABILITY_WORDS = ("Psychic", "Strength", "Terror")
FLOOR_NAMES = {pb.FLOOR_BASEMENT: "Basement", pb.FLOOR_MAIN: "Main Floor",
               pb.FLOOR_UPSTAIRS: "Upstairs"}
#: Where a Room is, and where its fighters must be able to go.
ROOM_PLACES = {pb.FLOOR_BASEMENT: ("in the Basement", "to the Basement"),
               pb.FLOOR_MAIN: ("on the Main Floor", "to the Main Floor"),
               pb.FLOOR_UPSTAIRS: ("upstairs", "upstairs")}
KIND_NAMES = {
    pb.CARD_KIND_MORTAL: "Mortal", pb.CARD_KIND_HORROR: "Horror", pb.CARD_KIND_ITEM: "Item",
    pb.CARD_KIND_ROOM: "Room", pb.CARD_KIND_ROOM_ITEM: "Room Item",
    pb.CARD_KIND_MIDNIGHT: "Midnight", pb.CARD_KIND_DAWN: "Dawn",
}
BATTLE_NAMES = {
    pb.BATTLE_PSYCHIC: "Psychic", pb.BATTLE_STRENGTH: "Strength", pb.BATTLE_TERROR: "Terror",
    pb.BATTLE_BLOODBATH: "Bloodbath",
}
SIDE_NAMES = {pb.SIDE_MORTAL: "the Mortals", pb.SIDE_HORROR: "the Horrors"}


def plural(n: int, word: str) -> str:
    """'1 hourglass', '3 hourglasses', '2 cards'."""
    return f"{n} {word}" if n == 1 else f"{n} {word}es" if word.endswith("s") else f"{n} {word}s"


def value(fixed: int, dice: int) -> str:
    """A printed value: '3', '?' (one die), '??' (two dice)."""
    return "?" * dice if dice and not fixed else f"{fixed}+{'?' * dice}" if dice else str(fixed)


def values(info: CardInfo, battle: int = pb.BATTLE_UNSPECIFIED) -> str:
    """A Mortal's or Horror's values in the battle declared (all three for a Bloodbath or none):
    'Strength 2', 'Psychic ?, Strength 0, Terror 1'."""
    counted = COUNTED.get(battle, (0, 1, 2))
    return ", ".join(f"{ABILITY_WORDS[i]} {value(*info.values[i])}" for i in counted)


def adds(info: CardInfo, battle: int) -> str:
    """What an Item or Room Item adds in a battle: '+2 Psychic, +4 with a Mage'."""
    counted = COUNTED[battle]
    plain = sum(info.bonus[i] for i in counted)
    mage = sum(info.mage_bonus[i] for i in counted)
    what = "in the Bloodbath" if len(counted) > 1 else ABILITY_WORDS[counted[0]]
    if not plain and not mage:
        return f"adds nothing in {what}" if len(counted) > 1 else f"adds no {what}"
    return f"+{plain} {what}" + (f", +{mage} with a Mage" if mage != plain else "")


def room(card_id: int) -> str:
    """'Kitchen (Main Floor)'."""
    info = card(card_id)
    floors = ", ".join(FLOOR_NAMES[f] for f in sorted(info.floors))
    return f"{info.name} ({floors})" if info.kind == pb.CARD_KIND_ROOM else info.name


def brief(card_id: int, battle: int) -> str:
    """A card in a label: 'Ghost Hunter (Strength 2)', 'Shotgun (+2 Strength)'."""
    info = card(card_id)
    if info.is_character:
        return f"{info.name} ({values(info, battle)})"
    return f"{info.name} ({adds(info, battle)})" if info.is_item else room(card_id)


def short(card_id: int, battle: int = pb.BATTLE_UNSPECIFIED) -> str:
    """A card as a hand or table line: 'Ghost Hunter (Mortal: Strength 2)',
    'Shotgun (Item: +2 Strength)', 'Kitchen (Main Floor)'."""
    info = card(card_id)
    kind = KIND_NAMES[info.kind]
    if info.is_character:
        mage = ", Mage" if info.mage else ""
        return f"{info.name} ({kind}{mage}: {values(info, battle)})"
    if info.is_item:
        if battle not in COUNTED:
            return f"{info.name} ({kind}: {info.text})"
        only = f", {SIDE_NAMES[info.side][4:]} only" if info.side in SIDE_NAMES else ""
        return f"{info.name} ({kind}{only}: {adds(info, battle)})"
    return room(card_id)


def with_hourglasses(card_id: int) -> str:
    """A spoil with its points: 'Vampire (3 hourglasses)'."""
    return f"{card(card_id).name} ({plural(card(card_id).hourglasses, 'hourglass')})"


def detail(card_id: int) -> str:
    """The whole printed face of a card: kind, values, floors, hourglasses, lanterns, text."""
    info = card(card_id)
    parts = [KIND_NAMES[info.kind] + (" (Mage)" if info.mage else "")
             + (" (female)" if info.female else "")]
    if info.is_character:
        parts.append(values(info))
    if info.floors:
        where = ", ".join(FLOOR_NAMES[f] for f in sorted(info.floors))
        parts.append(
            "{}: only Mortals and Horrors who may go {} fight here".format(
                *ROOM_PLACES[min(info.floors)]
            ) if info.kind == pb.CARD_KIND_ROOM else f"may go to: {where}"
        )
    if info.hourglasses:
        parts.append(plural(info.hourglasses, "hourglass"))
    if info.lanterns:
        parts.append(plural(info.lanterns, "lantern"))
    text = f". {info.text}" if info.text else ""
    return f"{info.name}: " + "; ".join(parts) + text
