"""The federation runs itself: platform roles granted by its admins, requests to organise, clubs."""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

from tavla import clock, params
from tavla.contract import errors
from tavla.errors import (
    Conflict,
    Forbidden,
    Invalid,
    LastAdmin,
    NoSuchClub,
    NotPending,
    PlayerNotFound,
    ProfileMissing,
    RequestNotFound,
)
from tavla.http import SIGNED_IN, caller, make_resolver
from tavla.models.federation import (
    Club,
    ClubBody,
    ClubMerge,
    ClubMerged,
    ClubUpdate,
    NearDuplicateClubs,
    OrganiserDecision,
    OrganiserRequestBody,
    OrganiserRequestView,
    PublicClub,
    Role,
    RoleHolder,
    RoleState,
)
from tavla.observability import entry
from tavla.services import clubs, roles

app = make_resolver()

TavlaIdPath: TypeAlias = "Annotated[str, params.Path(max_length=32)]"
ClubIdPath: TypeAlias = 'Annotated[str, params.Path(max_length=32, pattern=r"^[A-Za-z0-9]+$")]'


@app.put(
    "/admin/roles/<tavla_id>/<role>",
    security=SIGNED_IN,
    tags=["admin"],
    responses=errors(Forbidden, PlayerNotFound, Invalid),
)
def put_role(tavla_id: TavlaIdPath, role: Annotated[Role, params.Path()]) -> RoleState:
    """Grant a platform role.

    `organisers` or `admins` (R1.3; the federation's admins only). Audited; the user's next
    token carries it. Granting a role held already changes nothing (`changed: false`).
    """
    return roles.grant(caller(app), tavla_id.upper(), role, clock.now())


@app.delete(
    "/admin/roles/<tavla_id>/<role>",
    security=SIGNED_IN,
    tags=["admin"],
    responses=errors(Forbidden, PlayerNotFound, Invalid, LastAdmin),
)
def delete_role(tavla_id: TavlaIdPath, role: Annotated[Role, params.Path()]) -> RoleState:
    """Revoke a platform role.

    Audited; the user's next token is without it. The federation's last admin cannot be
    revoked (409 `last_admin`), even by two admins revoking each other at once.
    """
    return roles.revoke(caller(app), tavla_id.upper(), role, clock.now())


@app.get("/admin/roles/<role>", security=SIGNED_IN, tags=["admin"], responses=errors(Forbidden))
def get_role_holders(role: Annotated[Role, params.Path()]) -> list[RoleHolder]:
    """Who holds a platform role.

    The federation's admins only: the players the platform's record gives the role.
    """
    return roles.holders(caller(app), role, clock.now())


@app.post(
    "/me/organiser-request",
    security=SIGNED_IN,
    tags=["players"],
    status_code=201,
    responses=errors(ProfileMissing, Invalid),
)
def post_organiser_request(body: OrganiserRequestBody) -> tuple[OrganiserRequestView, int]:
    """Ask to become an organiser.

    With the club and the reason; the admins are told in the app and one of them approves or
    refuses (the answer comes as a notice too). While a request is pending, asking again
    returns it unchanged.
    """
    return roles.request_organiser(caller(app), body, clock.now()), 201


@app.get("/admin/organiser-requests", security=SIGNED_IN, tags=["admin"], responses=errors(Forbidden))
def get_organiser_requests(
    status: Annotated[Literal["pending", "approved", "refused"] | None, params.Query()] = "pending",
) -> list[OrganiserRequestView]:
    """Requests to become an organiser.

    Admins only; oldest first; pending ones by default (`status` for the decided ones).
    """
    return roles.requests(caller(app), status, clock.now())


@app.post(
    "/admin/organiser-requests/<tavla_id>/approve",
    security=SIGNED_IN,
    tags=["admin"],
    responses=errors(Forbidden, RequestNotFound, NotPending),
)
def approve_organiser_request(tavla_id: TavlaIdPath, body: OrganiserDecision) -> OrganiserRequestView:
    """Approve a request to organise.

    The `organisers` role is granted with it (audited); the player is told in the app.
    """
    return roles.decide(caller(app), tavla_id.upper(), True, body.note, clock.now())


@app.post(
    "/admin/organiser-requests/<tavla_id>/refuse",
    security=SIGNED_IN,
    tags=["admin"],
    responses=errors(Forbidden, RequestNotFound, NotPending),
)
def refuse_organiser_request(tavla_id: TavlaIdPath, body: OrganiserDecision) -> OrganiserRequestView:
    """Refuse a request to organise.

    With a note the player reads in the app.
    """
    return roles.decide(caller(app), tavla_id.upper(), False, body.note, clock.now())


# -- clubs ------------------------------------------------------------------------------------


@app.get("/clubs", tags=["players"])
def get_clubs() -> list[PublicClub]:
    """The federation's clubs.

    By name, for a player to choose theirs (`club_id` on the profile) and for the club
    rating lists (`GET /ratings?club_id=`). Public: never a club's contact.
    """
    return clubs.public_list()


@app.get("/admin/clubs", security=SIGNED_IN, tags=["admin"], responses=errors(Forbidden))
def get_admin_clubs() -> list[Club]:
    """The federation's clubs with their contacts.

    Admins only; merged duplicates are left out.
    """
    return clubs.admin_list(caller(app), clock.now())


@app.post(
    "/admin/clubs", security=SIGNED_IN, tags=["admin"], status_code=201, responses=errors(Forbidden, Invalid)
)
def post_club(body: ClubBody) -> tuple[Club, int]:
    """Add a club.

    Admins only; audited. Its id is what players choose and what the draw's club protection
    (R5.2) and the club rating lists compare.
    """
    return clubs.create(caller(app), body, clock.now()), 201


@app.patch(
    "/admin/clubs/<club_id>",
    security=SIGNED_IN,
    tags=["admin"],
    responses=errors(Forbidden, NoSuchClub, Invalid, Conflict),
)
def patch_club(club_id: ClubIdPath, body: ClubUpdate) -> Club:
    """Edit a club.

    Only the fields sent change; a new name reaches the members' profiles. Audited.
    """
    return clubs.update(caller(app), club_id.upper(), body, clock.now())


@app.get("/admin/clubs/near-duplicates", security=SIGNED_IN, tags=["admin"], responses=errors(Forbidden))
def get_near_duplicate_clubs() -> list[NearDuplicateClubs]:
    """Clubs typed as text, grouped where they look alike.

    The one-time mapping's worklist: "OA Plakas" and "O.A. Plakas" in one group, with the
    club record whose name reads the same when there is one. Admins only; reads every
    profile, so it is for the office, not for every page view.
    """
    return clubs.near_duplicate_clubs(caller(app), clock.now())


@app.post(
    "/admin/clubs/<club_id>/merge",
    security=SIGNED_IN,
    tags=["admin"],
    responses=errors(Forbidden, NoSuchClub, Invalid),
)
def merge_clubs(club_id: ClubIdPath, body: ClubMerge) -> ClubMerged:
    """Merge spellings and duplicate clubs into a club.

    Every player whose club was typed as one of `spellings`, or who is in one of `clubs`, is
    put in this club (its id and name); the duplicate records leave the list. Audited;
    repeating it moves nobody twice.
    """
    return clubs.merge(caller(app), club_id.upper(), body, clock.now())


handler = entry(app)
