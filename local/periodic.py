"""A background thread that runs one step every interval until stopped (bus, scheduler)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable


class Periodic:
    """`idle_interval`: while a step finds nothing to do (returns a falsy value) the wait doubles up
    to it, and drops back to `interval` as soon as one does something: an idle stack stays quiet."""

    def __init__(
        self,
        name: str,
        interval: float,
        step: Callable[[], object],
        log: logging.Logger,
        idle_interval: float | None = None,
    ) -> None:
        self._interval = interval
        self._idle_interval = max(interval, idle_interval or interval)
        self._step = step
        self._log = log
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=5)

    def _loop(self) -> None:
        wait = self._interval
        while not self._stopping.wait(wait):
            try:
                busy = self._step()
            except Exception:
                self._log.exception("%s failed", self._thread.name)
                busy = False
            wait = self._interval if busy else min(wait * 2, self._idle_interval)
