"""Check-in at the referee table (R4) and the staff's entry list with contacts (R12.1)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Path

from tavla import clock
from tavla.http import SIGNED_IN, caller, make_resolver
from tavla.models.registrations import CheckinRequest, CheckinResult, EntriesWithContacts
from tavla.observability import entry
from tavla.services import checkin

app = make_resolver()

TournamentId = Annotated[str, Path(max_length=64)]


@app.post("/tournaments/<tournament_id>/checkins", security=SIGNED_IN, tags=["check-in"])
def check_in(tournament_id: TournamentId, body: CheckinRequest) -> CheckinResult:
    """Check a player in by pass, Tavla ID or phone (its staff); scanning twice is fine (R4)."""
    return checkin.check_in(caller(app), tournament_id, body, clock.now())


@app.post("/tournaments/<tournament_id>/checkins/close", security=SIGNED_IN, tags=["check-in"])
def close_checkin(tournament_id: TournamentId) -> dict[str, bool]:
    """Close check-in (its organisers); players not checked in are not in the draw (R4.2)."""
    return checkin.close(caller(app), tournament_id, clock.now())


@app.get("/tournaments/<tournament_id>/entries/contacts", security=SIGNED_IN, tags=["check-in"])
def entries_with_contacts(tournament_id: TournamentId) -> EntriesWithContacts:
    """The entry lists with phone and e-mail (its staff only)."""
    return checkin.entries_with_contacts(caller(app), tournament_id)


handler = entry(app)
