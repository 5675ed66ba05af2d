"""A throwaway rules change for issue 42's tests: Tiny Cards at rules version 2, where every
played card scores double. Production code stays as it is (Tiny Cards at version 1).

As a rules service (a real process): `python tests/tinycards_v2.py`, with
PARLOUR_TEST_TINYCARDS_SERVES="2" (this build plays version 2 alone, the default) or "1,2"
(it keeps version 1 behind the version a match recorded: Temporal's patching). Either build
migrates version 1 matches when the host sets PARLOUR_MIGRATE_RULES.
"""

from __future__ import annotations

import os

from parlour.engine.game import Emitted, Game, Outcome, UnservedVersion
from parlour.games.tinycards.game import GAME as VERSION_1
from parlour.games.tinycards.game import TinyCards
from parlour.games.tinycards.v1 import tinycards_pb2 as pb


class TinyCardsV2(TinyCards):
    """Tiny Cards whose played cards score double (rules version 2)."""

    rules_version = 2
    migrates_from = frozenset({1})

    def __init__(self, keeps_version_1: bool = False) -> None:
        self.keeps_version_1 = keeps_version_1

    def served_versions(self) -> tuple[int, ...]:
        return (1, 2) if self.keeps_version_1 else (2,)

    def at_version(self, version: int) -> Game:
        if version == 1 and self.keeps_version_1:
            return VERSION_1
        return super().at_version(version)

    def migrate(self, state: pb.State, from_version: int) -> None:
        """Nothing in the State changes: only the scoring does."""
        if from_version not in self.migrates_from:
            raise UnservedVersion(self.name, from_version)

    def apply(self, state: pb.State, seat: int, action: pb.Action) -> list[Emitted]:
        emitted = super().apply(state, seat, action)
        for item in emitted:
            if item.event.HasField("ended"):
                item.event.ended.scores[:] = [2 * s for s in item.event.ended.scores]
        return emitted

    def outcome(self, state: pb.State) -> Outcome | None:
        counted = super().outcome(state)
        if counted is None:
            return None
        return Outcome(tuple(2 * s for s in counted.scores), counted.winners, counted.summary)


def from_environment() -> TinyCardsV2:
    """The build PARLOUR_TEST_TINYCARDS_SERVES asks for."""
    serves = os.environ.get("PARLOUR_TEST_TINYCARDS_SERVES", "2")
    return TinyCardsV2(keeps_version_1=serves == "1,2")


if __name__ == "__main__":
    from parlour.rules.server import run

    run(from_environment())
