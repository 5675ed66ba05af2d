"""Rules versions (issue 42): the version a match plays under, the versions its log needs,
and the platform's notice when a match moves to a newer one."""

from __future__ import annotations

from collections.abc import Iterable

from parlour.engine.game import Game, UnservedVersion
from parlour.engine.v1.platform_pb2 import RulesUpdated

#: The version of a match stored before versions were recorded (every game started at 1).
FIRST = 1

__all__ = ["FIRST", "UnservedVersion", "describe", "needed", "stored", "versions_of"]


def stored(value: bytes | str | None) -> int:
    """A version as Redis holds it (absent: FIRST)."""
    return int(value) if value else FIRST


def describe(event: RulesUpdated) -> str:
    """The feed line of the platform's RulesUpdated event."""
    return f"The rules were updated to version {event.to_version} (from {event.from_version})."


def versions_of(created: int, entries: Iterable) -> list[int]:
    """Every version a log was played under, in order: the creation version, then each
    entry's `migrated_to`."""
    found = [created]
    found += [e.migrated_to for e in entries if e.migrated_to]
    return found


def needed(game: Game, created: int, entries: Iterable) -> list[int]:
    """The versions a log needs that this build of `game` cannot replay."""
    served = set(game.served_versions())
    return [v for v in dict.fromkeys(versions_of(created, entries)) if v not in served]
