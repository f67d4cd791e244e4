"""Ratings: ResultConfirmed, PlayersMerged and TournamentUnrated from the bus, and the nightly
rebuild (cron)."""

from __future__ import annotations

from typing import Any

from tavla import clock, events
from tavla.observability import event_entry, logger
from tavla.services import ratings, rebuild


def process(event: dict[str, Any]) -> dict[str, Any]:
    kind = event.get("detail-type", "")
    detail = event.get("detail") or {}
    now = clock.now()
    if kind == events.RESULT_CONFIRMED:
        done = ratings.apply_result(detail, now)
    elif kind == events.PLAYERS_MERGED:
        done = ratings.merge(str(detail["keep"]), str(detail["merged"]), now)
    elif kind == events.TOURNAMENT_UNRATED:
        done = ratings.unrate(str(detail["tournament_id"]), now)
    elif kind == "Scheduled Event":
        report = rebuild.nightly(now)
        logger.info("nightly rebuild", extra=report.summary())
        return report.summary()
    else:
        return {"outcome": "ignored"}
    logger.info("ratings", extra={"detail_type": kind, "outcome": done.outcome, "replayed": done.replayed})
    return {"outcome": done.outcome, "replayed": done.replayed, "players": done.players}


handler = event_entry(process)
