"""Tournament pages: create (organisers), list and read (public), settings and staff (its organisers)."""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler.openapi.params import Path, Query

from tavla import clock
from tavla.contract import errors
from tavla.errors import (
    Busy,
    Conflict,
    Forbidden,
    IdempotencyKeyReused,
    Invalid,
    NotOrganiser,
    NotStaff,
    PlayerNotFound,
    RequestInProgress,
    TournamentNotFound,
)
from tavla.http import SIGNED_IN, caller, make_resolver
from tavla.idempotency import IdempotencyKey, once
from tavla.models.tournaments import (
    Calendar,
    Staff,
    StaffUpdate,
    Tournament,
    TournamentCreate,
    TournamentUpdate,
)
from tavla.observability import entry
from tavla.services import tournaments

app = make_resolver()

TournamentId = Annotated[str, Path(max_length=64)]


@app.post(
    "/tournaments",
    security=SIGNED_IN,
    tags=["tournaments"],
    status_code=201,
    responses=errors(Forbidden, Invalid, RequestInProgress, IdempotencyKeyReused),
)
def create_tournament(
    body: TournamentCreate, idempotency_key: IdempotencyKey = None
) -> tuple[Tournament, int]:
    """Create a tournament page.

    Organisers only; the caller becomes its organiser (R2.1). With an `Idempotency-Key`
    header a retry returns the tournament the first call created.
    """
    who = caller(app)
    created = once(
        "create_tournament",
        who.sub,
        idempotency_key,
        body.model_dump(mode="json"),
        lambda: tournaments.create(who, body, clock.now()),
        Tournament,
        app.lambda_context,
    )
    return created, 201


@app.get("/tournaments", tags=["tournaments"])
def list_tournaments(
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
    after: Annotated[
        str | None, Query(max_length=128, pattern=r"^\d{4}-\d\d-\d\dT[^#]+#[0-9a-f]{16}$")
    ] = None,
    upcoming: bool = True,
) -> Calendar:
    """The tournament calendar.

    By start time, upcoming only unless `upcoming=false`; pass `next` back as `after` for
    the following page.
    """
    return tournaments.calendar(limit, after, upcoming, clock.now())


@app.get("/tournaments/<tournament_id>", tags=["tournaments"], responses=errors(TournamentNotFound))
def get_tournament(tournament_id: TournamentId) -> Tournament:
    """A tournament page.

    Its settings, the rules the day is played by, and how full it is (R2.1, R2.2).
    """
    return tournaments.get(tournament_id)


@app.patch(
    "/tournaments/<tournament_id>",
    security=SIGNED_IN,
    tags=["tournaments"],
    responses=errors(TournamentNotFound, NotOrganiser, Conflict, Invalid, Busy),
)
def patch_tournament(tournament_id: TournamentId, body: TournamentUpdate) -> Tournament:
    """Change a tournament's settings.

    Its organisers only, until the draw; the page's rules override the profile's (R2.2).
    Raising the capacity promotes waiting players.
    """
    return tournaments.update(caller(app), tournament_id, body, clock.now())


@app.put(
    "/tournaments/<tournament_id>/staff",
    security=SIGNED_IN,
    tags=["tournaments"],
    responses=errors(TournamentNotFound, NotOrganiser, PlayerNotFound, Conflict),
)
def put_staff(tournament_id: TournamentId, body: StaffUpdate) -> Staff:
    """Set a tournament's staff.

    Its referees and organisers, by Tavla ID (R1.3; its organisers only). The caller stays
    an organiser.
    """
    return tournaments.put_staff(caller(app), tournament_id, body, clock.now())


@app.get(
    "/tournaments/<tournament_id>/audit",
    security=SIGNED_IN,
    tags=["tournaments"],
    responses=errors(TournamentNotFound, NotStaff),
)
def get_audit(
    tournament_id: TournamentId, limit: Annotated[int, Query(ge=1, le=500)] = 100
) -> dict[str, Any]:
    """A tournament's audit trail.

    Who did what, when, newest first (its staff only).
    """
    return tournaments.audit_trail(caller(app), tournament_id, limit)


handler = entry(app)
