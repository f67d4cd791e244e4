"""Check-in (R4): one condition on the tournament (open, check-in open), one on the entry."""

from __future__ import annotations

from datetime import datetime

from tavla.errors import CheckinClosed, NotRegistered
from tavla.store import audit, keys
from tavla.store.records import AuditRecord, ProfileRecord
from tavla.store.registrations import OPEN, REGISTERED, WAITLISTED
from tavla.store.schema import MAIN
from tavla.store.transactions import Cancelled, Transaction


def check_in(
    tournament_id: str,
    player: ProfileRecord,
    referee: str | None,
    now: datetime,
    change: AuditRecord,
) -> bool:
    """Mark the player present; `referee` is the Tavla ID of who checked them in, if they have one.

    The player's rating, club and name go on the entry as they are now: the draw seeds by
    them (R5.1, R5.2) and the board shows them, without reading every profile again.
    Returns False when they were already checked in.
    """
    tavla_id = player.tavla_id
    tx = Transaction()
    tx.check(
        "tournament",
        MAIN,
        keys.tournament(tournament_id),
        "#status = :open AND checkin_open = :yes",
        names={"#status": "status"},
        values={"open": OPEN, "yes": True},
    )
    setting = (
        "SET checked_in_at = :now, rating = :rating, player_name = :name"
        + (", club = :club" if player.club else "")
        + (", club_id = :club_id" if player.club_id else "")
        + (", checked_in_by = :referee" if referee else "")
    )
    tx.update(
        "registration",
        MAIN,
        keys.registration(tournament_id, tavla_id),
        setting,
        condition="#status IN (:registered, :waitlisted) AND attribute_not_exists(checked_in_at)",
        names={"#status": "status"},
        values={
            "now": now.isoformat(),
            "rating": player.rating,
            "name": player.name,
            **({"club": player.club} if player.club else {}),
            **({"club_id": player.club_id} if player.club_id else {}),
            "registered": REGISTERED,
            "waitlisted": WAITLISTED,
            **({"referee": referee} if referee else {}),
        },
        return_old=True,
    )
    audit.record(tx, tournament_id, change)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("tournament"):
            raise CheckinClosed("Check-in for this tournament is closed.") from cancelled
        if cancelled.failed("registration"):
            old = cancelled.old("registration")
            if old is None or old.get("status") not in (REGISTERED, WAITLISTED):
                raise NotRegistered(f"{tavla_id} is not on this tournament's lists.") from cancelled
            return False
        raise
    return True
