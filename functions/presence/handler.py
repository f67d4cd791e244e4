"""At the table (R6, R7.7): the referee or the player marks presence; staff call a match to its
table, adjourn and resume it; a player or the referee starts a break and ends it."""

from __future__ import annotations

from typing import Annotated, TypeAlias

from tavla import clock, params
from tavla.contract import errors
from tavla.errors import (
    AppealOpen,
    BreakRefused,
    Busy,
    MatchNotFound,
    MatchNotInPlay,
    NoBreakRunning,
    NoFreeTable,
    NotInMatch,
    NotStaff,
    NotYourMatch,
    PhotoNotOfMatch,
    ResumeByPast,
    StaleMatch,
    TooLateToArrive,
    TournamentOver,
)
from tavla.http import SIGNED_IN, caller, make_resolver
from tavla.models.adjournment import (
    AdjournRequest,
    BackRequest,
    BreakRequest,
    PhotoLink,
    PhotoUpload,
    PhotoUploadRequest,
)
from tavla.models.day import MatchView, PresenceRequest
from tavla.observability import entry
from tavla.services import adjournment, breaks, presence

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


@app.post(
    "/matches/<match_id>/adjourn",
    security=SIGNED_IN,
    tags=["matches"],
    responses=errors(
        MatchNotFound,
        NotStaff,
        MatchNotInPlay,
        AppealOpen,
        PhotoNotOfMatch,
        ResumeByPast,
        StaleMatch,
        Busy,
        TournamentOver,
    ),
)
def adjourn_match(match_id: MatchId, body: AdjournRequest) -> MatchView:
    """Adjourn a match at its table (staff): the hall closes, a player is taken ill.

    The score stays as recorded; the cube, the clocks and the photo of the position are kept
    with it; its table is freed; what depends on its result waits. Not resumed by `resume_by`,
    it goes to the referee (flagged, the staff told).
    """
    return adjournment.adjourn(caller(app), match_id, body, clock.now())


@app.post(
    "/matches/<match_id>/resume",
    security=SIGNED_IN,
    tags=["matches"],
    responses=errors(MatchNotFound, NotStaff, MatchNotInPlay, StaleMatch, Busy, TournamentOver),
)
def resume_match(match_id: MatchId) -> MatchView:
    """Resume an adjourned match (staff).

    It is called to the next free table (another one if its own is taken), its score, cube
    and clocks as they were, both players present: no no-show clock runs on it.
    """
    return adjournment.resume(caller(app), match_id, clock.now())


@app.post(
    "/matches/<match_id>/adjournment-photo",
    security=SIGNED_IN,
    tags=["matches"],
    responses=errors(MatchNotFound, NotStaff),
)
def photo_upload(match_id: MatchId, body: PhotoUploadRequest) -> PhotoUpload:
    """A form to upload the position's photo (staff).

    The phone posts the image straight to the private store with these fields: one JPEG,
    PNG or WebP image, 8 MB at most, within 5 minutes. Name its `key` in the adjournment.
    """
    return adjournment.upload(caller(app), match_id, body, clock.now())


@app.get(
    "/matches/<match_id>/adjournment-photo",
    security=SIGNED_IN,
    tags=["matches"],
    responses=errors(MatchNotFound, NotYourMatch),
)
def photo_link(match_id: MatchId) -> PhotoLink:
    """A link to the adjourned position's photo.

    Valid for 5 minutes; given only to the tournament's staff and the match's two players.
    """
    return adjournment.photo(caller(app), match_id, clock.now())


@app.post(
    "/matches/<match_id>/breaks",
    security=SIGNED_IN,
    tags=["matches"],
    responses=errors(
        MatchNotFound, NotYourMatch, NotInMatch, MatchNotInPlay, AppealOpen, BreakRefused, StaleMatch, Busy
    ),
)
def start_break(match_id: MatchId, body: BreakRequest) -> MatchView:
    """Start a break now (R7.7): a player their own, the referee either player's or both.

    Only between games and within the profile's allowance; its end is scheduled, and a
    player not back by then owes penalty points on the lateness ladder (R7.6).
    """
    return breaks.start(caller(app), match_id, body, clock.now())


@app.post(
    "/matches/<match_id>/breaks/back",
    security=SIGNED_IN,
    tags=["matches"],
    responses=errors(MatchNotFound, NotYourMatch, NotInMatch, NoBreakRunning, StaleMatch, Busy),
)
def end_break(match_id: MatchId, body: BackRequest) -> MatchView:
    """Back from the break (the player, or the referee for them).

    Back after the break's end, the player owes the penalty points of the lateness ladder
    (R7.6) from that end; the break's remaining overrun schedules are deleted.
    """
    return breaks.back(caller(app), match_id, body, clock.now())


handler = entry(app)
