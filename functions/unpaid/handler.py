"""A payment deadline fired (EventBridge Scheduler): notify, or release unpaid places."""

from __future__ import annotations

from typing import Any

from tavla import clock
from tavla.observability import event_entry, logger
from tavla.services import unpaid


def enforce(payload: dict[str, Any]) -> dict[str, Any]:
    done = unpaid.enforce(payload, clock.now())
    logger.info("payment deadline", extra={"payload": payload, **done})
    return done


handler = event_entry(enforce)
