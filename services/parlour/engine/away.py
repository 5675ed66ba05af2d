"""The "away until ..." pause of a correspondence match (issue 44) as a match log holds it:
a platform entry that leaves the state as it was and streams an Away event to everyone."""

from __future__ import annotations

from datetime import UTC, datetime

from parlour.engine.game import Emitted
from parlour.engine.text import subject
from parlour.engine.v1.platform_pb2 import Away


def is_pause(entry) -> bool:
    """Whether a logged entry is a seat saying it is away (or back), not a move."""
    return entry.HasField("away")


def date_words(unix_ms: int) -> str:
    """A date as the feed says it: "Tue 8 Dec 18:00 UTC"."""
    moment = datetime.fromtimestamp(unix_ms / 1000, UTC)
    return f"{moment:%a} {moment.day} {moment:%b %H:%M} UTC"


def event(entry) -> Emitted:
    """The Away event of a logged pause entry, for everyone."""
    return Emitted(Away(seat=entry.seat, until_unix_ms=entry.away.until_unix_ms))


def describe(notice: Away) -> str:
    """The feed line: "Ada is away until Tue 8 Dec 18:00 UTC", or "Ada is back"."""
    who = subject(notice.seat, "is", "are")
    if not notice.until_unix_ms:
        return f"{who} back"
    return f"{who} away until {date_words(notice.until_unix_ms)}"
