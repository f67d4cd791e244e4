"""A no-show deadline fired (EventBridge Scheduler): penalise or forfeit who is still absent."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from tavla import clock
from tavla.observability import event_entry, logger
from tavla.services import noshow


def enforce(payload: dict[str, Any]) -> dict[str, Any]:
    done = asdict(noshow.enforce(payload, clock.now()))
    logger.info("no-show deadline", extra={"payload": payload, **done})
    return done


handler = event_entry(enforce)
