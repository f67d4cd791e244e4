"""The public rating list, seasons, season standings and the Super Final (R10.3-R10.5, R5.7)."""

from __future__ import annotations

from typing import Annotated, TypeAlias

from tavla import clock, params
from tavla.contract import errors
from tavla.errors import (
    Forbidden,
    Invalid,
    InvalidCursor,
    InvitationAnswered,
    InvitationClosed,
    InvitationNotFound,
    InvitationsPending,
    SeasonClosed,
    SeasonNotClosed,
    SeasonNotFound,
    SuperFinalFull,
)
from tavla.http import SIGNED_IN, caller, make_resolver
from tavla.models.season import (
    Invitation,
    InvitationList,
    RatingPage,
    Season,
    SeasonBody,
    SeasonCalendar,
    SeasonList,
    SeasonStandingsPage,
    SuperFinal,
    SuperFinalAttendance,
    SuperFinalBody,
    SuperFinalReplies,
    SuperFinalTournament,
)
from tavla.observability import entry
from tavla.services import invitations, ratings, season, super_final

app = make_resolver()

SeasonId: TypeAlias = 'Annotated[str, params.Path(max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]'
Filter: TypeAlias = "Annotated[str | None, params.Query(min_length=1, max_length=120)]"


@app.get("/ratings", tags=["season"], responses=errors(InvalidCursor))
def get_ratings(
    club: Filter = None,
    city: Filter = None,
    club_id: Annotated[
        str | None, params.Query(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9]+$")
    ] = None,
    limit: Annotated[int, params.Query(ge=1, le=200)] = 50,
    after: Annotated[str | None, params.Query(max_length=512)] = None,
) -> RatingPage:
    """The national rating list.

    Highest rating first, a page at a time (`next` is the opaque cursor of the next page);
    `club_id` gives a club's list (`club`, the club as typed, until the federation maps it to
    its record), `city` a city's. `provisional` marks players with fewer
    than 30 rated matches (R10.3). Players appear from their first official match: a club's
    or a city's list leaves out its members who have not played one yet.
    """
    return ratings.rating_page(club, city, limit, after, club_id=club_id)


@app.get("/seasons", tags=["season"])
def list_seasons(
    year: Annotated[int | None, params.Query(ge=2000, le=2100)] = None,
    federation: Annotated[
        str | None, params.Query(min_length=1, max_length=40, pattern=r"^[a-z0-9-]+$")
    ] = None,
    limit: Annotated[int, params.Query(ge=1, le=100)] = 50,
    offset: Annotated[int, params.Query(ge=0, le=10_000)] = 0,
) -> SeasonList:
    """The seasons.

    The latest first, each with its life (`open`, `running`, `closed`); `year` keeps those
    whose dates touch that year, `federation` one federation's (R10.4).
    """
    return season.list_seasons(year, federation, limit, offset, clock.now())


@app.get("/seasons/<season_id>", tags=["season"], responses=errors(SeasonNotFound))
def get_season(season_id: SeasonId) -> Season:
    """A season.

    Its dates, base placement points, level coefficients (Local, Regional, National, Major),
    how many are invited to the Super Final and their starting lives (R10.4, R5.7); its life:
    `open` before its start date, `running`, `closed` at the end of its end date (the Super
    Final's invited list frozen then, `to_invite`).
    """
    return season.get_season(season_id, clock.now())


@app.put(
    "/seasons/<season_id>", security=SIGNED_IN, tags=["season"], responses=errors(Forbidden, SeasonClosed)
)
def put_season(season_id: SeasonId, body: SeasonBody) -> Season:
    """Set a season.

    Dates and numbers (R10.4; platform admins only). Settings left out are the shipped
    defaults: 1st 100, 2nd 70, 3-4 50, 5-8 30, 9-16 15, 17-32 8, others 3 points; Local x1,
    Regional x2, National x3, Major x4; 16 invited; final lives 4 (1-4), 3 (5-8), 2. The
    season's points and standings are recounted with them at once (a few seconds later);
    only tournaments finished within its dates count. A closed season no longer changes.
    """
    return season.put_season(caller(app), season_id, body, clock.now())


@app.get("/seasons/<season_id>/standings", tags=["season"], responses=errors(SeasonNotFound))
def get_standings(
    season_id: SeasonId,
    limit: Annotated[int, params.Query(ge=1, le=500)] = 100,
    offset: Annotated[int, params.Query(ge=0, le=1_000_000)] = 0,
) -> SeasonStandingsPage:
    """The season standings.

    Season points, then head-to-head between the tied players, point difference over all
    their season matches, the sum of their opponents' season points, and last a recorded
    draw (`draw_seed`): no place is shared (R10.5).
    """
    return season.standings(season_id, limit, offset)


@app.get("/seasons/<season_id>/tournaments", tags=["season"], responses=errors(SeasonNotFound))
def get_calendar(season_id: SeasonId) -> SeasonCalendar:
    """The season's calendar.

    The tournaments that declared the season, by start time, with their level and whether
    their season points are in the standings yet (R10.4).
    """
    return season.calendar(season_id)


@app.get("/seasons/<season_id>/super-final", tags=["season"], responses=errors(SeasonNotFound))
def get_super_final(season_id: SeasonId) -> SuperFinal:
    """The Super Final.

    The season's leaders invited, in season order, and the starting lives each gets in a
    lives final by season place (R10.4, R5.7).
    """
    return season.super_final(season_id)


@app.post(
    "/seasons/<season_id>/super-final/invitations",
    security=SIGNED_IN,
    tags=["season"],
    responses=errors(Forbidden, SeasonNotFound, SeasonNotClosed),
)
def remind(season_id: SeasonId) -> SuperFinalReplies:
    """Remind the invited players.

    The invitations go out when the season closes (R10.4); this tells the players who have
    not answered yet again, with the same deadline (platform admins only).
    """
    return invitations.remind(caller(app), season_id, clock.now())


@app.get(
    "/seasons/<season_id>/invitations",
    tags=["season"],
    responses=errors(SeasonNotFound),
)
def get_attendance(season_id: SeasonId) -> SuperFinalAttendance:
    """Who comes to the Super Final.

    The players who accepted their invitation, in season order, with their starting lives;
    the final once created, and its champion (R10.4, R5.7). Before the season closes nobody
    is invited yet: the seats, no players, `frozen` false.
    """
    return invitations.attendance(season_id)


@app.get(
    "/seasons/<season_id>/invitations/replies",
    security=SIGNED_IN,
    tags=["season"],
    responses=errors(Forbidden, SeasonNotFound, SeasonNotClosed),
)
def get_replies(season_id: SeasonId) -> SuperFinalReplies:
    """Every invitation's answer.

    Accepted, declined, lapsed and pending (with their deadlines), and the reserves still
    to be invited, next first (the Super Final's organiser and platform admins).
    """
    return invitations.replies(caller(app), season_id)


@app.get("/me/invitations", security=SIGNED_IN, tags=["season"])
def my_invitations() -> InvitationList:
    """My Super Final invitations.

    Each with its season place, starting lives, status and the deadline to answer (R10.4).
    """
    return invitations.mine(caller(app))


_REPLY_ERRORS = errors(InvitationNotFound, InvitationAnswered, InvitationClosed, SuperFinalFull)


@app.post(
    "/seasons/<season_id>/invitations/me/accept", security=SIGNED_IN, tags=["season"], responses=_REPLY_ERRORS
)
def accept(season_id: SeasonId) -> Invitation:
    """Accept my invitation.

    Before its deadline, once (accepting again changes nothing); the invited player only
    (R10.4).
    """
    return invitations.reply(caller(app), season_id, "accept", clock.now())


@app.post(
    "/seasons/<season_id>/invitations/me/decline",
    security=SIGNED_IN,
    tags=["season"],
    responses=_REPLY_ERRORS,
)
def decline(season_id: SeasonId) -> Invitation:
    """Decline my invitation.

    Before its deadline; the seat passes to the next player on the list frozen at the
    season's close (R10.4).
    """
    return invitations.reply(caller(app), season_id, "decline", clock.now())


@app.post(
    "/seasons/<season_id>/super-final",
    security=SIGNED_IN,
    tags=["season"],
    status_code=201,
    responses=errors(Forbidden, Invalid, SeasonNotFound, SeasonNotClosed, InvitationsPending),
)
def create_final(season_id: SeasonId, body: SuperFinalBody) -> tuple[SuperFinalTournament, int]:
    """Create the Super Final.

    A lives tournament whose players are those who accepted, each starting with the lives
    their season place gives (R5.7), drawn and played as any lives event; its winner is the
    season's champion. Once every invitation is answered or lapsed; the Super Final's
    organiser or platform admins. Asking again returns the same tournament (200).
    """
    made, new = super_final.create(caller(app), season_id, body, clock.now())
    return made, 201 if new else 200


handler = entry(app)
