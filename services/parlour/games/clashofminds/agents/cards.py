"""The Agent Cards, as data (data/catalogue.json, "agents"), checked on load."""

from __future__ import annotations

import json
from dataclasses import dataclass

from parlour.games.clashofminds.catalogue import DATA, HOLMES, MORIARTY, OWNERS

PER_PLAYER = 4


@dataclass(frozen=True, slots=True)
class AgentCard:
    """An Agent Card with its Activation Cost."""

    id: int
    key: str
    name: str
    owner: int
    cost: int
    text: str


def load() -> dict[int, AgentCard]:
    """Read and check the Agent Cards (Components: 4 per player)."""
    raw = json.loads(DATA.read_text(encoding="utf-8"))["agents"]
    agents = {a["id"]: AgentCard(**{**a, "owner": OWNERS[a["owner"]]}) for a in raw}
    for seat in (HOLMES, MORIARTY):
        assert sum(a.owner == seat for a in agents.values()) == PER_PLAYER, "4 Agents each"
    moran = next(a for a in agents.values() if a.key == "moran")
    assert (moran.cost, moran.owner) == (1, MORIARTY)
    return agents


AGENTS = load()
AGENT_ID = {agent.key: agent.id for agent in AGENTS.values()}
#: Each player's four Agents, in catalogue order.
DECKS = tuple([a.id for a in AGENTS.values() if a.owner == seat] for seat in (HOLMES, MORIARTY))


def agent(card: int) -> str:
    """An Agent Card with its Activation Cost: 'Dr. Watson (cost 1)'."""
    spec = AGENTS[card]
    return f"{spec.name} (cost {spec.cost})"
