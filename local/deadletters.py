"""The local stand-in for the dead-letter queue: what failed after its retries, kept in view.

In the cloud a schedule or bus event whose target keeps failing lands in the SQS dead-letter
queue, whose alarm calls an operator. Locally it is parked here, logged loudly, and listed
by `GET /dev/dead-letters`, so a test or a developer sees it instead of losing it.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from tavla import clock

log = logging.getLogger("local.deadletters")


class DeadLetters:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._parked: list[dict[str, Any]] = []

    def park(self, *, source: str, name: str, function: str, attempts: int, event: Any, error: str) -> None:
        """Keep what failed; `source` is `schedule` or `bus`, `name` the schedule or event id."""
        last_line = next((line for line in reversed(error.strip().splitlines()) if line.strip()), "")
        entry = {
            "source": source,
            "name": name,
            "function": function,
            "attempts": attempts,
            "parked_at": clock.now().isoformat(),
            "error": last_line,
            "event": event,
        }
        with self._lock:
            self._parked.append(entry)
        log.error(
            "DEAD LETTER: %s %s for %s parked after %d attempts (%s); listed at GET /dev/dead-letters",
            source,
            name,
            function,
            attempts,
            last_line,
        )

    def list(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._parked)
