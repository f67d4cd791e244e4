"""Tournament pages: create (organisers), list and read (public), settings and staff (its organisers)."""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler.openapi.params import Path, Query
from aws_lambda_powertools.utilities.typing import LambdaContext

from tavla import clock
from tavla.http import SIGNED_IN, caller, make_resolver
from tavla.idempotency import IdempotencyKey, once
from tavla.models.audit import AuditTrail
from tavla.models.tournaments import (
    Placement,
    PlacementRequest,
    StaffUpdate,
    Tournament,
    TournamentCreate,
    TournamentUpdate,
)
from tavla.services import tournaments

logger = Logger()
app = make_resolver()

TournamentId = Annotated[str, Path(max_length=64)]


@app.post("/tournaments", security=SIGNED_IN, tags=["tournaments"], status_code=201)
def create_tournament(
    body: TournamentCreate, idempotency_key: IdempotencyKey = None
) -> tuple[Tournament, int]:
    """Create a tournament page (organisers); the caller becomes its organiser (R2.1).

    With an `Idempotency-Key` header a retry returns the tournament the first call created.
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
    after: Annotated[str | None, Query(max_length=256)] = None,
    upcoming: bool = True,
) -> dict[str, Any]:
    """The calendar by start time (upcoming only unless `upcoming=false`); pass `next` back
    as `after`, with the same `upcoming`, for the following page (an opaque cursor: a stale
    or foreign one is 422 `invalid_cursor`)."""
    return tournaments.calendar(limit, after, upcoming, clock.now())


@app.get("/tournaments/<tournament_id>", tags=["tournaments"])
def get_tournament(tournament_id: TournamentId) -> Tournament:
    return tournaments.get(tournament_id)


@app.patch("/tournaments/<tournament_id>", security=SIGNED_IN, tags=["tournaments"])
def patch_tournament(tournament_id: TournamentId, body: TournamentUpdate) -> Tournament:
    """Change settings (its organisers); the page's rules override the profile's (R2.2)."""
    return tournaments.update(caller(app), tournament_id, body, clock.now())


@app.put("/tournaments/<tournament_id>/staff", security=SIGNED_IN, tags=["tournaments"])
def put_staff(tournament_id: TournamentId, body: StaffUpdate) -> dict[str, Any]:
    """Set this tournament's referees and organisers (R1.3)."""
    return tournaments.put_staff(caller(app), tournament_id, body, clock.now())


@app.put("/tournaments/<tournament_id>/placements/<tavla_id>", security=SIGNED_IN, tags=["tournaments"])
def put_placement(
    tournament_id: TournamentId,
    tavla_id: Annotated[str, Path(pattern=r"^[A-Za-z0-9]{7}$", description="the player's Tavla ID")],
    body: PlacementRequest,
) -> Placement:
    """Place a player in a division (its organisers; R3.7): barred from the divisions below it,
    invited to it when it is above their usual one. Divisions are listed highest first."""
    return tournaments.place(caller(app), tournament_id, tavla_id.upper(), body, clock.now())


@app.get("/tournaments/<tournament_id>/audit", security=SIGNED_IN, tags=["tournaments"])
def get_audit(tournament_id: TournamentId, limit: Annotated[int, Query(ge=1, le=500)] = 100) -> AuditTrail:
    """The audit trail (its staff): who did what, when, newest first; actors by Tavla ID and role."""
    return tournaments.audit_trail(caller(app), tournament_id, limit)


@logger.inject_lambda_context
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
