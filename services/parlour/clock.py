"""The platform's wall clock: the rules service's timers and ratings, and the notifier."""

from __future__ import annotations

import time

from parlour.settings import Settings

#: Tests only: a file holding milliseconds added to the wall clock, so a test drives a
#: 3-day correspondence clock in seconds (tests/test_correspondence_clocks.py).
CLOCK_FILE_ENV = "PARLOUR_TEST_CLOCK_FILE"


class TestClockSettings(Settings):
    """PARLOUR_TEST_CLOCK_FILE (tests only)."""

    test_clock_file: str = ""


_CLOCK_FILE = TestClockSettings().test_clock_file


def _offset_ms() -> int:
    """The test clock's offset (0 without the test setting, or while its file is empty)."""
    try:
        with open(_CLOCK_FILE) as file:
            return int(file.read().strip() or 0)
    except FileNotFoundError:
        return 0


def now_ms() -> int:
    """The wall clock in Unix milliseconds (timers and ratings live outside the pure rules)."""
    now = int(time.time() * 1000)
    return now + _offset_ms() if _CLOCK_FILE else now
