"""Bus events -> change hints and the tournament's board deltas on the live channel
(EventBridge target)."""

from __future__ import annotations

from typing import Any

from tavla.observability import event_entry, logger
from tavla.services import live


def deliver(event: dict[str, Any]) -> dict[str, Any]:
    posted = live.deliver(event)
    logger.info("event handled", extra={"detail_type": event.get("detail-type"), "posted": posted})
    return {"posted": posted}


handler = event_entry(deliver)
