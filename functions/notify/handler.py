"""Bus events -> the player's in-app feed and SMS (EventBridge target)."""

from __future__ import annotations

from typing import Any

from tavla.observability import event_entry, logger
from tavla.services import notify


def deliver(event: dict[str, Any]) -> dict[str, Any]:
    delivered = notify.deliver(event)
    logger.info("event handled", extra={"detail_type": event.get("detail-type"), "delivered": delivered})
    return {"delivered": delivered}


handler = event_entry(deliver)
