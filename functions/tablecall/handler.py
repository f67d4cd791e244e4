"""MatchesCalled -> the no-show deadline schedules of the matches called (R6.3)."""

from __future__ import annotations

from typing import Any

from tavla import clock
from tavla.observability import event_entry, logger
from tavla.services import noshow


def schedule(event: dict[str, Any]) -> dict[str, Any]:
    detail = event.get("detail") or {}
    names = noshow.schedule_calls(
        str(detail["tournament_id"]),
        [str(c) for c in detail.get("codes") or ()],
        clock.now(),
    )
    logger.info("deadlines scheduled", extra={"schedules": names})
    return {"schedules": names}


handler = event_entry(schedule)
