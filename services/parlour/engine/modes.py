"""Modes as plugins: a game mode (an expansion, a solo mode, a one-vs-all mode) as a set of
hooks the standard rules call at fixed points, so the standard modules never ask which mode
is on.

A game lists its modes once, in order, as a `Modes`; each hook runs the active modes' parts
in that order (the order is part of the rules: setup draws from the seeded RNG). A `Mode`
overrides only the hooks it needs; the defaults do nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from google.protobuf.message import Message

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


class Modes:
    """A game's modes in order, and the hooks fanned out over the active ones."""

    def __init__(self, modes: Sequence[Mode]) -> None:
        self.all = tuple(modes)

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
