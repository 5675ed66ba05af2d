"""The component catalogue as the proto Catalogue that DescribeGame publishes to clients."""

from __future__ import annotations

from functools import cache

from parlour.games.murdercastle.catalogue import catalogue
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb


@cache
def catalogue_message() -> pb.Catalogue:
    """Room tiles, Event and Holmes' Movement cards and characters, as printed."""
    c = catalogue()
    return pb.Catalogue(
        rooms=[
            pb.RoomInfo(
                number=r.number, name=r.name, doors=r.doors, capacity=r.capacity,
                halves=[pb.RoomHalf(doors=h) for h in r.halves], special=r.special,
                stairs_to=r.stairs_to, dead_end_side=r.dead_end_side,
                brick_wall=c.is_brick_wall(r.number),
            )
            for r in c.rooms.values()
        ],
        events=[
            pb.EventCardInfo(
                card=card, kind=e.kind, name=e.name, keep=e.keep, category=e.category,
                defends=e.defends, effect=e.effect,
            )
            for card, e in c.events.items()
        ],
        movement=[
            pb.MovementCardInfo(card=card, rooms=m.rooms, special=m.special)
            for card, m in c.movement.items()
        ],
        characters=[
            pb.CharacterInfo(character=ch["character"], name=ch["name"], ability=ch["ability"])
            for ch in c.rules["characters"]
        ],
        evidence_names=c.rules["evidence_names"],
    )
