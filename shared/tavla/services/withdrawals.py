"""One withdrawal (R3.2, R3.5, R8.2), whichever route asks for it.

`DELETE /tournaments/{id}/registrations/me` (the player) and `POST /tournaments/{id}/withdrawals`
(the player themself, or its staff) follow the same rules and give the same result, so a
player never hears "go to the referee table" from one and "withdrawn" from the other:

* before the draw, the entry leaves its list, refunded by the organiser's policy and the
  first waiting player promoted (services.registrations); it is the player's own matter:
  staff withdrawing someone else then is 409 `not_drawn`;
* after the draw, the player leaves the day: the match they are in is forfeited now, every
  later one when due, no refund (services.conduct).
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
from tavla.models.appeals import OutBody
from tavla.models.common import Money
from tavla.models.registrations import WithdrawalResult
from tavla.services import conduct, registrations
from tavla.services.access import role_in
from tavla.store import players as player_store
from tavla.store import snapshots

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

BEFORE_THE_DRAW = "Nothing is drawn yet: before the draw only the player withdraws their own entry."


def withdraw(
    caller: Caller, tournament_id: str, tavla_id: str | None, reason: str | None, now: datetime
) -> WithdrawalResult:
    """Withdraw `tavla_id` (None: the caller) by the one set of rules above."""
    tournament = snapshots.snapshot(tournament_id).tournament
    if tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    me = player_store.tavla_id_or_none(caller.sub)
    who = tavla_id or me
    if who is None:
        player_store.tavla_id_of(caller.sub)  # raises ProfileMissing with the API's message
        raise AssertionError("unreachable")
    if tournament.is_open:
        if who != me:
            if role_in(tournament, caller) or caller.is_admin:
                raise NotDrawn(BEFORE_THE_DRAW)
            raise NotStaff("Only this tournament's staff, or the player themself, may withdraw a player.")
        return registrations.withdraw(caller, tournament_id, now)
    out = conduct.withdraw(caller, tournament_id, OutBody(tavla_id=who, reason=reason), now)
    return WithdrawalResult(
        tournament_id=tournament_id,
        tavla_id=who,
        stage="after_draw",
        at=out.at,
        refund_due=Money(amount=0),
        refund="none",
        forfeited=out.forfeited,
    )
