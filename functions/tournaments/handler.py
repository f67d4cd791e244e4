"""Tournament pages: create (organisers), list and read (public), settings and staff (its organisers)."""

from __future__ import annotations

from typing import Annotated, TypeAlias

from tavla import clock, params
from tavla.contract import errors
from tavla.errors import (
    Busy,
    Conflict,
    DivisionHasEntries,
    DrawInProgress,
    Forbidden,
    IdempotencyKeyReused,
    Invalid,
    InvalidCursor,
    NotOrganiser,
    NotPostponable,
    NotStaff,
    PlayerNotFound,
    RequestInProgress,
    SeasonNotFound,
    TournamentCancelled,
    TournamentNotFound,
    TournamentOver,
)
from tavla.http import SIGNED_IN, cached, caller, make_resolver, revalidated
from tavla.idempotency import IdempotencyKey, once
from tavla.models.audit import AuditTrail
from tavla.models.tournaments import (
    Calendar,
    CancelBody,
    Cancellation,
    Placement,
    PlacementRequest,
    Placements,
    PostponeBody,
    Staff,
    StaffUpdate,
    Tournament,
    TournamentCreate,
    TournamentUpdate,
)
from tavla.observability import entry
from tavla.services import tournaments

app = make_resolver()

TournamentId: TypeAlias = "Annotated[str, params.Path(max_length=64)]"


@app.post(
    "/tournaments",
    security=SIGNED_IN,
    tags=["tournaments"],
    status_code=201,
    responses=errors(Forbidden, Invalid, SeasonNotFound, RequestInProgress, IdempotencyKeyReused),
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


@app.get("/tournaments", tags=["tournaments"], responses=errors(InvalidCursor))
def list_tournaments(
    limit: Annotated[int, params.Query(ge=1, le=100)] = 50,
    after: Annotated[str | None, params.Query(max_length=256)] = None,
    upcoming: bool = True,
) -> Calendar:
    """The tournament calendar.

    By start time, upcoming only unless `upcoming=false`; pass `next` back as `after`, with
    the same `upcoming`, for the following page. The cursor is opaque: a stale or foreign
    one is 422 `invalid_cursor`.
    """
    return tournaments.calendar(limit, after, upcoming, clock.now())


@app.get(
    "/tournaments/<tournament_id>",
    tags=["tournaments"],
    middlewares=cached(max_age=5),
    responses=errors(TournamentNotFound),
)
def get_tournament(tournament_id: TournamentId) -> Tournament:
    """A tournament page.

    Its settings, the rules the day is played by, and how full it is (R2.1, R2.2).
    """
    return tournaments.get(tournament_id)


@app.patch(
    "/tournaments/<tournament_id>",
    security=SIGNED_IN,
    tags=["tournaments"],
    responses=errors(
        TournamentNotFound, NotOrganiser, Conflict, DivisionHasEntries, Invalid, SeasonNotFound, Busy
    ),
)
def patch_tournament(tournament_id: TournamentId, body: TournamentUpdate) -> Tournament:
    """Change a tournament's settings.

    Its organisers only, until the draw; the page's rules override the profile's (R2.2).
    Raising the capacity promotes waiting players.
    """
    return tournaments.update(caller(app), tournament_id, body, clock.now())


@app.post(
    "/tournaments/<tournament_id>/cancel",
    security=SIGNED_IN,
    tags=["tournaments"],
    # Forbidden: an organiser asking `unrate`, which only the federation's admins may
    responses=errors(TournamentNotFound, NotOrganiser, Forbidden, TournamentOver, DrawInProgress),
)
def cancel_tournament(tournament_id: TournamentId, body: CancelBody) -> Cancellation:
    """Cancel a tournament.

    Its organisers, or an admin; before or during the day. Registration and check-in close,
    every entrant's payments come back in full (card ones through the provider, bank and cash
    ones on the refund list) and every entrant is told; the page says cancelled and the season
    never counts it; matches already played stay rated. Cancelling again changes nothing
    (`changed: false`) and only checks the refunds.
    """
    from tavla.services import cancellation  # money and refunds: loaded by this rare route

    return cancellation.cancel(caller(app), tournament_id, body, clock.now())


@app.post(
    "/tournaments/<tournament_id>/postpone",
    security=SIGNED_IN,
    tags=["tournaments"],
    responses=errors(
        TournamentNotFound, NotOrganiser, TournamentCancelled, NotPostponable, Invalid, Conflict
    ),
)
def postpone_tournament(tournament_id: TournamentId, body: PostponeBody) -> Tournament:
    """Postpone a tournament.

    Its organisers, or an admin; before the draw. The start moves, and the registration close,
    early bird and payment deadline move by as much (the close may be given). Entrants keep
    their place, are told, and may withdraw with a full refund until the new close.
    """
    from tavla.services import cancellation  # money and refunds: loaded by this rare route

    return cancellation.postpone(caller(app), tournament_id, body, clock.now())


@app.get(
    "/tournaments/<tournament_id>/staff",
    security=SIGNED_IN,
    tags=["tournaments"],
    responses=errors(TournamentNotFound, NotStaff),
)
def get_staff(tournament_id: TournamentId) -> Staff:
    """A tournament's staff.

    Its referees and organisers as they are now, by Tavla ID (R1.3; its staff only), the
    list `PUT .../staff` replaces.
    """
    return tournaments.staff(caller(app), tournament_id)


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


@app.put(
    "/tournaments/<tournament_id>/placements/<tavla_id>",
    security=SIGNED_IN,
    tags=["tournaments"],
    responses=errors(TournamentNotFound, NotOrganiser, PlayerNotFound, Invalid, Conflict),
)
def put_placement(
    tournament_id: TournamentId,
    tavla_id: Annotated[str, params.Path(pattern=r"^[A-Za-z0-9]{7}$", description="the player's Tavla ID")],
    body: PlacementRequest,
) -> Placement:
    """Place a player in a division.

    Its organisers (R3.7; hbf 1.4, cnb 1.4.2): the player is barred from the divisions
    below it and invited to it when it is above their usual one. Divisions are listed
    highest first; `null` lifts the placement.
    """
    return tournaments.place(caller(app), tournament_id, tavla_id.upper(), body, clock.now())


@app.get(
    "/tournaments/<tournament_id>/placements",
    security=SIGNED_IN,
    tags=["tournaments"],
    responses=errors(TournamentNotFound, NotOrganiser),
)
def get_placements(tournament_id: TournamentId) -> Placements:
    """The players placed in a division.

    Each with the lowest division they may enter (R3.7; its organisers only).
    """
    return tournaments.placements(caller(app), tournament_id)


@app.get(
    "/tournaments/<tournament_id>/audit",
    security=SIGNED_IN,
    tags=["tournaments"],
    responses=errors(TournamentNotFound, NotStaff, InvalidCursor),
    middlewares=revalidated(),
)
def get_audit(
    tournament_id: TournamentId,
    limit: Annotated[int, params.Query(ge=1, le=500)] = 100,
    after: Annotated[str | None, params.Query(max_length=512)] = None,
) -> AuditTrail:
    """A tournament's audit trail.

    Who did what, when, newest first (its staff only); each actor by Tavla ID and role
    (organiser, referee, admin, player or system), never by user id. A page at a time: pass
    `next` back as `after` for the following page; a stale or foreign cursor is 422
    `invalid_cursor`.
    """
    return tournaments.audit_trail(caller(app), tournament_id, limit, after)


handler = entry(app)
