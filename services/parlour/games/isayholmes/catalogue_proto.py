"""The card catalogue as the proto Catalogue that DescribeGame publishes to clients."""

from __future__ import annotations

from functools import cache

from parlour.games.isayholmes.catalogue import KINDS
from parlour.games.isayholmes.v1 import isayholmes_pb2 as pb


@cache
def catalogue_message() -> pb.Catalogue:
    """Every card kind with its printed title, value, copies, sequence, special rule and text."""
    return pb.Catalogue(
        cards=[
            pb.CardInfo(
                card=k.id, title=k.title, category=k.category, value=k.value, copies=k.copies,
                next=k.next, i_say=k.i_say, plays=k.plays, effect=k.effect,
                defences=sorted(k.defences), text=k.text,
            )
            for k in KINDS.values()
        ]
    )
