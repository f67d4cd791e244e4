"""The daily retention purge (R12): EventBridge's scheduled tick, nothing else."""

from __future__ import annotations

from typing import Any

from tavla import clock
from tavla.observability import event_entry, logger
from tavla.services import retention


def process(event: dict[str, Any]) -> dict[str, Any]:
    if event.get("detail-type") != "Scheduled Event":
        return {"outcome": "ignored"}
    purged = retention.purge(clock.now())
    logger.info("retention purge", extra=purged.summary())
    return purged.summary()


handler = event_entry(process)
