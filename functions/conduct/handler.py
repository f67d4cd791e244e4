"""Conduct (R8): penalties, withdrawal during the day, disqualification."""

from __future__ import annotations

from typing import Annotated, TypeAlias

from tavla import clock, params
from tavla.contract import errors
from tavla.errors import (
    AlreadyOut,
    Busy,
    MatchNotFound,
    NoMatchToPenalise,
    NotDrawn,
    NotInField,
    NotStaff,
    RuleBroken,
    TournamentNotFound,
    TournamentOver,
)
from tavla.http import SIGNED_IN, caller, make_resolver
from tavla.models.appeals import OutBody, OutView, PenaltyBody, PenaltyView
from tavla.models.registrations import WithdrawalResult
from tavla.observability import entry
from tavla.services import conduct, withdrawals

app = make_resolver()

TournamentId: TypeAlias = "Annotated[str, params.Path(max_length=64)]"


@app.post(
    "/tournaments/<tournament_id>/penalties",
    security=SIGNED_IN,
    tags=["conduct"],
    status_code=201,
    responses=errors(
        TournamentNotFound,
        NotStaff,
        NotDrawn,
        NotInField,
        MatchNotFound,
        NoMatchToPenalise,
        RuleBroken,
        Busy,
        TournamentOver,
    ),
)
def penalise(tournament_id: TournamentId, body: PenaltyBody) -> tuple[PenaltyView, int]:
    """Give a penalty by the ladder (R8.4).

    `warning` is recorded; `game`: the opponent scores one game at cube 1 (one point, between
    games); `match`: the match is lost by forfeit. The tournament's staff only; recorded in
    the audit trail.
    """
    return conduct.penalise(caller(app), tournament_id, body, clock.now()), 201


@app.post(
    "/tournaments/<tournament_id>/withdrawals",
    security=SIGNED_IN,
    tags=["conduct"],
    status_code=201,
    responses=errors(*withdrawals.ERRORS),
)
def withdraw(tournament_id: TournamentId, body: OutBody) -> tuple[WithdrawalResult, int]:
    """Withdraw a player.

    The tournament's staff, or the player themself; for oneself the same withdrawal as
    `DELETE /tournaments/{id}/registrations/me`. After the draw the match they are in is
    forfeited now and every later one when it comes due; their opponents advance; no refund
    (R8.2, R3.5). Before the draw only the player withdraws their own entry, refunded by the
    organiser's policy (R3.2, R3.5); staff naming someone else then: 409 `not_drawn`.
    """
    return withdrawals.withdraw(caller(app), tournament_id, body.tavla_id, body.reason, clock.now()), 201


@app.post(
    "/tournaments/<tournament_id>/disqualifications",
    security=SIGNED_IN,
    tags=["conduct"],
    status_code=201,
    responses=errors(TournamentNotFound, NotStaff, NotDrawn, NotInField, AlreadyOut, Busy, TournamentOver),
)
def disqualify(tournament_id: TournamentId, body: OutBody) -> tuple[OutView, int]:
    """Disqualify a player (R8.3).

    The tournament's staff only. Their matches are forfeited as for a withdrawal, and they
    get no place, no prize and no season points.
    """
    return conduct.disqualify(caller(app), tournament_id, body, clock.now()), 201


handler = entry(app)
