"""The card catalogue as the proto Catalogue that DescribeGame publishes to clients."""

from __future__ import annotations

from functools import cache

from parlour.games.clashofminds.catalogue import CATALOGUE
from parlour.games.clashofminds.hooks import MODES
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb


@cache
def catalogue_message() -> pb.Catalogue:
    """Every card with its printed name, values and rule text, the modes' included."""
    c = CATALOGUE
    message = pb.Catalogue(
        sites=[
            pb.SiteInfo(id=s.id, name=s.name, hours=s.hours, limit=s.limit, text=s.text)
            for s in c.sites.values()
        ],
        crime_plan=[
            pb.CrimePlanInfo(id=k.id, name=k.name, thread=k.thread, text=k.text)
            for k in c.crime.values()
        ],
        influence=[
            pb.InfluenceInfo(
                id=k.id, name=k.name, icon=k.icon, constant=k.constant, played=k.played,
                used=k.used, copies=k.copies, text=k.text,
            )
            for k in c.influence.values()
        ],
        action_cards=[
            pb.ActionCardInfo(id=a.id, key=a.key, sides=a.sides) for a in c.actions.values()
        ],
    )
    for mode in MODES.all:
        mode.catalogue(message)
    return message
