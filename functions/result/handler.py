"""Live score and result (R7.2-R7.6, R8.4, R9.4): record games, declare, confirm; the public match."""

from __future__ import annotations

from typing import Annotated, TypeAlias

from tavla import clock, params
from tavla.contract import errors
from tavla.errors import (
    AppealOpen,
    Busy,
    DecisionNeeded,
    ImpossibleFinalScore,
    MatchNotFound,
    MatchNotInPlay,
    NotInMatch,
    NotStaff,
    NotYourMatch,
    ResultLocked,
    ResultMissing,
    RuleBroken,
    StaleMatch,
    TournamentOver,
)
from tavla.http import LIVE_MAX_AGE, SIGNED_IN, cached, caller, make_resolver
from tavla.models.matches import FinalScore, MatchDetail, ScoreUpdate
from tavla.observability import entry
from tavla.services import result

app = make_resolver()

MatchId: TypeAlias = "Annotated[str, params.Path(max_length=160)]"


@app.get(
    "/matches/<match_id>",
    tags=["matches"],
    responses=errors(MatchNotFound),
    middlewares=cached(max_age=LIVE_MAX_AGE),
)
def match(match_id: MatchId) -> MatchDetail:
    """A match and its live score, game by game.

    Public: players' names and clubs, the score after each game, penalty points, the
    result once official (R7.5, R12.1).
    """
    return result.view(match_id)


@app.put(
    "/matches/<match_id>/score",
    security=SIGNED_IN,
    tags=["matches"],
    responses=errors(
        MatchNotFound,
        NotYourMatch,
        NotStaff,
        AppealOpen,
        MatchNotInPlay,
        StaleMatch,
        RuleBroken,
        NotInMatch,
        Busy,
        TournamentOver,
    ),
)
def record_score(match_id: MatchId, body: ScoreUpdate) -> MatchDetail:
    """Record the next entry of the live score.

    A game or a resignation (either player, or staff), checked by the rules: Crawford, the
    cube rules, the match length (R7.2, R7.3; else 409 rule_violation). Penalty points or a
    time loss: staff only (R7.4, R7.6, R8.4). `version` must be the match's current version
    (else 409 stale_version: reload). The entry that completes the match makes it finished.
    """
    return result.record_score(caller(app), match_id, body, clock.now())


@app.post(
    "/matches/<match_id>/report",
    security=SIGNED_IN,
    tags=["matches"],
    responses=errors(
        MatchNotFound, NotYourMatch, AppealOpen, MatchNotInPlay, ImpossibleFinalScore, Busy, TournamentOver
    ),
)
def report(match_id: MatchId, body: FinalScore) -> MatchDetail:
    """Declare the final score (either player).

    Both alike: the match waits for staff (or is official at once when the tournament says
    so); different: disputed, flagged for the referee (R7.5).
    """
    return result.report(caller(app), match_id, body, clock.now())


@app.post(
    "/matches/<match_id>/confirm",
    security=SIGNED_IN,
    tags=["matches"],
    responses=errors(
        MatchNotFound,
        NotStaff,
        AppealOpen,
        MatchNotInPlay,
        ImpossibleFinalScore,
        DecisionNeeded,
        ResultMissing,
        ResultLocked,
        Busy,
        TournamentOver,
    ),
)
def confirm(match_id: MatchId, body: FinalScore | None = None) -> MatchDetail:
    """Make the result official (its tournament's staff).

    With a score: the referee's decision. Without: the agreed reports, the complete live
    score, or for a dispute what the profile's rule says prevails (R7.5). The bracket moves
    on. An official result changes only until a dependent match starts (R9.4: 409
    result_locked); confirming it again as it is changes nothing.
    """
    return result.confirm(caller(app), match_id, body, clock.now())


handler = entry(app)
