"""The printed components of Murder Castle's modes, as data (data/*.json), loaded and checked
once: the Holmes' Action Cards and Evidence Destruction Cards, the Holmes' Control Panel, the
Castle Junction Cards and Holmes' Ability Cards. No rules: the modes play them and name them
(`modes.names`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from parlour.games.murdercastle.catalogue import DATA
from parlour.games.murdercastle.cubes import COLOURS
from parlour.games.murdercastle.v1 import junction_pb2 as jpb
from parlour.games.murdercastle.v1 import murdercastle_pb2 as pb

# -- Automa: the Holmes' Action Cards and the Evidence Destruction Cards ------------------
LEVELS = {pb.AUTOMA_LEVEL_BEGINNER: "beginner", pb.AUTOMA_LEVEL_INTERMEDIATE: "intermediate",
          pb.AUTOMA_LEVEL_MENACING: "menacing"}
ORDER = ("beginner", "intermediate", "menacing")

@dataclass(frozen=True, slots=True)
class AutomaCard:
    """One Holmes' Action Card."""

    kind: str
    name: str
    level: str
    removed_at: str = ""


@dataclass(frozen=True, slots=True)
class AutomaData:
    """The Automa deck, the Evidence Destruction deck and the setup numbers."""

    cards: dict[int, AutomaCard]
    destruction: dict[int, tuple[int, ...]]
    raw: dict


@cache
def data() -> AutomaData:
    """The Automa components, loaded and checked once."""
    raw = json.loads((DATA / "automa.json").read_text())
    cards: dict[int, AutomaCard] = {}
    for c in raw["cards"]:
        for _ in range(c["copies"]):
            cards[len(cards) + 1] = AutomaCard(c["kind"], c["name"], c["level"],
                                               c.get("removed_at", ""))
    destruction: dict[int, tuple[int, ...]] = {}
    for pair in raw["destruction"]["pairs"]:
        destruction[len(destruction) + 1] = tuple(pair)
    for _ in range(raw["destruction"]["wilds"]):
        destruction[len(destruction) + 1] = COLOURS
    assert len(cards) == 23, "23 Holmes' Action Cards"
    assert len(destruction) == 15, "15 Evidence Destruction Cards"
    assert sum(c.level == "holmes" for c in cards.values()) == 3
    for level in ORDER:
        assert len(deck_cards(cards, level)) == raw["deck_size"][level], level
    return AutomaData(cards, destruction, raw)


def deck_cards(cards: dict[int, AutomaCard], level: str) -> list[int]:
    """The Automa deck at a difficulty: the cards of this level and below, less those this
    level removes (Rulebook: Automa Setup: Holmes' Action Cards / Automa Deck)."""
    rank = ORDER.index(level)
    return sorted(i for i, c in cards.items() if c.level in ORDER
                  and ORDER.index(c.level) <= rank
                  and not (c.removed_at and ORDER.index(c.removed_at) <= rank))


# -- Play as Holmes: the Control Panel -------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Panel:
    """The Holmes' Control Panel and the Play as Holmes deck (data/play_as_holmes.json)."""

    names: tuple[str, ...]
    sections: tuple[tuple[int, ...], ...]
    needs: dict[int, tuple[int, ...]]
    start: tuple[int, ...]
    deck: tuple[int, ...]
    raw: dict

    def slot(self, name: str) -> int:
        """A placeholder's slot number from its printed name ("1a" …)."""
        return self.names.index(name) + 1


@cache
def panel() -> Panel:
    """The Control Panel layout and the 13 Play as Holmes cards, loaded and checked once."""
    raw = json.loads((DATA / "play_as_holmes.json").read_text())
    names = tuple(n for section in raw["sections"] for n in section["slots"])
    sections = tuple(tuple(names.index(n) + 1 for n in s["slots"]) for s in raw["sections"])
    copies = {}
    for card, info in sorted(data().cards.items()):
        copies.setdefault(info.kind, []).append(card)

    def take(kind: str) -> int:
        return copies[kind].pop(0)

    start = tuple(take(kind) for kind in raw["start"])
    needs = {take(c["kind"]): tuple(names.index(n) + 1 for n in c["slots"]) for c in raw["panel"]}
    deck = tuple(sorted((*start, *needs)))
    assert len(names) == 12, "12 cube placeholders"
    assert len(needs) == 11, "11 Holmes' Action Cards can be unlocked"
    assert len(deck) == len(data().cards) - 10 == 13, "remove the 10 cards"
    assert sorted(s for slots in needs.values() for s in slots) == list(range(1, 13))
    return Panel(names, sections, needs, start, deck, raw)


# -- the Castle Junction Cards ---------------------------------------------------------------
JUNCTION_DATA = json.loads((DATA / "castle_junction.json").read_text())
#: Objective and reward kinds of the data file, as enum values.
OBJECTIVES = {k: jpb.JunctionObjective.Value(f"JUNCTION_OBJECTIVE_{k.upper()}")
              for k in JUNCTION_DATA["objectives"]}
REWARDS = {k: jpb.JunctionReward.Value(f"JUNCTION_REWARD_{k.upper()}")
           for k in JUNCTION_DATA["rewards"]}
#: Each objective's text as printed.
TEXTS = {OBJECTIVES[k]: text for k, text in JUNCTION_DATA["objectives"].items()}
#: The values of VoteCast.vote / JunctionView.my_vote.
KEEP, DISCARD = 1, 2


@dataclass(frozen=True, slots=True)
class JunctionCard:
    """One Castle Junction Card: the objective on its face, the reward on its back."""

    objective: int
    reward: int


@cache
def cards() -> dict[int, JunctionCard]:
    """The 13 cards by id (1-13), loaded and checked once."""
    found = {i: JunctionCard(OBJECTIVES[o], REWARDS[r])
             for i, (o, r) in enumerate(JUNCTION_DATA["cards"], start=1)}
    assert len(found) == 13, "13 Castle Junction Cards"
    assert {c.objective for c in found.values()} == set(OBJECTIVES.values())
    assert {c.reward for c in found.values()} == set(REWARDS.values())
    return found


def objective(card: int) -> int:
    """The objective printed on a card's face (0 for no card)."""
    return cards()[card].objective if card else jpb.JUNCTION_OBJECTIVE_UNSPECIFIED


def reward(card: int) -> int:
    """The reward on a card's back."""
    return cards()[card].reward


# -- Holmes' Ability Cards --------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Ability:
    """One Holmes' Ability Card as reconstructed."""

    kind: str
    name: str
    text: str


@cache
def abilities() -> dict[int, Ability]:
    """The 3 cards by HolmesAbility value, loaded and checked once."""
    raw = json.loads((DATA / "holmes_abilities.json").read_text())
    found = {a["ability"]: Ability(a["kind"], a["name"], a["text"]) for a in raw["abilities"]}
    assert sorted(found) == [jpb.HOLMES_ABILITY_ALARM, jpb.HOLMES_ABILITY_ACID,
                             jpb.HOLMES_ABILITY_GAS], "3 Holmes' Ability Cards"
    return found
