"""At the table (R6): the referee or the player marks presence; staff call a match to its table."""

from __future__ import annotations

from typing import Annotated, TypeAlias

from tavla import clock, params
from tavla.contract import errors
from tavla.errors import (
    Busy,
    MatchNotFound,
    MatchNotInPlay,
    NoFreeTable,
    NotInMatch,
    NotStaff,
    NotYourMatch,
    StaleMatch,
    TooLateToArrive,
    TournamentOver,
)
from tavla.http import SIGNED_IN, caller, make_resolver
from tavla.models.day import MatchView, PresenceRequest
from tavla.observability import entry
from tavla.services import presence

app = make_resolver()

MatchId: TypeAlias = "Annotated[str, params.Path(max_length=160)]"


@app.post(
    "/matches/<match_id>/presence",
    security=SIGNED_IN,
    tags=["matches"],
    responses=errors(
        MatchNotFound, NotStaff, NotYourMatch, NotInMatch, MatchNotInPlay, TooLateToArrive, StaleMatch
    ),
)
def mark_presence(match_id: MatchId, body: PresenceRequest) -> MatchView:
    """Mark a player present at the table, or excused.

    Staff mark either player; a player marks only themself present, within the deadline;
    excusing is for staff (R6.3). A player marked present or excused is never forfeited by
    the no-show deadline; their lateness is settled as it was on arrival (R7.6).
    """
    return presence.mark(caller(app), match_id, body, clock.now())


@app.post(
    "/matches/<match_id>/call",
    security=SIGNED_IN,
    tags=["matches"],
    responses=errors(MatchNotFound, NotStaff, MatchNotInPlay, NoFreeTable, StaleMatch, Busy, TournamentOver),
)
def call_match(match_id: MatchId) -> MatchView:
    """Call a match to its table now.

    A queued match takes a free table; a called one is called again: the no-show clock
    starts anew (R6.1; staff only). The players are told, the deadline is scheduled.
    """
    return presence.call(caller(app), match_id, clock.now())


handler = entry(app)
