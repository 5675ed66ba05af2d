"""Recompute a match from (options, seats, seed, actions) and compare it with a logged one."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from google.protobuf import any_pb2
from google.protobuf.message import Message

from parlour.engine import abandon, away, runtime, timeouts, undo, versions
from parlour.engine.game import Emitted, Game, Outcome, copy_message
from parlour.engine.text import seat as seat_ref
from parlour.engine.v1.platform_pb2 import (
    Abandoned,
    Away,
    RulesUpdated,
    TimedOut,
    UndoAnswered,
    UndoExpired,
    Undone,
    UndoRequested,
)

#: LoggedAction.undo_answer for an accept (parlour.rules.v1.UndoAnswer).
UNDO_ANSWER_ACCEPT = 1


@dataclass(frozen=True, slots=True)
class LogEvent:
    """One event as a log records it: enough to compare a replay with what was streamed."""

    sequence: int
    version: int
    actor: int
    event: bytes
    text: str
    audience: str


@dataclass(frozen=True, slots=True)
class Replayed:
    """A recomputed match: every event (with its audience) and the outcome."""

    events: list[LogEvent]
    outcome: Outcome | None
    states: list[Message]


@dataclass(slots=True)
class Asked:
    """An open undo request while replaying: who asked, for which version, who answers."""

    seat: int
    version: int
    awaiting: frozenset[int]
    accepted: set[int] = field(default_factory=set)


class ReplayDiverged(Exception):
    """A logged action the rules refuse, or an event the rules did not produce."""


def audience(emitted: Emitted) -> str:
    """Who may see an event, in the store's encoding: '*', '*!1,2' or '0,3'."""
    if emitted.to is None:
        hidden = ",".join(map(str, sorted(emitted.hidden_from)))
        return "*!" + hidden if hidden else "*"
    return ",".join(map(str, sorted(emitted.to)))


def may_see(audience_code: str, seat: int | None) -> bool:
    """Whether a seat (None: spectator) is in an audience."""
    if audience_code == "*":
        return True
    if audience_code.startswith("*!"):
        return seat is None or str(seat) not in audience_code[2:].split(",")
    return seat is not None and str(seat) in audience_code.split(",")


def describe(game: Game, event: Message) -> str:
    """The feed line of a game event or of the platform's TimedOut."""
    if isinstance(event, TimedOut):
        return timeouts.describe(event)
    if isinstance(event, Abandoned):
        return abandon.describe(event)
    if isinstance(event, Undone):
        return f"{seat_ref(event.seat)} took back: {event.took_back}"
    if isinstance(event, UndoRequested):
        return undo.describe_requested(event)
    if isinstance(event, UndoAnswered):
        return undo.describe_answered(event)
    if isinstance(event, UndoExpired):
        return undo.describe_expired(event)
    if isinstance(event, RulesUpdated):
        return versions.describe(event)
    if isinstance(event, Away):
        return away.describe(event)
    return game.describe_event(event)


def packed(message: Message) -> bytes:
    """A message as deterministic Any bytes, the form events are stored in."""
    wrapper = any_pb2.Any()
    wrapper.Pack(message, deterministic=True)
    return wrapper.SerializeToString(deterministic=True)


def replay(
    game: Game, options: Message, seats: int, seed: int, entries: Iterable, created: int = 0
) -> Replayed:
    """Set the match up from its seed and apply every logged entry through the runtime,
    each stretch under the rules version it was played with: `created` (0: the game's
    `rules_version`) until an entry's `migrated_to` moves it on, by the game's `migrate`
    with a RulesUpdated event. Raises UnservedVersion for a version this build of `game`
    cannot play (the log may be faithful: it needs that version).

    An entry has the fields of a LoggedAction: `seat`, `action` (a packed Action),
    `timed_out` (the decision kind when the platform played it: a TimedOut event comes
    first), `undoes` (for an undo: the version taken back, whose earlier state returns
    with an Undone event), `undo_requested` and `undo_answer` (the steps of an undo the
    other seats agree to; a seat's move while a request is open makes it lapse), `away`
    (a seat's pause: the state stays, an Away event).
    `Replayed.states[i]` is the state at version i + 1.
    """
    entries = list(entries)
    missing = versions.needed(game, created or game.rules_version, entries)
    if missing:
        raise versions.UnservedVersion(game.name, missing[0])
    played_under = created or game.rules_version
    rules = game.at_version(played_under)
    states = [rules.new_state(options, seats, seed)]
    played: list[Message | None] = [None]
    events: list[LogEvent] = []
    ended_by: int | None = None
    asked: Asked | None = None
    platform: set[int] = set()
    for version, entry in enumerate(entries, start=2):
        if ended_by is not None:
            raise ReplayDiverged(f"version {version} follows the end of the match")
        if entry.abandoned and not entry.timed_out:
            ended_by = entry.seat
        try:
            if entry.migrated_to:
                rules = game.at_version(entry.migrated_to)
                state, action = copy_message(states[-1]), None
                rules.migrate(state, played_under)
                asked = None  # a migration closes an open undo request (clocks.carry)
                emitted = [Emitted(RulesUpdated(from_version=played_under,
                                                to_version=entry.migrated_to))]
                played_under = entry.migrated_to
            elif away.is_pause(entry):
                state, action, emitted = states[-1], None, [away.event(entry)]
            elif undo.is_step(entry):
                state, action, emitted, asked = agreement_step(
                    rules, states, played, entry, asked, platform
                )
            else:
                lapsed = (
                    []
                    if asked is None
                    else [Emitted(UndoExpired(seat=asked.seat, version=asked.version))]
                )
                asked = None
                state, action, emitted = step(rules, states, played, entry)
                emitted = [*lapsed, *emitted]
        except Exception as error:  # noqa: BLE001 - a tampered action may break any rule
            message = f"the action making version {version} is refused: {error}"
            raise ReplayDiverged(message) from None
        if entry.abandoned and entry.timed_out:
            platform.add(entry.seat)
        states.append(state)
        played.append(action)
        for item in emitted:
            events.append(
                LogEvent(
                    sequence=len(events) + 1,
                    version=version,
                    actor=entry.seat,
                    event=packed(item.event),
                    text=describe(rules, item.event),
                    audience=audience(item),
                )
            )
    outcome = (
        rules.outcome(states[-1])
        if ended_by is None
        else abandon.ended_outcome(rules, states[-1], ended_by)
    )
    return Replayed(events, outcome, states)


def step(game: Game, states: list, played: list, entry) -> tuple[Message, Message | None, list]:
    """One logged entry applied to the latest state: (state, action or None, emitted)."""
    if entry.undoes:
        state, notice = taking_back(game, states, played, entry.seat, entry.undoes)
        return state, None, [notice]
    if entry.abandoned and not entry.timed_out:
        return states[-1], None, [Emitted(Abandoned(seat=entry.seat, ended=True))]
    action = game.action_type()
    if not entry.action.Unpack(action):
        raise ValueError("not the game's Action")
    state, emitted = runtime.apply(game, states[-1], entry.seat, action)
    if entry.timed_out:
        notice = timeouts.timed_out_event(game, entry.seat, entry.timed_out, action)
        handed = [Emitted(Abandoned(seat=entry.seat))] if entry.abandoned else []
        emitted = [Emitted(notice), *handed, *emitted]
    return state, action, emitted


def taken_back(played: list, version: int) -> Message:
    """The action that made `version`, or ValueError if it cannot be taken back."""
    if not 2 <= version < len(played) + 1 or played[version - 1] is None:
        raise ValueError(f"version {version} cannot be taken back")
    return played[version - 1]


def taking_back(game: Game, states: list, played: list, seat: int, version: int):
    """`seat` takes back the action that made `version`: (the state before it, Undone)."""
    action = taken_back(played, version)
    notice = Undone(seat=seat, version=version, took_back=game.describe_action(action))
    return states[version - 2], Emitted(notice)


def agreement_step(game: Game, states: list, played: list, entry, asked, platform):
    """An undo request or an answer to one: (state, None, emitted, the request still open)."""
    if entry.undo_requested:
        if asked is not None:
            raise ValueError("an undo request is already open")
        label = game.describe_action(taken_back(played, entry.undo_requested))
        seats = game.seat_count(states[-1])
        awaiting = [s for s in range(seats) if s != entry.seat and s not in platform]
        notice = UndoRequested(
            seat=entry.seat, version=entry.undo_requested, took_back=label, awaiting=awaiting
        )
        opened = Asked(entry.seat, entry.undo_requested, frozenset(awaiting))
        return states[-1], None, [Emitted(notice)], opened
    if asked is None or entry.seat not in asked.awaiting - asked.accepted:
        raise ValueError(f"seat {entry.seat} answers no open undo request")
    accepted = entry.undo_answer == UNDO_ANSWER_ACCEPT
    answer = Emitted(UndoAnswered(seat=entry.seat, requester=asked.seat, accepted=accepted))
    if not accepted:
        if entry.undoes:
            raise ValueError("a refusal takes nothing back")
        return states[-1], None, [answer], None
    asked.accepted.add(entry.seat)
    complete = asked.accepted == asked.awaiting
    if complete != bool(entry.undoes) or (complete and entry.undoes != asked.version):
        raise ValueError("the undo does not follow the agreement")
    if not complete:
        return states[-1], None, [answer], asked
    state, notice = taking_back(game, states, played, asked.seat, asked.version)
    return state, None, [answer, notice], None


def check_events(
    recomputed: Sequence[LogEvent], logged: Sequence[LogEvent], seat: int | None, reveal_all: bool
) -> None:
    """Raise ReplayDiverged unless `logged` is exactly what the viewer saw of `recomputed`.

    A "reveal all" log holds every event with its audience; a viewer's log holds the events
    the viewer could see, without audiences.
    """
    expected = [
        e if reveal_all else LogEvent(e.sequence, e.version, e.actor, e.event, e.text, "")
        for e in recomputed
        if reveal_all or may_see(e.audience, seat)
    ]
    for want, got in zip(expected, logged, strict=False):
        if want != got:
            raise ReplayDiverged(f"event {got.sequence} differs from the recomputed event")
    if len(expected) != len(logged):
        raise ReplayDiverged(
            f"the log holds {len(logged)} events, the replay produces {len(expected)}"
        )
