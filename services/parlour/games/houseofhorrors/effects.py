"""Card effects: which values a battle counts, Item bonuses (Mage boosts) and Claim targets."""

from __future__ import annotations

from collections.abc import Callable

from parlour.games.houseofhorrors.catalogue import CardInfo, card
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb

#: Indexes into CardInfo.values / .bonus counted by each battle type.
COUNTED: dict[int, tuple[int, ...]] = {
    pb.BATTLE_PSYCHIC: (0,),
    pb.BATTLE_STRENGTH: (1,),
    pb.BATTLE_TERROR: (2,),
    pb.BATTLE_BLOODBATH: (0, 1, 2),
}


def item_bonus(item: CardInfo, counted: tuple[int, ...], with_mage: bool) -> int:
    """What an Item or Room Item adds to its player's total; Mage boosts need a Mage shown."""
    bonus = item.mage_bonus if with_mage else item.bonus
    return sum(bonus[i] for i in counted)


def _female_mortal(target: CardInfo) -> bool:
    return target.kind == pb.CARD_KIND_MORTAL and target.female


def _mage_horror(target: CardInfo) -> bool:
    return target.kind == pb.CARD_KIND_HORROR and target.mage


def _vampire(target: CardInfo) -> bool:
    return target.kind == pb.CARD_KIND_HORROR and target.name == "Vampire"


#: Claim effects keyed by the catalogue's claim target.
CLAIM_TARGETS: dict[int, Callable[[CardInfo], bool]] = {
    pb.CLAIM_TARGET_FEMALE_MORTAL: _female_mortal,
    pb.CLAIM_TARGET_MAGE_HORROR: _mage_horror,
    pb.CLAIM_TARGET_VAMPIRE: _vampire,
}


def claimable(state: pb.State, seat: int, claim_card: int) -> list[tuple[int, int]]:
    """(card, owner) pairs the claim of `claim_card` may take now: visible on the table, not ours.

    Visible means shown this round by another seat; cards under the Room, in
    spoils or in the discard piles are never claimable.
    """
    matches = CLAIM_TARGETS[card(claim_card).claim_target]
    return [
        (c, owner)
        for owner, showing in enumerate(state.showings)
        if owner != seat
        for c in showing.characters
        if matches(card(c))
    ]
