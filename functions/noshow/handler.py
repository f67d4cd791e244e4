"""A deadline of the day fired (EventBridge Scheduler): a no-show step (penalise or forfeit who is
still absent), an adjournment's deadline to resume, or a step of a break's overrun."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from tavla import clock
from tavla.observability import event_entry, logger
from tavla.services import adjournment, breaks, noshow


def enforce(payload: dict[str, Any]) -> dict[str, Any]:
    # the day's other deadlines ride on this function: an adjournment's, a break's overrun steps
    kind = payload.get("kind")
    if kind == adjournment.KIND:
        return adjournment.enforce(payload, clock.now())
    if kind == breaks.KIND:
        return breaks.enforce(payload, clock.now())
    done = asdict(noshow.enforce(payload, clock.now()))
    logger.info("no-show deadline", extra={"payload": payload, **done})
    return done


handler = event_entry(enforce)
