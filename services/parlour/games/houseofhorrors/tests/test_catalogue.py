"""The catalogue: every number the rulebook states, and every effect keyed to code (RULES.md:
Catalogue)."""

from __future__ import annotations

from collections import Counter

from parlour.games.houseofhorrors.catalogue import (
    ALL_IDS,
    CARDS,
    HOUSE_DECK,
    MAX_HAND_SIZE,
    ROOM_DECK,
    by_name,
    card,
)
from parlour.games.houseofhorrors.catalogue_proto import catalogue_message
from parlour.games.houseofhorrors.effects import CLAIM_TARGETS
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb


def _value(name, index):
    return card(by_name(name)[0]).values[index]


def test_deck_sizes_and_room_floors():
    """80 House of Horrors cards; a Room deck of 18 Rooms on 3 floors, 6 Room Items, Midnight and
    Dawn (Rulebook: Setup; RULES.md: Catalogue)."""
    assert len(HOUSE_DECK) == 80 and len(ROOM_DECK) == 26
    assert list(ALL_IDS) == list(range(1, 107))
    kinds = Counter(card(c).kind for c in ROOM_DECK)
    assert kinds == {
        pb.CARD_KIND_ROOM: 18,
        pb.CARD_KIND_ROOM_ITEM: 6,
        pb.CARD_KIND_MIDNIGHT: 1,
        pb.CARD_KIND_DAWN: 1,
    }
    floors = Counter(
        next(iter(card(c).floors)) for c in ROOM_DECK if card(c).kind == pb.CARD_KIND_ROOM
    )
    assert set(floors.values()) == {6} and len(floors) == 3
    assert MAX_HAND_SIZE == 10


def test_every_card_named_in_the_rulebook_exists():
    """The Armory, Mindbat Swarm, Psychic Kid, Bleeding Walls, Will o' Wisps, Blood Moon, Vampire,
    Midnight and Dawn are in the catalogue (Rulebook: Gameplay, Special Cases)."""
    for name in [
        "The Armory",
        "Mindbat Swarm",
        "Psychic Kid",
        "Bleeding Walls",
        "Will o' Wisps",
        "Blood Moon",
        "Vampire",
        "Midnight",
        "Dawn",
    ]:
        assert by_name(name), name
    assert card(by_name("The Armory")[0]).floors == {pb.FLOOR_MAIN}


def test_values_make_the_worked_example_come_out_as_printed():
    """Psychic Kid is '?'; Mindbat Swarm + Bleeding Walls = 3; Will o' Wisps + Blood Moon = 4
    (Rulebook: Resolution)."""
    assert _value("Psychic Kid", 0) == (0, 1)
    assert _value("Mindbat Swarm", 0)[0] + _value("Bleeding Walls", 0)[0] == 3
    assert _value("Will o' Wisps", 0)[0] + card(by_name("Blood Moon")[0]).bonus[0] == 4
    assert card(by_name("Psychic Kid")[0]).hourglasses > 0  # it becomes one of the two spoils
    for name in ["Mindbat Swarm", "Psychic Kid", "Bleeding Walls", "Will o' Wisps"]:
        assert pb.FLOOR_MAIN in card(by_name(name)[0]).floors


def test_vampire_claims_female_mortals_on_four_or_more():
    """The Vampire rolls when played and claims a female Mortal on 4+ (Rulebook: Claiming Cards)."""
    vampire = card(by_name("Vampire")[0])
    assert (vampire.claim_target, vampire.claim_roll) == (pb.CLAIM_TARGET_FEMALE_MORTAL, 4)
    assert any(c.female and c.kind == pb.CARD_KIND_MORTAL for c in CARDS[1:])


def test_every_claim_effect_has_code_and_a_possible_target():
    """Each card's Claim target is implemented and matches at least one card (CONVENTIONS:
    effects are code)."""
    claimers = [c for c in CARDS[1:] if c.claim_target]
    assert {c.name for c in claimers} == {"Vampire", "Witch Hunter", "Stake"}
    for claimer in claimers:
        matches = CLAIM_TARGETS[claimer.claim_target]
        assert any(matches(c) for c in CARDS[1:]), claimer.name
        assert claimer.text.startswith("Claim") or "Claim" in claimer.text
    assert set(CLAIM_TARGETS) == {c.claim_target for c in claimers}


def test_mages_exist_on_both_sides_and_mage_items_boost_them():
    """Some Mortals and Horrors are Mages; certain Items are stronger for them (Rulebook: Mages)."""
    mages = {c.kind for c in CARDS[1:] if c.mage}
    assert mages == {pb.CARD_KIND_MORTAL, pb.CARD_KIND_HORROR}
    boosted = {c.name for c in CARDS[1:] if c.is_item and c.mage_bonus != c.bonus}
    assert boosted == {"Grimoire", "Crystal Ball", "Spell Book", "Cursed Mirror"}


def test_catalogue_message_lists_every_card():
    """The catalogue converts to its protobuf message, one entry per card id (DESIGN: Game data)."""
    message = catalogue_message()
    assert [c.id for c in message.cards] == list(ALL_IDS)
    shadow = message.cards[by_name("Shadow Thing")[0] - 1]
    assert (shadow.psychic.dice, shadow.strength.dice, shadow.terror.dice) == (2, 1, 1)
    stake = message.cards[by_name("Stake")[0] - 1]
    assert stake.claim.target == pb.CLAIM_TARGET_VAMPIRE and stake.side == pb.SIDE_MORTAL


def test_item_texts_say_what_they_add_and_for_which_side():
    """An Item adds its bonus to its player's total, with her Mortal or Horror or alone (FAQ:
    "Can I play an item card alone? … Yes."), so no text gives it "to its Horror"; each text
    names its bonus and, for a one-sided Item, the side (RULES.md: Items)."""
    abilities = ("Psychic", "Strength", "Terror")
    only = {pb.SIDE_MORTAL: "Mortals only", pb.SIDE_HORROR: "Horrors only"}
    for info in CARDS[1:]:
        if not info.is_item:
            continue
        assert "its Horror" not in info.text and "its Mortal" not in info.text, info.name
        pairs = zip(abilities, info.bonus, strict=True)
        each = [(f"+{b} {a}" in info.text) == (b > 0) for a, b in pairs]
        to_all = len(set(info.bonus)) == 1 and f"+{info.bonus[0]} to all values" in info.text
        assert all(each) or to_all, info.name
        for side, words in only.items():
            assert (words in info.text) == (info.side == side), info.name
