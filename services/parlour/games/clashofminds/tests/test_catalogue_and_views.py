"""The catalogue as data, effects keyed by it, hidden information (views.py), and purity."""

from __future__ import annotations

import subprocess
import sys

from parlour.engine.rng import Rng
from parlour.games.clashofminds import GAME, effects, targets
from parlour.games.clashofminds.agents import play
from parlour.games.clashofminds.agents.cards import AGENTS
from parlour.games.clashofminds.catalogue import CATALOGUE
from parlour.games.clashofminds.tests.positions import HOLMES, MORIARTY, course, place
from parlour.games.clashofminds.views import view


def test_every_card_has_exactly_one_effect_and_every_effect_a_card():
    """Each catalogue card is keyed to real code and no code lacks a card.
    (Rulebook: Cards Description; CONVENTIONS: cards are data, effects are code)"""
    assert set(effects.USE_EFFECTS) == {c.key for c in CATALOGUE.influence.values()}
    assert set(effects.CRIME_EFFECTS) == {c.key for c in CATALOGUE.crime.values()}
    assert set(play.ABILITIES) == {a.key for a in AGENTS.values()}
    targeted = {"street_urchin", "witness", "disguise", "forged_letter", "telegram"}
    assert set(targets.RESOLVERS) == targeted
    assert set(play.RESOLVERS) == set(play.TARGETS) == {"mycroft", "porlock"}


def test_component_counts_match_the_rulebook():
    """7 sites, 9 Crime Plan Cards (3 per thread), 20 Influence Cards and 4 Action Cards per
    player, 4 Agents each. (Rulebook: Components)"""
    assert len(CATALOGUE.sites) == 7 and len(CATALOGUE.crime) == 9
    assert len(CATALOGUE.deck()) == 20 and len(CATALOGUE.actions) == 4
    assert len(AGENTS) == 8


#: shared/research/clash_of_minds.json, "investigation_sites": name, hours, Influence Card Limit.
RESEARCH_SITES = [
    ("Buckingham Palace", 1, 6), ("221B Baker Street", 1, 5), ("The Diogenes Club", 1, 5),
    ("Scotland Yard", 2, 5), ("Whitechapel", 2, 4), ("The Docks", 2, 6),
    ("The British Museum", 3, 7),
]


def test_the_sites_are_the_researched_reconstruction():
    """Every site's hours and limit follow the research reconstruction (only Buckingham Palace's
    are printed: "adds 1 hour to the clock and has a limit of 6"), together 12 hours: "They
    only have 12 hours" (issue 16 item 7). (Rulebook: Game Description; Investigation Site
    Cards)"""
    sites = [(s.name, s.hours, s.limit) for s in CATALOGUE.sites.values()]
    assert sites == RESEARCH_SITES
    assert sum(hours for _, hours, _ in sites) == 12


def test_holmes_never_sees_an_unrevealed_crime_card():
    """Moriarty sees his Crime Plan; Holmes and spectators see only revealed cards.
    (Rulebook: Preparing the Crime)"""
    state = course()
    state.threads[1].revealed = True
    for seat, shown in ((HOLMES, [0, 1, 0]), (None, [0, 1, 0]), (MORIARTY, [1, 1, 1])):
        cards = [t.crime_card for t in view(state, seat).threads]
        assert [int(bool(c)) for c in cards] == shown


def test_resampling_changes_everything_hidden_and_nothing_visible():
    """States that differ only in what a viewer cannot see look identical to it, and the
    resampling really moves the opponent's hidden cards. (DESIGN: Hidden information)"""
    state = course(hands=(("bribe", "cipher", "witness"), ("telegram", "informant")))
    place(state, HOLMES, 0, "informant", support=True)
    rng = Rng.from_seed(9)
    changed = False
    for _ in range(20):
        twin = GAME.resample_hidden(state, MORIARTY, rng)
        assert view(twin, MORIARTY) == view(state, MORIARTY)
        changed |= sorted(twin.players[HOLMES].hand) != sorted(state.players[HOLMES].hand)
    assert changed


def test_rules_import_no_grpc_redis_or_random():
    """The rules are pure: importing them pulls in no gRPC, Redis or random module use.
    (CONVENTIONS: the core has no I/O)"""
    code = (
        "import sys; import parlour.games.clashofminds;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('grpc', 'redis'));"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    from pathlib import Path

    folder = Path(effects.__file__).parent
    for module in folder.glob("*.py"):
        text = module.read_text()
        assert "import random" not in text and "import time" not in text, module.name
