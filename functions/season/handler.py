"""Season points: TournamentFinished, PlayersMerged and SeasonChanged from the bus, and the
season's close by its one-time schedule; the Super Final's invitations: their deadlines
scheduled, a lapsed or declined seat passed down the list, the final's champion (R10.4, R1.1)."""

from __future__ import annotations

from typing import Any

from tavla import clock, events
from tavla.observability import event_entry, logger
from tavla.services import invitations, rebuild, season, super_final


def process(event: dict[str, Any]) -> dict[str, Any]:
    if "close_season" in event:  # the schedule at the season's end date
        outcome = season.close_season(str(event["close_season"]), clock.now())
        logger.info("season close", extra={"season_id": event["close_season"], "outcome": outcome})
        return {"outcome": outcome}
    if "invitation_deadline" in event:  # the schedule at an invitation's deadline
        outcome = invitations.expire(event["invitation_deadline"], clock.now())
        logger.info("invitation deadline", extra={**event["invitation_deadline"], "outcome": outcome})
        return {"outcome": outcome}
    kind = event.get("detail-type", "")
    detail = event.get("detail") or {}
    if kind == events.SEASON_CHANGED:
        season_id = str(detail["season_id"])
        recounted = rebuild.recount_season(season_id)
        return {"outcome": season.schedule_close(season_id, clock.now()), "recounted": recounted}
    if kind == events.SUPER_FINAL_INVITED:
        return {"outcome": invitations.schedule_deadlines(detail, clock.now())}
    if kind == events.SUPER_FINAL_SEAT_PASSED:  # the decline's request normally passed it already
        return {"outcome": "passed", "invited": invitations.fill_seats(str(detail["season_id"]), clock.now())}
    if kind == events.TOURNAMENT_FINISHED:
        if super_final.crown(detail):
            return {"outcome": "champion"}
        done = season.count_tournament(detail)
        logger.info("season", extra={"outcome": done.outcome, "players": done.players})
        return {"outcome": done.outcome, "players": done.players}
    if kind == events.PLAYERS_MERGED:
        season.merge(str(detail["keep"]), str(detail["merged"]))
        return {"outcome": "merged"}
    return {"outcome": "ignored"}


handler = event_entry(process)
