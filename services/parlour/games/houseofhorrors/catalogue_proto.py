"""The catalogue as the Catalogue message DescribeGame publishes."""

from __future__ import annotations

from parlour.games.houseofhorrors.catalogue import ABILITY_KEYS, CARDS
from parlour.games.houseofhorrors.v1 import houseofhorrors_pb2 as pb


def _bonus(values: tuple[int, ...]) -> pb.Bonus:
    return pb.Bonus(**dict(zip(ABILITY_KEYS, values, strict=True)))


def catalogue_message() -> pb.Catalogue:
    """Every card: name, kind, floors, values, bonuses, hourglasses, lanterns and text."""
    message = pb.Catalogue()
    for info in CARDS[1:]:
        entry = message.cards.add(
            id=info.id, name=info.name, kind=info.kind, floors=sorted(info.floors),
            side=info.side, hourglasses=info.hourglasses, lanterns=info.lanterns,
            female=info.female, mage=info.mage, text=info.text,
        )
        for field, (fixed, dice) in zip(ABILITY_KEYS, info.values, strict=True):
            getattr(entry, field).CopyFrom(pb.Value(fixed=fixed, dice=dice))
        entry.bonus.CopyFrom(_bonus(info.bonus))
        entry.mage_bonus.CopyFrom(_bonus(info.mage_bonus))
        entry.claim.CopyFrom(pb.ClaimEffect(target=info.claim_target, min_roll=info.claim_roll))
    return message
