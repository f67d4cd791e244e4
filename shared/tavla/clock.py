"""The platform's one source of time, so a 10-minute deadline can be tested in milliseconds.

In Lambda this is the system clock. The local stack and the tests may shift it forward;
nothing else calls datetime.now().
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

Clock = Callable[[], datetime]

_offset = timedelta(0)


def now() -> datetime:
    """The current time, timezone-aware (UTC), plus whatever offset a test has applied."""
    return datetime.now(UTC) + _offset


def advance(delta: timedelta) -> datetime:
    """Move this process's clock forward (local stack and tests only)."""
    global _offset
    _offset += delta
    return now()


def reset() -> None:
    global _offset
    _offset = timedelta(0)
