"""Registration and the waiting list: register, withdraw (promotes the next), public entry list."""

from __future__ import annotations

from typing import Annotated, TypeAlias

from tavla import clock, params
from tavla.contract import errors
from tavla.errors import (
    AlreadyRegistered,
    Busy,
    DivisionBarred,
    IdempotencyKeyReused,
    Invalid,
    NotOrganiser,
    NotPending,
    ProfileMissing,
    RegistrationClosed,
    RequestInProgress,
    TournamentNotFound,
)
from tavla.http import SIGNED_IN, cached, caller, make_resolver
from tavla.idempotency import IdempotencyKey, once
from tavla.models.registrations import Entries, RegistrationRequest, RegistrationResult, WithdrawalResult
from tavla.observability import entry
from tavla.services import registrations, withdrawals

app = make_resolver()

TournamentId: TypeAlias = "Annotated[str, params.Path(max_length=64)]"


@app.post(
    "/tournaments/<tournament_id>/registrations",
    security=SIGNED_IN,
    tags=["registration"],
    status_code=201,
    responses=errors(
        TournamentNotFound,
        ProfileMissing,
        Invalid,
        AlreadyRegistered,
        DivisionBarred,
        RegistrationClosed,
        RequestInProgress,
        IdempotencyKeyReused,
        Busy,
    ),
)
def register(
    tournament_id: TournamentId,
    body: RegistrationRequest | None = None,
    idempotency_key: IdempotencyKey = None,
) -> tuple[RegistrationResult, int]:
    """Register myself for a tournament.

    A place if one is free, else the end of the waiting list (R3.1, R3.2). With an
    `Idempotency-Key` header a retry returns the first answer, not a 409.
    """
    who, division = caller(app), body.division if body else None
    result = once(
        "register",
        who.sub,
        idempotency_key,
        {"tournament_id": tournament_id, "division": division},
        lambda: registrations.register(who, tournament_id, division, clock.now()),
        RegistrationResult,
        app.lambda_context,
    )
    return result, 201


@app.delete(
    "/tournaments/<tournament_id>/registrations/me",
    security=SIGNED_IN,
    tags=["registration"],
    responses=errors(*withdrawals.ERRORS),
)
def withdraw(tournament_id: TournamentId) -> WithdrawalResult:
    """Withdraw from a tournament.

    The same withdrawal as `POST /tournaments/{id}/withdrawals` for oneself, at any time.
    Before the draw the entry leaves its list, refunded by the organiser's policy, and the
    first waiting player is promoted in the same step and notified (R3.2, R3.5). After the
    draw the player leaves the day: the match they are in is forfeited now, every later one
    when due, no refund (R8.2).
    """
    return withdrawals.withdraw(caller(app), tournament_id, None, None, clock.now())


PlayerId: TypeAlias = (
    """Annotated[str, params.Path(pattern=r"^[A-Za-z0-9]{7}$", description="the player's Tavla ID")]"""
)


@app.post(
    "/tournaments/<tournament_id>/registrations/<tavla_id>/approve",
    security=SIGNED_IN,
    tags=["registration"],
    responses=errors(TournamentNotFound, NotOrganiser, NotPending, RegistrationClosed, Busy),
)
def approve(tournament_id: TournamentId, tavla_id: PlayerId) -> RegistrationResult:
    """Approve a pending entry.

    Its organisers (R3.7): a place if one is free, else the end of the waiting list, by the
    same conditions as a registration.
    """
    return registrations.approve(caller(app), tournament_id, tavla_id.upper(), clock.now())


@app.post(
    "/tournaments/<tournament_id>/registrations/<tavla_id>/refuse",
    security=SIGNED_IN,
    tags=["registration"],
    responses=errors(TournamentNotFound, NotOrganiser, NotPending),
)
def refuse(tournament_id: TournamentId, tavla_id: PlayerId) -> RegistrationResult:
    """Refuse a pending entry.

    Its organisers (R3.7): no reason needed; the entry is kept as refused and audited for
    the federation report; it held no place, so it frees none.
    """
    return registrations.refuse(caller(app), tournament_id, tavla_id.upper(), clock.now())


@app.get(
    "/tournaments/<tournament_id>/entries",
    tags=["registration"],
    middlewares=cached(max_age=5),
    responses=errors(TournamentNotFound),
)
def entries(tournament_id: TournamentId) -> Entries:
    """A tournament's entry lists.

    The main list and the waiting list, in order, public fields only (R12.1).
    """
    return registrations.entries(tournament_id)


handler = entry(app)
