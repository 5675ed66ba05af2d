"""The rule points Clash of Minds' modes reach the standard rules through (parlour.engine.modes);
`agents` installs the Additional Game Mode over them. The standard modules never ask which
mode is on.

Two kinds: *points*, the methods of `Points`, each the base game's answer, which a match asks
through `rules(state)` (the first active mode's answer, else the base game's); and
*additions*, the class attributes `phases`, `moves`, `sources` and `words`, which every
installed mode adds to the base game's tables whether it is on or not (its phases, moves,
cards and words only arise when it is on), read merged through `added(name)`. `bonus` and
`player_lines` are asked of every installed mode too: a View carries no options, and a mode's
components are empty while it is off.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from parlour.engine.game import Emitted
from parlour.engine.modes import Mode, Modes
from parlour.engine.rng import Rng
from parlour.engine.v1.table_pb2 import TableItem
from parlour.games.clashofminds.v1 import clashofminds_pb2 as pb

Handler = Callable[[pb.State, int, pb.Action], list[Emitted]]
Actions = Callable[[pb.State, int], list[pb.Action]]


@dataclass(frozen=True)
class Source:
    """A kind of component that starts pending effects (an EffectSource besides the Influence
    Cards): its specs (`.key`, `.name`, `.text`) by id, and by key the legal targets and the
    resolution of the chosen one."""

    cards: Mapping[int, Any]
    targets: Mapping[str, Callable[[pb.State], list[pb.Action]]]
    resolvers: Mapping[str, Callable[[pb.State, pb.PendingEffect, pb.Action], list[Emitted]]]


@dataclass(frozen=True)
class Words:
    """A mode's words, each table merged over the base game's (an entry for a base kind
    replaces it): action labels from a View (text.LABELS), actions out of context
    (text.ACTIONS), event lines (text.EVENTS), phase names, clock and discard causes, the
    prompt of a phase it adds, what its effects ask for by key (prompts.TARGET_PROMPTS), notes
    on a turn's prompt by action kind, refusal reasons and
    decision kinds (docs/reference.md), and the greedy bot's ranks (kind -> the kind it ranks
    just before)."""

    labels: Mapping[str, Callable[[pb.View, int, Any], str]] = field(default_factory=dict)
    actions: Mapping[str, Callable[[Any], str]] = field(default_factory=dict)
    events: Mapping[str, Callable[[Any], str]] = field(default_factory=dict)
    phases: Mapping[int, str] = field(default_factory=dict)
    clock_causes: Mapping[str, str] = field(default_factory=dict)
    discard_causes: Mapping[str, str] = field(default_factory=dict)
    prompts: Mapping[int, Callable[[pb.View, int], str]] = field(default_factory=dict)
    target_prompts: Mapping[str, str] = field(default_factory=dict)
    turn_notes: Mapping[str, str] = field(default_factory=dict)
    reasons: Mapping[str, str] = field(default_factory=dict)
    decisions: Mapping[str, str] = field(default_factory=dict)
    preference: Mapping[str, str] = field(default_factory=dict)


class Points(Mode):
    """The base game at each point a mode replaces or adds to."""

    #: Phases a mode adds: decision kind and legal actions, by Phase (the base game: none).
    phases: Mapping[int, tuple[str, Actions]] = {}
    #: Moves a mode adds, or wraps (calling the base move), by Phase and action kind.
    moves: Mapping[int, Mapping[str, Handler]] = {}
    #: Sources of pending effects a mode adds, by EffectSource (the base game: Influence only).
    sources: Mapping[int, Source] = {}
    #: The words of a mode's components, moves and events.
    words: Words = Words()

    def deal(self, player: pb.Player, seat: int, rng: Rng) -> None:
        """A player's own components at setup, after the shuffled Influence deck: none more."""

    def after_contacts(self, state: pb.State) -> list[Emitted] | None:
        """A step after Initiating Contacts, before Initial Setup (None: none)."""
        return None

    def turn_actions(self, state: pb.State, seat: int) -> list[pb.Action]:
        """Actions added to a player's turn, the Final Turn included: none."""
        return []

    def support_actions(self, state: pb.State, seat: int, card: int) -> list[pb.Action]:
        """A normal turn's Supports with this Action Card elsewhere than a thread: none."""
        return []

    def supports(self, player: pb.Player) -> list[int]:
        """The Influence Cards kept face down off the threads, as their mutable list: none."""
        return []

    def shuffle_piles(self, player: pb.Player, rng: Rng) -> None:
        """Resampling: a player's other face-down piles reshuffled after the deck: none."""

    def redeal(self, player: pb.Player, rng: Rng) -> None:
        """Resampling: what is unseen of another player redealt after his cards: nothing."""

    def after_conclusion(self, state: pb.State) -> list[Emitted]:
        """Steps after every thread's Conclusion, before the Winning Conditions: none."""
        return []

    def archive(self, state: pb.State, seat: int) -> list[Emitted]:
        """What leaves a player's table at Archiving besides the Influence Cards: nothing."""
        return []

    def bonus(self, table: pb.State | pb.View, thread: int, seat: int) -> int:
        """Influence added to a side's total in a thread (asked of every mode): none."""
        return 0

    def catalogue(self, message: pb.Catalogue) -> None:
        """Adds to the Catalogue that DescribeGame publishes (asked of every mode): nothing."""

    def player_lines(self, view: pb.View, n: int, viewer: int | None) -> list[TableItem | str]:
        """Lines added to a player's section of the table (asked of every mode): none."""
        return []


MODES: Modes[Points] = Modes(Points)


def rules(state: pb.State) -> Points:
    """The rule points of this match's modes."""
    return MODES.rules(state.options)


def added(name: str) -> dict:
    """One of the additions (`phases`, `moves`, `sources`) merged over the installed modes."""
    return {k: v for mode in MODES.all for k, v in getattr(mode, name).items()}


def words(name: str) -> dict:
    """One table of the installed modes' `Words`, merged."""
    return {k: v for mode in MODES.all for k, v in getattr(mode.words, name).items()}


def bonus(table: pb.State | pb.View, thread: int, seat: int) -> int:
    """Every installed mode's Influence added to a side's total in a thread."""
    return sum(mode.bonus(table, thread, seat) for mode in MODES.all)


def player_lines(view: pb.View, n: int, viewer: int | None) -> list[TableItem | str]:
    """Every installed mode's lines for a player's section of the table."""
    return [line for mode in MODES.all for line in mode.player_lines(view, n, viewer)]
