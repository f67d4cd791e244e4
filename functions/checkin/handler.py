"""Check-in at the referee table (R4) and the staff's entry list with contacts (R12.1)."""

from __future__ import annotations

from typing import Annotated, TypeAlias

from tavla import clock, params
from tavla.contract import errors
from tavla.errors import (
    CheckinClosed,
    Conflict,
    ForgedPass,
    Invalid,
    NotOrganiser,
    NotRegistered,
    NotStaff,
    PlayerNotFound,
    TournamentNotFound,
)
from tavla.http import SIGNED_IN, caller, make_resolver, revalidated
from tavla.models.registrations import CheckinRequest, CheckinResult, CheckinState, EntriesWithContacts
from tavla.observability import entry
from tavla.services import checkin

app = make_resolver()

TournamentId: TypeAlias = "Annotated[str, params.Path(max_length=64)]"


@app.post(
    "/tournaments/<tournament_id>/checkins",
    security=SIGNED_IN,
    tags=["check-in"],
    responses=errors(
        ForgedPass,
        TournamentNotFound,
        NotStaff,
        PlayerNotFound,
        NotRegistered,
        CheckinClosed,
        Conflict,
        Invalid,
    ),
)
def check_in(tournament_id: TournamentId, body: CheckinRequest) -> CheckinResult:
    """Check a player in.

    By pass, Tavla ID or phone, at the referee table (R4; its staff only). Scanning twice
    is fine; a waiting-list player may check in too.
    """
    return checkin.check_in(caller(app), tournament_id, body, clock.now())


@app.post(
    "/tournaments/<tournament_id>/checkins/close",
    security=SIGNED_IN,
    tags=["check-in"],
    responses=errors(TournamentNotFound, NotOrganiser),
)
def close_checkin(tournament_id: TournamentId) -> CheckinState:
    """Close check-in.

    Players not checked in are not in the draw (R4.2; its organisers only).
    """
    return checkin.close(caller(app), tournament_id, clock.now())


@app.get(
    "/tournaments/<tournament_id>/entries/contacts",
    security=SIGNED_IN,
    tags=["check-in"],
    responses=errors(TournamentNotFound, NotStaff),
    middlewares=revalidated(),
)
def entries_with_contacts(tournament_id: TournamentId) -> EntriesWithContacts:
    """A tournament's entry lists with contacts.

    The same lists with phone and e-mail, for its referees and organisers (R12.1).
    """
    return checkin.entries_with_contacts(caller(app), tournament_id)


handler = entry(app)
