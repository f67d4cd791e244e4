"""Draws (R5): the organiser draws the next round; anyone reads the published draws."""

from __future__ import annotations

from typing import Annotated, TypeAlias

from tavla import clock, params
from tavla.contract import errors
from tavla.errors import (
    AppealOpen,
    DrawInProgress,
    Invalid,
    NotEnoughPlayers,
    NothingToDraw,
    NotOrganiser,
    RoundInProgress,
    RoundNotFound,
    RuleBroken,
    TournamentNotFound,
)
from tavla.http import LIVE_MAX_AGE, SIGNED_IN, cached, caller, make_resolver
from tavla.models.day import Rounds, RoundView
from tavla.observability import entry
from tavla.services import draw

app = make_resolver()

TournamentId: TypeAlias = "Annotated[str, params.Path(max_length=64)]"
RoundNumber: TypeAlias = "Annotated[int, params.Path(ge=1, le=999)]"
Division: TypeAlias = (
    'Annotated[str | None, params.Query(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]'
)


@app.post(
    "/tournaments/<tournament_id>/rounds",
    security=SIGNED_IN,
    tags=["draws"],
    status_code=201,
    responses=errors(
        TournamentNotFound,
        NotOrganiser,
        RoundInProgress,
        NothingToDraw,
        NotEnoughPlayers,
        Invalid,
        AppealOpen,
        DrawInProgress,
        RuleBroken,
    ),
)
def draw_next(tournament_id: TournamentId, division: Division = None) -> tuple[RoundView, int]:
    """Draw the next round (of `division`, when the tournament has several).

    The whole bracket for elimination formats and the league, one round for Swiss and lives;
    side brackets once their feeding rounds are decided (R5; its organisers only). The first
    draw closes check-in and fixes the field (R4.2). The round records its seed and the
    digest of its inputs, so anyone can recompute it (R5.1). A tournament of several
    divisions is drawn one division at a time (R3.7): `division` is then required.
    """
    return draw.draw_next(caller(app), tournament_id, clock.now(), division=division), 201


@app.get(
    "/tournaments/<tournament_id>/rounds",
    tags=["draws"],
    responses=errors(TournamentNotFound),
    middlewares=cached(max_age=LIVE_MAX_AGE),
)
def rounds(tournament_id: TournamentId) -> Rounds:
    """The published draws.

    Each with its seed and digest (R5.1; public).
    """
    return draw.rounds(tournament_id)


@app.get(
    "/tournaments/<tournament_id>/rounds/<number>",
    tags=["draws"],
    responses=errors(TournamentNotFound, RoundNotFound),
    middlewares=cached(max_age=LIVE_MAX_AGE),
)
def round_view(tournament_id: TournamentId, number: RoundNumber) -> RoundView:
    """One published draw.

    Its matches and tables, its seed, and the public inputs it was computed from: recompute
    it with `make verify-draw` (R5.1; public).
    """
    return draw.round_view(tournament_id, number)


handler = entry(app)
