"""The rulebook's names for the modes' components: potions, Castle Junction Cards and
objectives, Holmes' Action and Ability Cards, Control Panel placeholders."""

from __future__ import annotations

from parlour.games.murdercastle.modes import components
from parlour.games.murdercastle.v1 import junction_pb2 as jpb
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

POTION_NAMES = {pb.POTION_TONIC: "a Tonic", pb.POTION_H2O: "H2O",
                pb.POTION_SNAKE_OIL: "Snake Oil", pb.POTION_POISON: "Poison"}
#: The Castle Junction actions, shortened from their printed text.
REWARD_NAMES = {
    jpb.JUNCTION_REWARD_BLOCK_HOLMES: "Block Holmes",
    jpb.JUNCTION_REWARD_REMOVE_CUBE: "Remove a Holmes' cube",
    jpb.JUNCTION_REWARD_NO_MOVEMENT: "No Holmes' Movement Cards this round",
    jpb.JUNCTION_REWARD_REMOVE_CARD: "Remove a Holmes' Action Card from the Action Tiles",
    jpb.JUNCTION_REWARD_BOX_CARD: "Permanently remove a Holmes' Action Card",
}


def objective_name(objective: int) -> str:
    """A Castle Junction objective's text."""
    return components.TEXTS.get(objective, "none")


def junction_name(card: int) -> str:
    """A completed Castle Junction Card by its action."""
    return REWARD_NAMES[components.reward(card)] if card else "a Castle Junction Card"


def automa_name(card: int) -> str:
    """A Holmes' Action Card's name."""
    return components.data().cards[card].name


def ability_name(ability: int) -> str:
    """A Holmes' Ability Card's name."""
    found = components.abilities().get(ability)
    return found.name if found else "Holmes' Ability Card"


def slot_name(slot: int) -> str:
    """A Control Panel placeholder as printed ("1a" …)."""
    return components.panel().names[slot - 1]
