"""A large bank statement's import in the background (R3.3): StatementUploaded from the bus,
the statement read from the statement store, its lines matched with their progress written."""

from __future__ import annotations

from typing import Any

from tavla import clock, events
from tavla.observability import event_entry, logger
from tavla.services import statements


def process(event: dict[str, Any]) -> dict[str, Any]:
    if event.get("detail-type") != events.STATEMENT_UPLOADED:
        return {"outcome": "ignored"}
    detail = event.get("detail") or {}
    done = statements.run_import(str(detail["tournament_id"]), str(detail["statement_id"]), clock.now())
    logger.info("statement import", extra={**detail, **done})
    return done


handler = event_entry(process)
