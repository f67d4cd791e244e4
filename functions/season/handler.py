"""Season points: TournamentFinished and PlayersMerged from the bus (R10.4, R1.1)."""

from __future__ import annotations

from typing import Any

from tavla import events
from tavla.observability import event_entry, logger
from tavla.services import season


def process(event: dict[str, Any]) -> dict[str, Any]:
    kind = event.get("detail-type", "")
    detail = event.get("detail") or {}
    if kind == events.TOURNAMENT_FINISHED:
        done = season.count_tournament(detail)
        logger.info("season", extra={"outcome": done.outcome, "players": done.players})
        return {"outcome": done.outcome, "players": done.players}
    if kind == events.PLAYERS_MERGED:
        season.merge(str(detail["keep"]), str(detail["merged"]))
        return {"outcome": "merged"}
    return {"outcome": "ignored"}


handler = event_entry(process)
