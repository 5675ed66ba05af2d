"""The contract every game implements, and the records it exchanges with the runtime."""

from __future__ import annotations

import abc
import importlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType
from typing import Any, ClassVar

from google.protobuf.message import Message

from parlour.engine import rating
from parlour.engine.rng import Rng
from parlour.engine.v1.table_pb2 import TableText


class IllegalAction(Exception):
    """An action the rules refuse now; `reason` is a stable UPPER_SNAKE code."""

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason = reason
        self.message = message or reason


class UnservedVersion(LookupError):
    """A rules version this build of a game does not play (nor replay)."""

    def __init__(self, game: str, version: int) -> None:
        super().__init__(f"this build of {game} does not play rules version {version}")
        self.game = game
        self.version = version


class InvalidOptions(ValueError):
    """Match options (or a seat count) the game cannot be set up with."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True, slots=True)
class Decision:
    """A seat owes a decision of some kind (e.g. "turn", "respond", "pass_card")."""

    seat: int
    kind: str


@dataclass(frozen=True, slots=True)
class Emitted:
    """An event and who may see it.

    `to=None`: everyone (spectators included) except the seats in `hidden_from`;
    otherwise only the seats in `to`. A private event's public twin is usually
    `Emitted(public, hidden_from=frozenset({seat}))` beside
    `Emitted(private, to=frozenset({seat}))`.
    """

    event: Message
    to: frozenset[int] | None = None
    hidden_from: frozenset[int] = frozenset()

    def visible_to(self, seat: int | None) -> bool:
        """Whether a seat (None = spectator) may see this event."""
        if self.to is None:
            return seat not in self.hidden_from
        return seat is not None and seat in self.to


def told(public: Message, privates: Sequence[tuple[Message, Collection[int]]]) -> list[Emitted]:
    """A public event and its private twins (the same event telling some seats more): a seat
    with a twin reads only the twin, so its feed has one line per event; everyone else (the
    spectators too) reads the public one."""
    seats = frozenset(s for _, to in privates for s in to)
    return [Emitted(public, hidden_from=seats),
            *(Emitted(event, to=frozenset(to)) for event, to in privates if to)]


@dataclass(frozen=True, slots=True)
class Variant:
    """One way to play a game (standard, a variant, an expansion, a solo mode): a stable
    name, a title and the Options that select it; its seats come from `Game.seat_range`."""

    name: str
    display_name: str
    options: Message


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game: a score per seat and the winning seats."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    summary: str = ""


class Game(abc.ABC):
    """One game's rules: declared facts plus pure functions over its State.

    Games only code the in-progress case: the runtime (parlour.engine.runtime)
    refuses actions after the end, from seats that owe no decision, and makes
    `apply` atomic, so `apply` may mutate its state and raise half-way.
    Every State message has a `uint32 seats` field (the seat count) and a
    `uint64 rng` field holding the seeded RNG (see parlour.engine.rng).

    By convention a game folder `parlour.games.<name>` holds its messages in
    `v1/<name>_pb2` (Options, State, Action, Event, View: the five *_type attributes are
    taken from there), its words in `text.py` (describe_action, describe_event,
    label_actions, describe_view) and its Catalogue message in
    `catalogue_proto.catalogue_message()`.
    """

    name: ClassVar[str]
    display_name: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options_type: ClassVar[type[Message]]
    state_type: ClassVar[type[Message]]
    action_type: ClassVar[type[Message]]
    event_type: ClassVar[type[Message]]
    view_type: ClassVar[type[Message]]
    hidden_information: ClassVar[bool] = True
    #: An upper bound on actions in one game, so playouts know a loop when they see one.
    max_actions: ClassVar[int] = 10_000
    #: The largest serialized Action accepted; the gateway refuses bigger ones
    #: (INVALID_ARGUMENT ACTION_TOO_LARGE) before they reach the rules service.
    max_action_bytes: ClassVar[int] = 1024
    #: True when the lowest score wins (the non-winners then finish lowest score first).
    lowest_score_wins: ClassVar[bool] = False
    #: True only for games that exist to test the platform.
    for_tests: ClassVar[bool] = False
    #: The rules version new matches start on. Bump it whenever the game's behaviour changes
    #: (its golden playthroughs change: tests/test_rules_versions.py checks it); a match keeps
    #: the version it was created under (docs/adding-a-game.md, "Rules versions").
    rules_version: ClassVar[int] = 1
    #: Older versions whose matches `migrate` moves to `rules_version` (run only when the
    #: host turns migration on).
    migrates_from: ClassVar[frozenset[int]] = frozenset()
    #: Older versions this build plays unchanged: since them only words changed (tables,
    #: labels, prompts, feed lines), never a State, an Event, a legal action or an audience,
    #: so their matches play on and their logs replay here.
    plays_unchanged: ClassVar[frozenset[int]] = frozenset()
    #: Every reason its IllegalActions can carry, with a one-line description for clients.
    reasons: ClassVar[Mapping[str, str]]
    #: Every Decision.kind it can owe, with a one-line description for clients.
    decision_kinds: ClassVar[Mapping[str, str]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" in cls.__dict__ and "state_type" not in cls.__dict__:
            messages = importlib.import_module(f"parlour.games.{cls.name}.v1.{cls.name}_pb2")
            cls.options_type = messages.Options
            cls.state_type = messages.State
            cls.action_type = messages.Action
            cls.event_type = messages.Event
            cls.view_type = messages.View

    def _module(self, name: str) -> ModuleType:
        return importlib.import_module(f"parlour.games.{self.name}.{name}")

    @cached_property
    def text(self) -> ModuleType:
        """The game's words: its `text` module."""
        return self._module("text")

    @cached_property
    def prompts(self) -> ModuleType:
        """What each decision is for: the game's `prompts` module."""
        return self._module("prompts")

    # -- setup -------------------------------------------------------------
    def default_options(self, seats: int) -> Message:
        """Options used when a match is created without any."""
        return self.options_type()

    @abc.abstractmethod
    def new_state(self, options: Message, seats: int, seed: int) -> Message:
        """The state after setup; raises InvalidOptions for a bad seat count or option."""

    def seat_range(self, options: Message) -> tuple[int, int]:
        """The seat counts a match with these options takes (a mode may narrow the game's
        `min_seats`..`max_seats`, which covers every mode)."""
        return self.min_seats, self.max_seats

    def variants(self) -> Sequence[Variant]:
        """Every way to play the game, published in GameInfo and given a playthrough each;
        default: the standard game alone."""
        return [Variant("standard", self.display_name, self.default_options(self.min_seats))]

    def seat_count(self, state: Message) -> int:
        """How many seats the match has."""
        return int(state.seats)

    # -- play --------------------------------------------------------------
    @abc.abstractmethod
    def pending(self, state: Message) -> list[Decision]:
        """Who owes which decision now (empty once the game is over)."""

    @abc.abstractmethod
    def legal_actions(self, state: Message, seat: int) -> list[Message]:
        """Every action `seat` may take now; called only for a pending seat."""

    @abc.abstractmethod
    def apply(self, state: Message, seat: int, action: Message) -> list[Emitted]:
        """Check and apply an action in place; raise IllegalAction if refused."""

    @abc.abstractmethod
    def view(self, state: Message, seat: int | None) -> Message:
        """What `seat` (None: a spectator) may see."""

    @abc.abstractmethod
    def outcome(self, state: Message) -> Outcome | None:
        """Scores and winners once the game is over, else None."""

    def rating_sides(self, options: Message, outcome: Outcome) -> rating.Sides:
        """Who played against whom, for the ratings; default: every seat for itself, the
        winners first, then by score (lowest first when `lowest_score_wins`)."""
        return rating.free_for_all(outcome.scores, outcome.winners, self.lowest_score_wins)

    def rated_variant(self, options: Message) -> str | None:
        """The variant a match with these Options is rated in (None: not rated, e.g. an
        option that exists only for tests); default: the game's one variant, else the
        variant they contain."""
        variants = self.variants()
        if len(variants) == 1:
            return variants[0].name
        return rating.matching_variant(variants, options)

    # -- rules versions (issue 42) ---------------------------------------------
    def served_versions(self) -> tuple[int, ...]:
        """Every rules version this build plays; default: `rules_version` alone. A build
        that keeps an older behaviour behind the version a match recorded (Temporal's
        patching) lists it here and answers it in `at_version`."""
        return tuple(sorted({self.rules_version, *self.plays_unchanged}))

    def at_version(self, version: int) -> Game:
        """The rules as they were at `version` (self for `rules_version`); raises
        UnservedVersion for a version this build does not play."""
        if version == self.rules_version or version in self.plays_unchanged:
            return self
        raise UnservedVersion(self.name, version)

    def migrate(self, state: Message, from_version: int) -> None:
        """Move a live match's State from `from_version` (one of `migrates_from`) to
        `rules_version`, in place; the decisions owed must stay the same. Runs once per
        match, recorded in its log as a RulesUpdated event everyone sees."""
        raise UnservedVersion(self.name, from_version)

    # -- declared checks used by the conformance suite ------------------------
    @abc.abstractmethod
    def check_conservation(self, state: Message) -> None:
        """Raise AssertionError if components were created or lost."""

    @abc.abstractmethod
    def resample_hidden(self, state: Message, seat: int | None, rng: Rng) -> Message:
        """A copy of `state` that differs only in what `seat` cannot see."""

    def test_configurations(self) -> Sequence[tuple[Message, int]]:
        """(options, seats) pairs the conformance suite plays; default: every seat count."""
        return [(self.default_options(n), n) for n in range(self.min_seats, self.max_seats + 1)]

    def timeout_action(self, state: Message, seat: int, kind: str) -> Message | None:
        """The action the platform plays when `seat`'s turn timer runs out on a `kind`
        decision (e.g. a pass); None: a legal action drawn from the state's RNG."""
        return None

    # -- what clients are told: the words and the components ------------------
    def catalogue(self) -> Message:
        """The game's components (cards, rooms, tiles with names and printed values) as the
        game's Catalogue message, published to clients by DescribeGame."""
        return self._catalogue

    @cached_property
    def _catalogue(self) -> Message:
        return self._module("catalogue_proto").catalogue_message()

    def describe_action(self, action: Message) -> str:
        """One line naming an action out of context (logs, undo and timeout notices)."""
        return self.text.describe_action(action)

    def describe_event(self, event: Message) -> str:
        """One line telling an event, past tense, seats as "{seat:N}" (parlour.engine.text);
        sent with the event to the seats that may see it."""
        return self.text.describe_event(event)

    def label_actions(self, state: Message, seat: int, actions: Sequence[Message]) -> list[str]:
        """The labels of `seat`'s legal actions, as that seat sees the table: written from
        its View alone (so they reveal nothing), no two the same."""
        return self.text.label_actions(self.view(state, seat), seat, actions)

    def prompt(self, state: Message, seat: int, actions: Sequence[Message]) -> str:
        """What `seat`'s decision is for, one sentence from its View alone: the game's
        `prompts.prompt(view, seat, actions)`, else (where that says nothing) the
        description of the decision kind the seat owes."""
        found = self.prompts.prompt(self.view(state, seat), seat, actions)
        if found:
            return found
        kinds = [d.kind for d in self.pending(state) if d.seat == seat]
        return self.decision_kinds.get(kinds[0], "") if kinds else ""

    def describe_view(self, view: Message, seat: int | None) -> TableText:
        """A View in the rulebook's words (sections of lines), for people."""
        return self.text.describe_view(view, seat)


def copy_message(message: Any) -> Any:
    """A deep copy of a protobuf message."""
    clone = type(message)()
    clone.CopyFrom(message)
    return clone
