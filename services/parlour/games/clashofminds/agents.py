"""The Additional Game Mode "Agent Cards Included", switched on by `Options.agents`
(parlour.engine.modes): each player's Agent deck at setup and the Agents step after
Initiating Contacts each round. `game` imports this module, which installs the mode."""

from __future__ import annotations

from functools import cache

from parlour.engine.game import Emitted, Variant
from parlour.engine.rng import Rng
from parlour.games.clashofminds.catalogue import CATALOGUE
from parlour.games.clashofminds.hooks import MODES, Points
from parlour.games.clashofminds.rounds import continue_agents
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb


class Agents(Points):
    """Agent Cards Included: one Agent in play per player."""

    name = "agents"

    def active(self, options: pb.Options) -> bool:
        return options.agents

    def variants(self) -> list[Variant]:
        return [Variant("agents", "Agent Cards Included", pb.Options(agents=True))]

    def test_configurations(self) -> list[tuple[pb.Options, int]]:
        return [(pb.Options(agents=True), 2)]

    def deal(self, player: pb.Player, seat: int, rng: Rng) -> None:
        player.agent_deck.extend(CATALOGUE.agent_deck(seat))
        rng.shuffle(player.agent_deck)

    def after_contacts(self, state: pb.State) -> list[Emitted]:
        return continue_agents(state, 0)

    def agents_of(self, seat: int) -> list[int]:
        return _agent_deck(seat)


@cache
def _agent_deck(seat: int) -> list[int]:
    return sorted(CATALOGUE.agent_deck(seat))


MODES.install([Agents()])
