"""Resolving the encounter: dice, declared values, Bloodbath and Mages (Rulebook: Resolution,
Mages)."""

from __future__ import annotations

import pytest

from parlour.games.houseofhorrors.catalogue import by_name, card
from parlour.games.houseofhorrors.effects import COUNTED, item_bonus
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

from .positions import kinds, play_round, position, resolved


def test_only_the_declared_value_counts():
    """Values not of the declared type are ignored (Rulebook: Resolution)."""
    state = position(
        3, hands={0: ["Werewolf"], 1: ["Strongman"]}, room="Kitchen", battle=pb.BATTLE_TERROR
    )
    state, events = play_round(state, {0: ["Werewolf"], 1: ["Strongman"]})
    result = resolved(events)
    assert (result.mortal_total, result.horror_total) == (0, 2)  # Terror: Strongman 0, Werewolf 2
    assert result.winner == pb.SIDE_HORROR


def test_bloodbath_adds_all_three_values():
    """A Bloodbath counts Psychic, Strength and Terror together (Rulebook: Gameplay; RULES.md)."""
    state = position(
        3, hands={0: ["Werewolf"], 1: ["Detective"]}, room="Kitchen", battle=pb.BATTLE_BLOODBATH
    )
    state, events = play_round(state, {0: ["Werewolf"], 1: ["Detective"]})
    result = resolved(events)
    assert (result.mortal_total, result.horror_total) == (4, 6)


def test_double_question_mark_rolls_two_dice_after_everyone_played():
    """'??' rolls two dice, and only once all have played (Rulebook: Resolution)."""
    state = position(
        3, hands={0: ["Twins"], 1: ["Banshee"]}, room="Attic", battle=pb.BATTLE_PSYCHIC
    )
    state, events = play_round(state, {0: ["Twins"], 1: ["Banshee"]}, rolls=[6, 5])
    assert kinds(events).index("dice") > max(
        i for i, k in enumerate(kinds(events)) if k == "turn_ended"
    )
    (dice,) = [e.event.dice for e in events if e.event.HasField("dice")]
    assert list(dice.rolls) == [6, 5] and dice.ability == pb.ABILITY_PSYCHIC
    assert resolved(events).mortal_total == 11


def test_dice_are_rolled_only_for_the_declared_value():
    """Shadow Thing's '?' Strength is not rolled in a Terror battle unless declared (Rulebook:
    Resolution)."""
    state = position(3, hands={0: ["Shadow Thing"]}, room="Kitchen", battle=pb.BATTLE_STRENGTH)
    state, events = play_round(state, {0: ["Shadow Thing"]}, rolls=[3])
    dice = [e.event.dice for e in events if e.event.HasField("dice")]
    assert [(d.ability, list(d.rolls)) for d in dice] == [(pb.ABILITY_STRENGTH, [3])]


def test_bloodbath_rolls_every_question_mark():
    """In a Bloodbath Shadow Thing rolls ?? + ? + ? = four dice (Rulebook: Resolution)."""
    state = position(3, hands={0: ["Shadow Thing"]}, room="Kitchen", battle=pb.BATTLE_BLOODBATH)
    state, events = play_round(state, {0: ["Shadow Thing"]}, rolls=[1, 2, 3, 4])
    assert resolved(events).horror_total == 10


@pytest.mark.parametrize("name", sorted({card(c).name for c in range(1, 107) if card(c).is_item}))
def test_every_item_adds_its_printed_bonus(name):
    """Each Item and Room Item adds its bonus in each battle type; Mage boosts need a Mage
    (Rulebook: Mages)."""
    item = card(by_name(name)[0])
    expected = {
        "Blood Moon": (2, 2, 2),
        "Eclipse": (1, 1, 1),
        "Grimoire": (2, 0, 0),
        "Silver Bullet": (0, 3, 0),
        "Crucifix": (0, 0, 2),
        "Shotgun": (0, 2, 0),
        "Stake": (0, 1, 0),
        "Crystal Ball": (2, 0, 0),
        "Spell Book": (1, 0, 1),
        "Lantern": (1, 0, 0),
        "Ouija Board": (2, 0, 0),
        "Silver Candelabra": (0, 1, 0),
        "Rusty Chains": (0, 0, 1),
        "Holy Water": (0, 0, 2),
        "Cursed Mirror": (1, 0, 0),
        "Old Lantern": (1, 0, 0),
    }[name]
    mage = {
        "Grimoire": (4, 0, 0),
        "Crystal Ball": (4, 0, 0),
        "Spell Book": (3, 0, 3),
        "Cursed Mirror": (3, 0, 0),
    }.get(name, expected)
    for battle, counted in COUNTED.items():
        want = sum(expected[i] for i in counted)
        assert item_bonus(item, counted, with_mage=False) == want, battle
        assert item_bonus(item, counted, with_mage=True) == sum(mage[i] for i in counted), battle


def test_grimoire_is_stronger_with_a_mage():
    """Items more effective for Mages: Grimoire gives +4 Psychic with a Lich, +2 otherwise
    (Rulebook: Mages)."""
    hands = {0: ["Lich", "Grimoire"], 1: ["Zombie", "Grimoire"]}
    state = position(3, hands=hands, room="Crypt", battle=pb.BATTLE_PSYCHIC)
    state, events = play_round(state, {0: ["Lich", "Grimoire"], 1: ["Zombie", "Grimoire"]})
    assert list(resolved(events).seat_totals)[:2] == [3 + 4, 0 + 2]


def test_items_played_alone_count_for_their_side():
    """An Item alone adds its bonus to the side it joined (Rulebook: FAQ)."""
    state = position(
        3, hands={0: ["Lantern"], 1: ["Crucifix"]}, room="Crypt", battle=pb.BATTLE_PSYCHIC
    )
    state, events = play_round(state, {0: [("Lantern", pb.SIDE_HORROR)], 1: ["Crucifix"]})
    result = resolved(events)
    assert (result.mortal_total, result.horror_total) == (0, 1)
