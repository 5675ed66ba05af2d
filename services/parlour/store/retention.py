"""How long Redis keeps a match: finished ones for a set time, abandoned ones (no activity
for a set time) likewise; every key of the match expires together.

PARLOUR_FINISHED_RETENTION_SECONDS  keep a finished match this long (default 86400; 0 = forever)
PARLOUR_ABANDONED_AFTER_SECONDS     expire an unfinished match idle this long
                                    (default 604800; 0 = never)
Activity is creating the match, a seat joined or left, or an action committed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

DAY = 86_400


@dataclass(frozen=True, slots=True)
class Retention:
    """Seconds to keep finished matches and idle unfinished ones (0: no expiry)."""

    finished_seconds: int = DAY
    abandoned_seconds: int = 7 * DAY

    def __post_init__(self) -> None:
        if self.finished_seconds < 0 or self.abandoned_seconds < 0:
            raise ValueError("retention seconds must be 0 (keep) or positive")

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Retention:
        """The retention configured in the environment, defaults otherwise."""
        env = os.environ if env is None else env
        return cls(
            finished_seconds=_seconds(env, "PARLOUR_FINISHED_RETENTION_SECONDS", DAY),
            abandoned_seconds=_seconds(env, "PARLOUR_ABANDONED_AFTER_SECONDS", 7 * DAY),
        )


def _seconds(env, name: str, default: int) -> int:
    text = env.get(name)
    if text is None or text == "":
        return default
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{name}={text!r} is not a whole number of seconds") from None
    if value < 0:
        raise ValueError(f"{name}={text!r}: use 0 (no expiry) or a positive number of seconds")
    return value
