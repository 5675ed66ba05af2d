"""Modes as plugins: a game mode (an expansion, a solo mode, a one-vs-all mode) as a set of
hooks the standard rules call at fixed points, so the standard modules never ask which mode
is on.

A game declares its rule points once, as a subclass of `Mode` whose methods are the standard
game's answer at each point (what a mode may replace), and a `Modes` over it; the game's
modes subclass that class, override only the points they replace, and are installed in order
by the module that assembles the game (so the standard modules never import a mode). The hooks
below (setup, after_action, end_round ...) are what a mode adds: each runs the active modes'
parts in order (the order is part of the rules: setup draws from the seeded RNG). `rules()`
answers with the standard class's methods, each replaced by the first active mode (in the
installed order) that overrides it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar

from google.protobuf.message import Message

from parlour.engine import rating
from parlour.engine.game import Outcome, Variant
from parlour.engine.rng import Rng


class Mode:
    """One mode's parts. `active` says whether a match's options play it."""

    #: A stable name ("automa", "second-story").
    name: str = ""
    #: Decisions the mode adds: decision key → (options(state, frame, seat),
    #: apply(state, frame, seat, action, out)), merged into the game's table.
    decisions: Mapping[Any, tuple[Callable, Callable]] = {}
    #: Automatic steps the mode adds: key → step(state, frame, out).
    automatic: Mapping[Any, Callable] = {}

    def active(self, options: Message) -> bool:
        """Whether a match with these options plays this mode."""
        raise NotImplementedError

    def seat_range(self, options: Message) -> tuple[int, int] | None:
        """The seat counts the mode takes (None: the game's)."""
        return None

    def check_options(self, options: Message, seats: int) -> None:
        """Refuse options the mode cannot play (raise InvalidOptions)."""

    def default_options(self, seats: int) -> Message | None:
        """The options a match of this many seats plays by default (None: not this mode)."""
        return None

    def variants(self) -> list[Variant]:
        """The named variants the mode offers."""
        return []

    def test_configurations(self) -> list[tuple[Message, int]]:
        """(options, seats) the engine's property tests play with the mode."""
        return []

    def rating_sides(self, options: Message, outcome: Outcome) -> rating.Sides | None:
        """Who plays against whom for ratings (None: every seat for itself)."""
        return None

    def title(self, options: Message) -> str | None:
        """The mode's words added to a match's title line (None: none)."""
        return None

    def setup(self, state: Message) -> None:
        """The mode's part of setup, after the standard setup."""

    def after_action(self, state: Message, out: list) -> None:
        """Checks after every action (objectives met, triggers)."""

    def end_round(self, state: Message, frame: Message, out: list) -> bool:
        """A step the mode adds at the end of a round, before the standard one; True when it
        took one (the round's end resumes afterwards)."""
        return False

    def round_over(self, state: Message, out: list) -> None:
        """After the round has ended, before the next begins."""

    def game_over(self, state: Message) -> tuple[tuple[int, ...], str] | None:
        """A win the mode adds (winners, reason), or None."""
        return None

    def view(self, state: Message, seat: int | None, view: Message) -> None:
        """The mode's part of a seat's View."""

    def resample(self, state: Message, seat: int | None, rng: Rng) -> None:
        """Redeal, in a copy, the mode's part that `seat` cannot see."""

    def check(self, state: Message) -> None:
        """Conservation of the mode's components while it is on."""

    def check_off(self, state: Message) -> None:
        """What must hold while it is off (none of its components in play)."""


P = TypeVar("P", bound=Mode)
#: Distinct options whose rule points are kept (a match's options rarely vary).
RULES_KEPT = 1024


class Modes(Generic[P]):
    """A game's rule points (`points`: the standard answers), its modes in order once
    installed, and the hooks fanned out over the active ones."""

    def __init__(self, points: type[P]) -> None:
        self.points = points
        self.all: tuple[P, ...] = ()
        self._rules: dict[bytes, P] = {}
        self._composed: dict[tuple[str, ...], P] = {}

    def install(self, modes: Sequence[P]) -> None:
        """The game's modes, in order (each a subclass of the points class)."""
        assert all(isinstance(m, self.points) for m in modes), "a mode outside the points"
        self.all = tuple(modes)
        self._rules.clear()
        self._composed.clear()

    def replaced(self, mode: Mode) -> list[str]:
        """The rule points a mode replaces."""
        return [name for name in vars(self.points) if not name.startswith("_")
                and callable(vars(self.points)[name])
                and getattr(type(mode), name) is not vars(self.points)[name]]

    def rules(self, options: Message) -> P:
        """The rule points for these options: the standard answers, each replaced by the first
        active mode that replaces it (kept per options: the rules ask at every step)."""
        key = options.SerializeToString(deterministic=True)
        found = self._rules.get(key)
        if found is None:
            active = tuple(self.on(options))
            names = tuple(m.name for m in active)
            found = self._composed.get(names)
            if found is None:
                found = self.points()
                for mode in reversed(active):  # the first active mode's part stays
                    for name in self.replaced(mode):
                        setattr(found, name, getattr(mode, name))
                self._composed[names] = found
            if len(self._rules) >= RULES_KEPT:
                self._rules.clear()
            self._rules[key] = found
        return found

    def on(self, options: Message) -> Iterator[Mode]:
        """The active modes, in order."""
        return (m for m in self.all if m.active(options))

    def names(self, options: Message) -> list[str]:
        """The active modes' names."""
        return [m.name for m in self.on(options)]

    def seat_range(self, options: Message, default: tuple[int, int]) -> tuple[int, int]:
        """The first active mode's seat range, else `default`."""
        for mode in self.on(options):
            found = mode.seat_range(options)
            if found is not None:
                return found
        return default

    def check_options(self, options: Message, seats: int) -> None:
        for mode in self.on(options):
            mode.check_options(options, seats)

    def default_options(self, seats: int) -> Message | None:
        """The first mode's default options for this many seats."""
        return next((o for m in self.all if (o := m.default_options(seats)) is not None), None)

    def variants(self) -> list[Variant]:
        """Every mode's variants, in order."""
        return [v for m in self.all for v in m.variants()]

    def test_configurations(self) -> list[tuple[Message, int]]:
        """Every mode's test configurations, in order."""
        return [c for m in self.all for c in m.test_configurations()]

    def rating_sides(self, options: Message, outcome: Outcome) -> rating.Sides | None:
        """The first active mode's sides."""
        return next((s for m in self.on(options)
                     if (s := m.rating_sides(options, outcome)) is not None), None)

    def titles(self, options: Message) -> list[str]:
        """The active modes' additions to a match's title line, in order."""
        return [t for m in self.on(options) if (t := m.title(options)) is not None]

    def decisions(self) -> dict:
        """Every mode's decisions (active or not: a decision only arises when it is on)."""
        return {k: v for m in self.all for k, v in m.decisions.items()}

    def automatic(self) -> dict:
        """Every mode's automatic steps."""
        return {k: v for m in self.all for k, v in m.automatic.items()}

    def setup(self, state: Message) -> None:
        for mode in self.on(state.options):
            mode.setup(state)

    def after_action(self, state: Message, out: list) -> None:
        for mode in self.on(state.options):
            mode.after_action(state, out)

    def end_round(self, state: Message, frame: Message, out: list) -> bool:
        return any(m.end_round(state, frame, out) for m in self.on(state.options))

    def round_over(self, state: Message, out: list) -> None:
        for mode in self.on(state.options):
            mode.round_over(state, out)

    def game_over(self, state: Message) -> tuple[tuple[int, ...], str] | None:
        for mode in self.on(state.options):
            found = mode.game_over(state)
            if found is not None:
                return found
        return None

    def view(self, state: Message, seat: int | None, view: Message) -> None:
        for mode in self.on(state.options):
            mode.view(state, seat, view)

    def resample(self, state: Message, seat: int | None, rng: Rng) -> None:
        for mode in self.on(state.options):
            mode.resample(state, seat, rng)

    def check(self, state: Message) -> None:
        for mode in self.all:
            (mode.check if mode.active(state.options) else mode.check_off)(state)
