"""One withdrawal (R3.2, R3.5, R8.2), whichever route asks for it.

`DELETE /tournaments/{id}/registrations/me` (the player) and `POST /tournaments/{id}/withdrawals`
(the player themself, or its staff on the player's behalf) follow the same rules and give the
same result, so a player never hears "go to the referee table" from one and "withdrawn" from
the other:

* before the draw, the entry leaves its list, refunded by the organiser's policy and the
  first waiting player promoted (services.registrations); staff may do it for a player who
  asks them (a phone call, the club's desk), recorded as theirs in the audit trail;
* after the draw, a drawn player leaves the day: the match they are in is forfeited now,
  every later one when due, no refund (services.conduct); a player still on the waiting
  list (never drawn) leaves the list, with all they paid refunded: they never had a place.
"""

from __future__ import annotations

from datetime import datetime

from tavla.caller import Caller
from tavla.errors import (
    AlreadyOut,
    Busy,
    NotDrawn,
    NotInField,
    NotRegistered,
    NotStaff,
    ProfileMissing,
    RegistrationClosed,
    TournamentNotFound,
    TournamentOver,
)
from tavla.models.common import Money
from tavla.models.registrations import WithdrawalResult
from tavla.services import registrations
from tavla.services.access import player_actor, role_in, staff_actor
from tavla.store import players as player_store
from tavla.store import snapshots
from tavla.store.records import Actor
from tavla.store.registrations import PENDING, WAITLISTED

ERRORS = (
    TournamentNotFound,
    ProfileMissing,
    NotStaff,
    NotRegistered,
    NotDrawn,
    NotInField,
    AlreadyOut,
    RegistrationClosed,
    TournamentOver,
    Busy,
)
"""What either route may answer: one list, so the two document the same errors."""


def withdraw(
    caller: Caller, tournament_id: str, tavla_id: str | None, reason: str | None, now: datetime
) -> WithdrawalResult:
    """Withdraw `tavla_id` (None: the caller) by the one set of rules above. One read: the
    tournament and the caller's identity (and the named player's entry) together."""
    snap = snapshots.snapshot(tournament_id, sub=caller.sub, tavla_id=tavla_id)
    tournament = snap.tournament
    if tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    me = snap.caller
    who = tavla_id or me
    if who is None:
        player_store.tavla_id_of(caller.sub)  # raises ProfileMissing with the API's message
        raise AssertionError("unreachable")
    actor: Actor
    if who == me:
        actor = player_actor(caller, who)
    elif role_in(tournament, caller) or caller.is_admin:
        actor = staff_actor(tournament, caller)
    else:
        raise NotStaff("Only this tournament's staff, or the player themself, may withdraw a player.")
    if tournament.is_open:
        return registrations.withdraw(actor, tournament, who, now)
    listed = snap.registration if tavla_id else None
    if listed is not None and listed.status in (WAITLISTED, PENDING):
        return registrations.leave_list(actor, tournament, who, listed.status, now)
    # The day's withdrawal (the day engine, its models) is loaded only when the day has begun:
    # the registrations function withdraws before the draw (cold start, docs/performance.md).
    from tavla.models.appeals import OutBody
    from tavla.services import conduct

    try:
        out = conduct.withdraw(caller, tournament_id, OutBody(tavla_id=who, reason=reason), now)
    except NotInField:
        entry = snapshots.snapshot(tournament_id, tavla_id=who).registration
        if entry is None or entry.status not in (WAITLISTED, PENDING):
            raise
        return registrations.leave_list(actor, tournament, who, entry.status, now)
    return WithdrawalResult(
        tournament_id=tournament_id,
        tavla_id=who,
        stage="after_draw",
        at=out.at,
        refund_due=Money(amount=0),
        refund="none",
        forfeited=out.forfeited,
    )
