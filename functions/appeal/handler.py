"""Appeals (R9): a player appeals a match; staff record the decision; the parties read it."""

from __future__ import annotations

from typing import Annotated, TypeAlias

from tavla import clock, params
from tavla.contract import errors
from tavla.errors import (
    AppealDecided,
    AppealNotFound,
    AppealOpen,
    AppealWindowClosed,
    Busy,
    CommitteeNotImpartial,
    InvalidCommittee,
    InvalidDecision,
    MatchNotFound,
    NotStaff,
    NotYourMatch,
    ResultLocked,
    TournamentOver,
)
from tavla.http import SIGNED_IN, caller, make_resolver, revalidated
from tavla.models.appeals import AppealBody, AppealView, DecisionBody
from tavla.observability import entry
from tavla.services import appeals

app = make_resolver()

MatchId: TypeAlias = "Annotated[str, params.Path(max_length=200)]"
AppealId: TypeAlias = "Annotated[str, params.Path(max_length=200)]"


@app.post(
    "/matches/<match_id>/appeals",
    security=SIGNED_IN,
    tags=["appeals"],
    status_code=201,
    responses=errors(MatchNotFound, NotYourMatch, AppealWindowClosed, AppealOpen, Busy, TournamentOver),
)
def lodge(match_id: MatchId, body: AppealBody) -> tuple[AppealView, int]:
    """Appeal a score, a pairing or a referee's decision.

    A player of the match, within the rule profile's window (R9.1): 15 minutes after the
    end of the match; under `hbf` and `cnb` also only before a match that depends on the
    result has started. While open the result is frozen and the matches that depend on it
    are not called (R9.2). One open appeal per match.
    """
    return appeals.lodge(caller(app), match_id, body, clock.now()), 201


@app.post(
    "/appeals/<appeal_id>/decision",
    security=SIGNED_IN,
    tags=["appeals"],
    responses=errors(
        AppealNotFound,
        NotStaff,
        AppealDecided,
        InvalidCommittee,
        CommitteeNotImpartial,
        InvalidDecision,
        ResultLocked,
        Busy,
        TournamentOver,
    ),
)
def decide(appeal_id: AppealId, body: DecisionBody) -> AppealView:
    """Record the decision on an appeal, with its reasoning (R9.3).

    The tournament's staff record it. `platform`: the referee's decision (`outcome`), final.
    `hbf`: a committee of three impartial players, overturning only unanimously; `cnb`: three
    or five, simple majority (R9.5): give `committee` with its members and votes; no player of
    the match and nobody running the tournament sits on it. An upheld appeal with
    `new_result` changes the result and the bracket moves on from it (R9.4). Both players are
    told.
    """
    return appeals.decide(caller(app), appeal_id, body, clock.now())


@app.get(
    "/appeals/<appeal_id>",
    security=SIGNED_IN,
    tags=["appeals"],
    responses=errors(AppealNotFound, NotYourMatch),
    middlewares=revalidated(),
)
def read(appeal_id: AppealId) -> AppealView:
    """An appeal and its decision.

    For the players of the match and the tournament's staff.
    """
    return appeals.get(caller(app), appeal_id)


handler = entry(app)
