"""The rule points Clash of Minds' modes may replace (parlour.engine.modes), each method the
base game's answer; `agents` installs the Additional Game Mode over them. The standard
modules ask `rules(state)` at these points and never which mode is on."""

from __future__ import annotations

from parlour.engine.game import Emitted
from parlour.engine.modes import Mode, Modes
from parlour.engine.rng import Rng
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb


class Points(Mode):
    """The base game at each point a mode replaces."""

    def deal(self, player: pb.Player, seat: int, rng: Rng) -> None:
        """A player's own components at setup, after the shuffled Influence deck."""

    def after_contacts(self, state: pb.State) -> list[Emitted] | None:
        """A step after Initiating Contacts, before Initial Setup (None: none)."""
        return None

    def agents_of(self, seat: int) -> list[int]:
        """The Agent Cards a seat owns, sorted (conservation)."""
        return []


MODES: Modes[Points] = Modes(Points)


def rules(state: pb.State) -> Points:
    """The rule points of this match's modes."""
    return MODES.rules(state.options)
