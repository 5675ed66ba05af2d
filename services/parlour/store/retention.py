"""How long Redis keeps a match: finished ones for a set time, abandoned ones (no activity
for a set time) likewise; every key of the match expires together.

PARLOUR_FINISHED_RETENTION_SECONDS  keep a finished match this long (default 86400; 0 = forever)
PARLOUR_ABANDONED_AFTER_SECONDS     expire an unfinished match idle this long
                                    (default 604800; 0 = never)
PARLOUR_REQUEST_RETRY_SECONDS       the retry window: a match's request records live this
                                    long past its last action, finished or not (default 600;
                                    0 = as long as the match; issue 31 item 4)
(read through parlour.settings.RetentionSettings).
Activity is creating the match, a seat joined or left, or an action committed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from parlour.settings import RetentionSettings, load

DAY = 86_400


@dataclass(frozen=True, slots=True)
class Retention:
    """Seconds to keep finished matches and idle unfinished ones (0: no expiry), and the
    request records past a match's last action (the retry window)."""

    finished_seconds: int = DAY
    abandoned_seconds: int = 7 * DAY
    request_seconds: int = 600

    def __post_init__(self) -> None:
        if min(self.finished_seconds, self.abandoned_seconds, self.request_seconds) < 0:
            raise ValueError("retention seconds must be 0 (keep) or positive")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Retention:
        """The retention the environment (or `environ`) configures, defaults otherwise."""
        settings = load(RetentionSettings, environ)
        return cls(
            settings.finished_retention_seconds,
            settings.abandoned_after_seconds,
            settings.request_retry_seconds,
        )
