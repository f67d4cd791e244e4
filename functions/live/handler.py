"""Bus events -> change hints on the venue's live channel (EventBridge target); a one-off
schedule -> a tournament's held hint posted (EventBridge Scheduler target)."""

from __future__ import annotations

from typing import Any

from tavla import clock
from tavla.observability import event_entry, logger
from tavla.services import live


def deliver(event: dict[str, Any]) -> dict[str, Any]:
    posted = live.deliver(event, clock.now())
    logger.info("event handled", extra={"detail_type": event.get("detail-type"), "hints": posted})
    return {"hints": posted}


handler = event_entry(deliver)
