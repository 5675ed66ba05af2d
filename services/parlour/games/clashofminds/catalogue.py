"""The Clash of Minds catalogue: cards as data (data/catalogue.json), checked on load (a mode
reads its own components from the same file)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

HOLMES = 0
MORIARTY = 1
THREADS = 3
HAND_SIZE = 5
SETUP_CARDS = 3
CLOCK_HOURS = 12
DEDUCTION_TOKENS = 3
DISTRACTION_TOKENS = 8
DECK_SIZE = 20
PERSON = "person"
CRIME_THREAD_TYPES = ("victim", "felony", "object")


@dataclass(frozen=True, slots=True)
class Site:
    """An Investigation Site Card."""

    id: int
    key: str
    name: str
    hours: int
    limit: int
    text: str


@dataclass(frozen=True, slots=True)
class CrimeCard:
    """A Crime Plan Card of one thread type (victim, felony, object)."""

    id: int
    key: str
    name: str
    thread: str
    text: str


@dataclass(frozen=True, slots=True)
class InfluenceCard:
    """An Influence Card kind: icon, played and used values, copies per deck."""

    id: int
    key: str
    name: str
    icon: str
    constant: bool
    played: int
    used: int
    copies: int
    text: str


@dataclass(frozen=True, slots=True)
class ActionCardSpec:
    """An Action Card and the actions printed on it."""

    id: int
    key: str
    sides: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Catalogue:
    """Every card of the game, by id."""

    sites: dict[int, Site]
    crime: dict[int, CrimeCard]
    influence: dict[int, InfluenceCard]
    actions: dict[int, ActionCardSpec]

    def by_key(self, table: dict, key: str) -> int:
        """The id of the card with this key in one table."""
        return next(card.id for card in table.values() if card.key == key)

    def deck(self) -> list[int]:
        """One player's 20-card Influence Deck, in catalogue order."""
        return [card.id for card in self.influence.values() for _ in range(card.copies)]

    def crime_of_type(self, thread: str) -> list[int]:
        """The Crime Plan ids of one thread type."""
        return [card.id for card in self.crime.values() if card.thread == thread]


DATA = Path(__file__).with_name("data") / "catalogue.json"
OWNERS = {"holmes": HOLMES, "moriarty": MORIARTY}


def load(path: Path = DATA) -> Catalogue:
    """Read and check the catalogue data."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    catalogue = Catalogue(
        sites={s["id"]: Site(**s) for s in raw["investigation_sites"]},
        crime={c["id"]: CrimeCard(**c) for c in raw["crime_plan"]},
        influence={c["id"]: InfluenceCard(**c) for c in raw["influence_cards"]},
        actions={
            a["id"]: ActionCardSpec(a["id"], a["key"], tuple(a["sides"]))
            for a in raw["action_cards"]
        },
    )
    check(catalogue)
    return catalogue


def check(catalogue: Catalogue) -> None:
    """Assert the counts the rulebook states (Components) and the known card values."""
    assert len(catalogue.sites) == 7, "7 Investigation Site Cards"
    assert sum(s.hours for s in catalogue.sites.values()) == CLOCK_HOURS, "sites fill the clock"
    assert len(catalogue.crime) == 9, "9 Crime Plan Cards"
    for kind in CRIME_THREAD_TYPES:
        assert len(catalogue.crime_of_type(kind)) == 3, f"3 {kind} cards"
    assert len(catalogue.deck()) == DECK_SIZE, "20 Influence Cards per player"
    assert len(catalogue.actions) == 4, "4 Action Cards per player"
    fingerprints = catalogue.influence[catalogue.by_key(catalogue.influence, "fingerprints")]
    assert (fingerprints.played, fingerprints.used, fingerprints.copies) == (3, 2, 1)
    palace = catalogue.sites[catalogue.by_key(catalogue.sites, "buckingham_palace")]
    assert (palace.hours, palace.limit) == (1, 6)
    minister = catalogue.crime[catalogue.by_key(catalogue.crime, "prime_minister")]
    assert minister.thread == "victim"


CATALOGUE = load()
SITE_ID = {site.key: site.id for site in CATALOGUE.sites.values()}
CRIME_ID = {card.key: card.id for card in CATALOGUE.crime.values()}
CARD_ID = {card.key: card.id for card in CATALOGUE.influence.values()}
