"""Recompute a match from (options, seats, seed, actions) and compare it with a logged one."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from google.protobuf import any_pb2
from google.protobuf.message import Message

from parlour.engine import runtime, timeouts
from parlour.engine.game import Emitted, Game, Outcome
from parlour.engine.v1.platform_pb2 import TimedOut


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
    return game.describe_event(event)


def packed(message: Message) -> bytes:
    """A message as deterministic Any bytes, the form events are stored in."""
    wrapper = any_pb2.Any()
    wrapper.Pack(message, deterministic=True)
    return wrapper.SerializeToString(deterministic=True)


def replay(
    game: Game,
    options: Message,
    seats: int,
    seed: int,
    actions: Iterable[tuple[int, Message, str]],
) -> Replayed:
    """Set the match up from its seed and apply every (seat, action, timed-out kind or '')
    through the runtime, with the platform's TimedOut event before a timed-out action's."""
    state = game.new_state(options, seats, seed)
    events: list[LogEvent] = []
    for version, (seat, action, timed_out) in enumerate(actions, start=2):
        try:
            state, emitted = runtime.apply(game, state, seat, action)
            if timed_out:
                notice = timeouts.timed_out_event(game, seat, timed_out, action)
                emitted = [Emitted(notice), *emitted]
        except Exception as error:  # noqa: BLE001 - a tampered action may break any rule
            message = f"the action making version {version} is refused: {error}"
            raise ReplayDiverged(message) from None
        for item in emitted:
            events.append(
                LogEvent(
                    sequence=len(events) + 1,
                    version=version,
                    actor=seat,
                    event=packed(item.event),
                    text=describe(game, item.event),
                    audience=audience(item),
                )
            )
    return Replayed(events, game.outcome(state))


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
