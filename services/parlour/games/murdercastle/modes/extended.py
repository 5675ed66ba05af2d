"""The Extended Version, switched on by `Options.extended` (Rulebook: Setup): the Evidence
Board Pillar is left out."""

from __future__ import annotations

from parlour.engine.game import Variant
from parlour.games.murdercastle.hooks import Points
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

#: Rounds the Extended Version's test configuration plays (4 seats), as the standard game's.
EXTENDED_ROUNDS = 2


class Extended(Points):
    """The Extended Version: the Pillar is left out (4 of each evidence, not 5)."""

    name = "extended"

    def active(self, options: pb.Options) -> bool:
        return options.extended

    def pillar(self, state: pb.State) -> bool:
        return False

    def title(self, options: pb.Options) -> str:
        return "Extended Version"

    def variants(self) -> list[Variant]:
        return [Variant("extended", "Extended Version", pb.Options(extended=True))]

    def test_configurations(self) -> list[tuple[pb.Options, int]]:
        return [(pb.Options(extended=True, round_limit=EXTENDED_ROUNDS), 4)]
