"""A background thread that runs one step every interval until stopped (bus, scheduler)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable


class Periodic:
    def __init__(self, name: str, interval: float, step: Callable[[], object], log: logging.Logger) -> None:
        self._interval = interval
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
        while not self._stopping.wait(self._interval):
            try:
                self._step()
            except Exception:
                self._log.exception("%s failed", self._thread.name)
