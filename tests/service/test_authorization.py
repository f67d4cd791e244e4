"""Who may call what: every route x every role has one expected answer, in one table (R1.3, R12.1).

The routes come from the registry (each function's resolver), so a new route without a row
fails `test_every_route_has_a_row`, and a row for a route that is gone fails too. Each cell
runs in its own freshly built world, so what one call changes cannot decide another's answer,
and every request is valid and names things that exist: a cell's answer is about who is
asking, not about a missing tournament or a malformed body.

The world: tournament T (organised by `org`, refereed by `ref`, with `self` registered in it)
and tournament U (organised by `org'`, refereed by `ref'`); `other` is a player with no
business in T; `admin` is in the platform's admins group; every signed-in role has a player
profile. Anonymous callers of a non-public route get API Gateway's 401 (its JWT authorizer
answers before the function runs); `test_functions_refuse_anonymous_callers_themselves`
checks that the functions would refuse them too.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from functools import cache
from typing import Any

import pytest
from moto.core.models import DEFAULT_ACCOUNT_ID
from moto.dynamodb.models import dynamodb_backends

from infra.registry import FUNCTIONS, Route
from tavla import clock
from tavla.rules.season_table import SeasonRow
from tests.push_browser import Browser
from tests.service.conftest import REGION, Api, Reply, mocked_aws
from tests.service.helpers import tournament_body

PUSH_SUBSCRIPTION = Browser("https://fcm.googleapis.com/fcm/send/self-browser").subscription()
ROLES = ("anon", "self", "other", "ref", "ref'", "org", "org'", "admin")

# One row per route (and per body variant where the body changes who may learn what), one
# column per role; the answer is the HTTP status. 401 for `anon` on a route that needs a
# token is API Gateway's. Where a signed-in caller gets past authorization but the world
# says no (already has a profile, not registered), the row says so in a comment.
MATRIX = """
route                                                          anon self other  ref ref'  org org' admin
GET    /openapi.json                                            200  200   200  200  200  200  200  200
GET    /privacy                                                 200  200   200  200  200  200  200  200
GET    /players/{tavla_id}                                      200  200   200  200  200  200  200  200
GET    /tournaments                                             200  200   200  200  200  200  200  200
GET    /tournaments/{tournament_id}                             200  200   200  200  200  200  200  200
GET    /tournaments/{tournament_id}/entries                     200  200   200  200  200  200  200  200
# every signed-in role already has a profile: 409 profile_exists means it got past authorization
POST   /players                                                 401  409   409  409  409  409  409  409
GET    /me                                                      401  200   200  200  200  200  200  200
PATCH  /me                                                      401  200   200  200  200  200  200  200
GET    /me/checkin-pass                                         401  200   200  200  200  200  200  200
GET    /me/notifications                                        401  200   200  200  200  200  200  200
GET    /me/data                                                 401  200   200  200  200  200  200  200
# a player's own needs at the tables: every signed-in role reads only its own
GET    /me/table-needs                                          401  200   200  200  200  200  200  200
# erasure (R12): the body types back `other`'s Tavla ID; `self` is entered in T (409 entries_open),
# organisers and admins hold a role (409 roles_held), the referees typed a Tavla ID not theirs (422)
POST   /me/erasure                                              401  409   200  422  422  409  409  409
PUT    /me/push-subscriptions                                   401  200   200  200  200  200  200  200
# a browser's subscription is its player's alone: another's is not found, whoever asks
DELETE /me/push-subscriptions/{subscription_id}                 401  200   404  404  404  404  404  404
GET    /push/key                                                200  200   200  200  200  200  200  200
POST   /admin/players/merge                                     401  403   403  403  403  403  403  200
POST   /tournaments                                             401  403   403  403  403  201  201  201
PATCH  /tournaments/{tournament_id}                             401  403   403  403  403  200  403  200
PUT    /tournaments/{tournament_id}/staff                       401  403   403  403  403  200  403  200
GET    /tournaments/{tournament_id}/audit                       401  403   403  200  403  200  403  200
GET    /tournaments/{tournament_id}/entries/contacts            401  403   403  200  403  200  403  200
POST   /tournaments/{tournament_id}/checkins         tavla_id   401  403   403  200  403  200  403  200
POST   /tournaments/{tournament_id}/checkins         phone      401  403   403  200  403  200  403  200
# a phone nobody has: only staff may learn that (404); everyone else is refused first
POST   /tournaments/{tournament_id}/checkins         new-phone  401  403   403  404  403  404  403  404
# a garbage pass: only staff learn that it is garbage (400)
POST   /tournaments/{tournament_id}/checkins         bad-pass   401  403   403  400  403  400  403  400
POST   /tournaments/{tournament_id}/checkins/close              401  403   403  403  403  200  403  200
# `self` is registered already (409 already_registered); anyone else with a profile may enter
POST   /tournaments/{tournament_id}/registrations               401  409   201  201  201  201  201  201
# only `self` has an entry to withdraw (409 not_registered for the others)
DELETE /tournaments/{tournament_id}/registrations/me            401  200   409  409  409  409  409  409
# `self`'s entry is not pending (no approval needed here): 409 not_pending past authorization
POST   /tournaments/{tournament_id}/registrations/{tavla_id}/approve  401  403  403  403  403  409  403  409
POST   /tournaments/{tournament_id}/registrations/{tavla_id}/refuse   401  403  403  403  403  409  403  409
PUT    /tournaments/{tournament_id}/placements/{tavla_id}       401  403   403  403  403  200  403  200
GET    /tournaments/{tournament_id}/placements                  401  403   403  403  403  200  403  200
# nobody has checked in to T: 409 not_enough_players means the organiser got past authorization
POST   /tournaments/{tournament_id}/rounds                      401  403   403  403  403  409  403  409
GET    /tournaments/{tournament_id}/rounds                      200  200   200  200  200  200  200  200
GET    /tournaments/{tournament_id}/rounds/{number}             200  200   200  200  200  200  200  200
# a draw nobody can shop (R5.1): T's organisers commit to its seed; nobody has checked in to
# T, so the preview's 409 not_committed ... means the organiser got past authorization
POST   /tournaments/{tournament_id}/draw-commitment             401  403   403  403  403  200  403  200
GET    /tournaments/{tournament_id}/draw-preview                401  403   403  403  403  409  403  409
# D's round 1 has no result yet: its organisers redraw it (with a reason)
POST   /tournaments/{tournament_id}/rounds/{number}/redraw      401  403   403  403  403  200  403  200
# late entries (R5.5, R5.7): T is single elimination (409 late_entry_refused), and late
# entry is not open (409 late_entry_closed), past authorization
PUT    /tournaments/{tournament_id}/late-entry                  401  403   403  403  403  409  403  409
POST   /tournaments/{tournament_id}/late-entries                401  403   403  403  403  409  403  409
# the hall (R6): staff read the desk's view; organisers set tables and the hall; a need is
# the player's own or staff's (private); a release of T's match that is not held is 409 not_held
GET    /tournaments/{tournament_id}/hall                        401  403   403  200  403  200  403  200
PUT    /tournaments/{tournament_id}/hall                        401  403   403  403  403  200  403  200
PUT    /tournaments/{tournament_id}/tables/{table}              401  403   403  403  403  200  403  200
GET    /tournaments/{tournament_id}/needs/{tavla_id}            401  200   403  200  403  200  403  200
PUT    /tournaments/{tournament_id}/needs/{tavla_id}            401  200   403  200  403  200  403  200
# staff clear a player's need at the desk as they set it; nobody else's staff may
PUT    /tournaments/{tournament_id}/needs/{tavla_id} clear      401  200   403  200  403  200  403  200
POST   /tournaments/{tournament_id}/holds/{code}/release        401  403   403  409  403  409  403  409
# live score and result: `self` plays D's match; `org` and `ref` run D
GET    /matches/{match_id}                                      200  200   200  200  200  200  200  200
PUT    /matches/{match_id}/score                     game       401  200   403  200  403  200  403  200
PUT    /matches/{match_id}/score                     penalty    401  403   403  200  403  200  403  200
POST   /matches/{match_id}/report                               401  200   403  403  403  403  403  403
POST   /matches/{match_id}/confirm                              401  403   403  200  403  200  403  200
# table call and no-show (R6): `self` marks only themself; staff of D mark or excuse anyone in the match
POST   /matches/{match_id}/presence                  self       401  200   403  200  403  200  403  200
POST   /matches/{match_id}/presence                  opponent   401  403   403  200  403  200  403  200
POST   /matches/{match_id}/presence                  excused    401  403   403  200  403  200  403  200
POST   /matches/{match_id}/call                                 401  403   403  200  403  200  403  200
# adjourned matches and breaks (R7.7): staff adjourn and resume D's match (not adjourned: 409
# match_not_in_play past authorization) and sign a photo's upload; staff and the match's players
# read its photo (none kept: 404); a player takes a break and comes back for themself, staff for
# either (no game is over and no break runs: 409 break_refused, no_break_running)
POST   /matches/{match_id}/adjourn                              401  403   403  200  403  200  403  200
POST   /matches/{match_id}/resume                               401  403   403  409  403  409  403  409
POST   /matches/{match_id}/adjournment-photo                    401  403   403  200  403  200  403  200
GET    /matches/{match_id}/adjournment-photo                    401  404   403  404  403  404  403  404
POST   /matches/{match_id}/breaks                               401  409   403  409  403  409  403  409
POST   /matches/{match_id}/breaks/back                          401  409   403  409  403  409  403  409
# board, standings, finish, report, all on D
GET    /tournaments/{tournament_id}/board                       200  200   200  200  200  200  200  200
GET    /tournaments/{tournament_id}/standings                   200  200   200  200  200  200  200  200
# D's one match is not decided: 409 not_finished means the organiser got past authorization
POST   /tournaments/{tournament_id}/finish                      401  403   403  403  403  409  403  409
GET    /tournaments/{tournament_id}/report                      401  403   403  200  403  200  403  200
# appeals (R9) on D's match, `self` v `opponent`: only its players lodge; staff decide
POST   /matches/{match_id}/appeals                              401  201   403  403  403  403  403  403
POST   /appeals/{appeal_id}/decision                            401  403   403  200  403  200  403  200
GET    /appeals/{appeal_id}                                     401  200   403  200  403  200  403  200
# conduct (R8) in D: staff penalise and disqualify; a player may withdraw only themself
POST   /tournaments/{tournament_id}/penalties                   401  403   403  201  403  201  403  201
POST   /tournaments/{tournament_id}/withdrawals                 401  201   403  201  403  201  403  201
POST   /tournaments/{tournament_id}/disqualifications           401  403   403  201  403  201  403  201
# money in T: staff read the ledgers and record venue payments; only organisers export;
# only `self` has an entry to pay for (409 not_registered for the others, past authorization)
GET    /tournaments/{tournament_id}/payments                    401  403   403  200  403  200  403  200
POST   /tournaments/{tournament_id}/payments                    401  403   403  201  403  201  403  201
GET    /tournaments/{tournament_id}/payments/export             401  403   403  403  403  200  403  200
POST   /tournaments/{tournament_id}/payments/checkout           401  201   409  409  409  409  409  409
GET    /me/payments                                             401  200   200  200  200  200  200  200
GET    /tournaments/{tournament_id}/refunds                     401  403   403  403  403  200  403  200
# no refund by that id in T: 404 payment_not_found means the organiser got past authorization
POST   /tournaments/{tournament_id}/refunds/{entry_id}/paid     401  403   403  403  403  404  403  404
# prizes (R11) on D: the list is public; D is not finished: 409 not_finished past authorization
GET    /tournaments/{tournament_id}/prizes                      200  200   200  200  200  200  200  200
POST   /tournaments/{tournament_id}/prizes/payouts              401  403   403  403  403  409  403  409
GET    /tournaments/{tournament_id}/prizes/payouts              401  403   403  200  403  200  403  200
PUT    /tournaments/{tournament_id}/payments/deadline           401  403   403  403  403  200  403  200
# bank statements in T: its organisers only (the lines carry payers' names while unmatched, R12)
POST   /tournaments/{tournament_id}/bank-statements             401  403   403  403  403  200  403  200
GET    /tournaments/{tournament_id}/bank-statements/lines       401  403   403  403  403  200  403  200
POST   /tournaments/{tournament_id}/bank-statements/csv-columns 401  403   403  403  403  200  403  200
# no such import: 404 statement_not_found means the organiser got past authorization
GET    /tournaments/{tournament_id}/bank-statements/{statement_id}  401  403  403  403  403  404  403  404
# no such line in T: 404 payment_not_found means the organiser got past authorization
POST   /tournaments/{tournament_id}/bank-statements/lines/{checksum}/match  401 403 403 403 403 404 403 404
# the provider's webhook is public: an unsigned body is 400 invalid_signature for anyone
POST   /webhooks/payments                                       400  400   400  400  400  400  400  400
# ratings and the season: public lists; admins set seasons and send invitations
GET    /ratings                                                 200  200   200  200  200  200  200  200
GET    /seasons                                                 200  200   200  200  200  200  200  200
GET    /seasons/{season_id}                                     200  200   200  200  200  200  200  200
PUT    /seasons/{season_id}                                     401  403   403  403  403  403  403  200
GET    /seasons/{season_id}/standings                           200  200   200  200  200  200  200  200
GET    /seasons/{season_id}/tournaments                         200  200   200  200  200  200  200  200
GET    /seasons/{season_id}/super-final                         200  200   200  200  200  200  200  200
POST   /seasons/{season_id}/super-final/invitations             401  403   403  403  403  403  403  200
# the Super Final (R10.4): who accepted is public; the season's final organiser (`org`) and
# admins see every answer and create the final; only the invited (`self`) answers: anyone
# else holds no invitation (404 invitation_not_found)
GET    /seasons/{season_id}/invitations                         200  200   200  200  200  200  200  200
GET    /seasons/{season_id}/invitations/replies                 401  403   403  403  403  200  403  200
GET    /me/invitations                                          401  200   200  200  200  200  200  200
POST   /seasons/{season_id}/invitations/me/accept               401  200   404  404  404  404  404  404
POST   /seasons/{season_id}/invitations/me/decline              401  200   404  404  404  404  404  404
POST   /seasons/{season_id}/super-final                         401  403   403  403  403  201  403  201
# R11.4: category-prize eligibility in T is private: its organisers only
GET    /tournaments/{tournament_id}/prizes/eligibility          401  403   403  403  403  200  403  200
PUT    /tournaments/{tournament_id}/prizes/eligibility/{tavla_id}  401  403  403  403  403  200  403  200
# the staff list: T's staff and admins read it
GET    /tournaments/{tournament_id}/staff                       401  403   403  200  403  200  403  200
# platform roles (R1.3): the federation's admins alone grant, revoke and list them
PUT    /admin/roles/{tavla_id}/{role}                           401  403   403  403  403  403  403  200
DELETE /admin/roles/{tavla_id}/{role}                           401  403   403  403  403  403  403  200
GET    /admin/roles/{role}                                      401  403   403  403  403  403  403  200
# anyone with a profile asks to organise; an organiser (or admin) is one already: 422 past authorization
POST   /me/organiser-request                                    401  201   201  201  201  422  422  422
GET    /admin/organiser-requests                                401  403   403  403  403  403  403  200
POST   /admin/organiser-requests/{tavla_id}/approve             401  403   403  403  403  403  403  200
POST   /admin/organiser-requests/{tavla_id}/refuse              401  403   403  403  403  403  403  200
# a tournament cancelled or postponed: its organisers, or an admin
POST   /tournaments/{tournament_id}/cancel                      401  403   403  403  403  200  403  200
POST   /tournaments/{tournament_id}/postpone                    401  403   403  403  403  200  403  200
# clubs (R1.2): anyone reads the list (no contacts); the federation's admins keep it
GET    /clubs                                                   200  200   200  200  200  200  200  200
GET    /admin/clubs                                             401  403   403  403  403  403  403  200
POST   /admin/clubs                                             401  403   403  403  403  403  403  201
PATCH  /admin/clubs/{club_id}                                   401  403   403  403  403  403  403  200
GET    /admin/clubs/near-duplicates                             401  403   403  403  403  403  403  200
POST   /admin/clubs/{club_id}/merge                             401  403   403  403  403  403  403  200
"""

USERS: dict[str, tuple[str, tuple[str, ...]]] = {  # role -> (Cognito sub, groups)
    "self": ("player-self", ()),
    "other": ("player-other", ()),
    "ref": ("referee-here", ()),
    "ref'": ("referee-elsewhere", ()),
    "org": ("organiser-here", ("organisers",)),
    "org'": ("organiser-elsewhere", ("organisers",)),
    "admin": ("platform-admin", ("admins",)),
}
SELF_PHONE = "+30 697 111 1111"
NOBODYS_PHONE = "+30 697 999 9999"


@dataclass(frozen=True)
class Row:
    method: str
    path: str
    variant: str
    expected: dict[str, int]

    @property
    def name(self) -> str:
        return " ".join(p for p in (self.method, self.path, self.variant) if p)


def _rows(table: str) -> list[Row]:
    lines = [line.split() for line in table.strip().splitlines() if line.strip() and line[0] != "#"]
    header, body = lines[0], lines[1:]
    assert tuple(header[-len(ROLES) :]) == ROLES, header
    rows = []
    for cells in body:
        method, path, *variant = cells[: -len(ROLES)]
        answers = dict(zip(ROLES, (int(c) for c in cells[-len(ROLES) :]), strict=True))
        rows.append(Row(method, path, " ".join(variant), answers))
    return rows


ROWS = _rows(MATRIX)


@dataclass
class World:
    """Two tournaments with their own staff, a registered player, and one spare duplicate account."""

    tavla_ids: dict[str, str] = field(default_factory=dict)  # role (and "duplicate") -> Tavla ID
    here: str = ""  # tournament T
    elsewhere: str = ""  # tournament U
    drawn: str = ""  # tournament D: organised by `org`, refereed by `ref`, `self` v `opponent` drawn
    match: str = ""  # D's one match: `self` against `opponent`
    match_length: int = 0  # its length in points
    push_subscription: str = ""  # the id of `self`'s browser for push notices


def _ok(reply: Reply, status: int = 200) -> Reply:
    assert reply.status == status, reply.body
    return reply


def build_world(api: Api) -> World:
    world = World()
    for role, (sub, groups) in {
        **USERS,
        "duplicate": ("player-duplicate", ()),
        "opponent": ("player-opponent", ()),
    }.items():
        fields = {"phone": SELF_PHONE} if role == "self" else {}
        body = {"name": f"Player {role}", **fields}
        created = _ok(api.call("POST", "/players", body=body, user=sub, groups=groups), 201)
        world.tavla_ids[role] = created.body["tavla_id"]
    for attribute, organiser, referee in (("here", "org", "ref"), ("elsewhere", "org'", "ref'")):
        sub, groups = USERS[organiser]
        tournament_id = _ok(
            api.call("POST", "/tournaments", body=tournament_body(), user=sub, groups=groups), 201
        ).body["id"]
        setattr(world, attribute, tournament_id)
        _ok(
            api.call(
                "PUT",
                "/tournaments/{tournament_id}/staff",
                params={"tournament_id": tournament_id},
                body={"staff": [{"tavla_id": world.tavla_ids[referee], "role": "referee"}]},
                user=sub,
                groups=groups,
            )
        )
    _ok(
        api.call(
            "POST",
            "/tournaments/{tournament_id}/registrations",
            params={"tournament_id": world.here},
            user=USERS["self"][0],
        ),
        201,
    )
    _build_drawn(api, world)
    world.push_subscription = _ok(
        api.call("PUT", "/me/push-subscriptions", body=PUSH_SUBSCRIPTION, user=USERS["self"][0])
    ).body["id"]
    return world


def _build_drawn(api: Api, world: World) -> None:
    """Tournament D: `self` and `opponent` checked in by `ref`, drawn by `org`: one match."""
    sub, groups = USERS["org"]
    tid = _ok(
        api.call("POST", "/tournaments", body=tournament_body(capacity=2), user=sub, groups=groups), 201
    ).body["id"]
    world.drawn = tid
    params = {"tournament_id": tid}
    staff = {"staff": [{"tavla_id": world.tavla_ids["ref"], "role": "referee"}]}
    _ok(
        api.call(
            "PUT", "/tournaments/{tournament_id}/staff", params=params, body=staff, user=sub, groups=groups
        )
    )
    for player in ("player-self", "player-opponent"):
        _ok(api.call("POST", "/tournaments/{tournament_id}/registrations", params=params, user=player), 201)
    for role in ("self", "opponent"):
        body = {"tavla_id": world.tavla_ids[role]}
        _ok(
            api.call(
                "POST",
                "/tournaments/{tournament_id}/checkins",
                params=params,
                body=body,
                user=USERS["ref"][0],
            )
        )
    drawn = _ok(
        api.call("POST", "/tournaments/{tournament_id}/rounds", params=params, user=sub, groups=groups), 201
    )
    world.match = drawn.body["pairings"][0]["id"]
    world.match_length = drawn.body["pairings"][0]["length"]


@pytest.fixture(scope="module")
def built(api: Api) -> Iterator[tuple[World, Any]]:
    """One moto for the module; the world built through the API once, and its tables as they were then."""
    with pytest.MonkeyPatch.context() as monkeypatch, mocked_aws(monkeypatch.setenv):
        world = build_world(api)
        yield world, copy.deepcopy(dynamodb_backends[DEFAULT_ACCOUNT_ID][REGION].tables)
    clock.reset()


@pytest.fixture(autouse=True)
def aws(built: tuple[World, Any]) -> None:
    """Replaces the conftest's fresh moto per test: this module's cells share `built`'s moto."""


@pytest.fixture
def world(built: tuple[World, Any]) -> World:
    """The world as it was built, for every cell: what one call changed is gone before the next.

    Restored from a copy of the tables rather than built anew: building costs seconds, since
    moto copies a whole table for every transaction.
    """
    world, tables = built
    dynamodb_backends[DEFAULT_ACCOUNT_ID][REGION].tables = copy.deepcopy(tables)
    return world


@dataclass(frozen=True)
class Request:
    params: dict[str, str] = field(default_factory=dict)
    body: Any = None


def _in_t(body: Any = None) -> Callable[[World], Request]:
    return lambda w: Request({"tournament_id": w.here}, body(w) if callable(body) else body)


def _in_d(body: Any = None) -> Callable[[World], Request]:
    """A request about tournament D, the drawn one."""
    return lambda w: Request({"tournament_id": w.drawn}, body(w) if callable(body) else body)


def _on_match(body: Any = None) -> Callable[[World], Request]:
    """A request about D's match, `self` against `opponent`."""
    return lambda w: Request({"match_id": w.match}, body(w) if callable(body) else body)


def _appealed(w: World) -> str:
    """`self` appeals D's match (a pairing appeal, while it is called): the appeal's id."""
    from tavla.caller import Caller
    from tavla.models.appeals import AppealBody
    from tavla.services import appeals

    body = AppealBody(kind="pairing", statement="Wrong opponent.")
    return appeals.lodge(Caller(USERS["self"][0], frozenset()), w.match, body, clock.now()).id


def _season(w: World) -> str:
    """A season set by the federation, with the shipped defaults."""
    from tavla.store import season as season_store
    from tavla.store.records import SeasonRecord

    season_store.put(
        SeasonRecord(id="s2027", name="Season 2027", starts_on="2027-01-01", ends_on="2027-12-31")
    )
    return "s2027"


def _requested(w: World) -> str:
    """`other` asks to become an organiser: the request an admin decides."""
    from tavla.caller import Caller
    from tavla.models.federation import OrganiserRequestBody
    from tavla.services import roles

    body = OrganiserRequestBody(club="OA Plakas", reason="I run our club nights.")
    return roles.request_organiser(Caller(USERS["other"][0], frozenset()), body, clock.now()).tavla_id


def _club(w: World) -> str:
    """A club of the federation, added by an admin."""
    from tavla.caller import Caller
    from tavla.models.federation import ClubBody
    from tavla.services import clubs

    body = ClubBody(name="OA Plakas", city="Athens", short_name="OAP")
    return clubs.create(Caller(USERS["admin"][0], frozenset({"admins"})), body, clock.now()).id


def _in_season(body: Any = None) -> Callable[[World], Request]:
    return lambda w: Request({"season_id": _season(w)}, body)


def _closed_season(w: World, *, accepted: bool = False) -> str:
    """A season closed with `self` and `opponent` invited to its Super Final (organised by
    `org`), pending or, with `accepted`, both accepted."""
    from tavla.rules.season import SeasonSettings
    from tavla.services import invitations
    from tavla.store import invitations as invitation_store
    from tavla.store import season as season_store
    from tavla.store.records import SeasonRecord

    settings = SeasonSettings(super_final_size=2)
    season_store.put(
        SeasonRecord(
            id="s2026",
            name="Season 2026",
            starts_on="2026-01-01",
            ends_on="2026-06-30",
            settings=settings.model_dump(mode="json"),
            organiser=w.tavla_ids["org"],
        )
    )
    rows = [
        SeasonRow(
            player_id=w.tavla_ids[role],
            place=n,
            points=100 - n,
            tournaments=1,
            head_to_head=0,
            point_difference=0,
            opponents_points=0,
        )
        for n, role in enumerate(("self", "opponent", "other"), 1)
    ]
    final = invitations.frozen("s2026", rows, settings)
    season_store.close("s2026", clock.now().isoformat(), [r.player_id for r in rows[:2]], final)
    invitations.fill_seats("s2026", clock.now())
    if accepted:
        for role in ("self", "opponent"):
            invitation_store.answer(
                "s2026", w.tavla_ids[role], invitation_store.ACCEPTED, invitations.utc(clock.now())
            )
    return "s2026"


def _in_closed_season(body: Any = None, *, accepted: bool = False) -> Callable[[World], Request]:
    return lambda w: Request({"season_id": _closed_season(w, accepted=accepted)}, body)


# The request each row sends, the same for every role: valid, about things that exist.
REQUESTS: dict[str, Callable[[World], Request]] = {
    "GET /openapi.json": lambda w: Request(),
    "GET /privacy": lambda w: Request(),
    "GET /players/{tavla_id}": lambda w: Request({"tavla_id": w.tavla_ids["self"]}),
    "GET /tournaments": lambda w: Request(),
    "GET /tournaments/{tournament_id}": _in_t(),
    "GET /tournaments/{tournament_id}/entries": _in_t(),
    "POST /players": lambda w: Request(body={"name": "A Second Me"}),
    "GET /me": lambda w: Request(),
    "PATCH /me": lambda w: Request(body={"club": "Tavli Club Plaka"}),
    "GET /me/checkin-pass": lambda w: Request(),
    "GET /me/notifications": lambda w: Request(),
    "GET /me/data": lambda w: Request(),
    "GET /me/table-needs": lambda w: Request(),
    "POST /me/erasure": lambda w: Request(body={"confirm": w.tavla_ids["other"]}),
    "PUT /me/push-subscriptions": lambda w: Request(body=PUSH_SUBSCRIPTION),
    "DELETE /me/push-subscriptions/{subscription_id}": lambda w: Request(
        {"subscription_id": w.push_subscription}
    ),
    "GET /push/key": lambda w: Request(),
    "POST /admin/players/merge": lambda w: Request(
        body={"keep": w.tavla_ids["self"], "merge": w.tavla_ids["duplicate"]}
    ),
    "POST /tournaments": lambda w: Request(body=tournament_body(name="Thessaloniki Open")),
    "PATCH /tournaments/{tournament_id}": _in_t({"name": "Athens Open, renamed"}),
    "PUT /tournaments/{tournament_id}/staff": _in_t(
        lambda w: {"staff": [{"tavla_id": w.tavla_ids["other"], "role": "referee"}]}
    ),
    "GET /tournaments/{tournament_id}/audit": _in_t(),
    "GET /tournaments/{tournament_id}/entries/contacts": _in_t(),
    "POST /tournaments/{tournament_id}/checkins tavla_id": _in_t(lambda w: {"tavla_id": w.tavla_ids["self"]}),
    "POST /tournaments/{tournament_id}/checkins phone": _in_t({"phone": SELF_PHONE}),
    "POST /tournaments/{tournament_id}/checkins new-phone": _in_t({"phone": NOBODYS_PHONE}),
    "POST /tournaments/{tournament_id}/checkins bad-pass": _in_t({"pass": "not-a-pass"}),
    "POST /tournaments/{tournament_id}/checkins/close": _in_t(),
    "POST /tournaments/{tournament_id}/registrations": _in_t(),
    "DELETE /tournaments/{tournament_id}/registrations/me": _in_t(),
    "POST /tournaments/{tournament_id}/registrations/{tavla_id}/approve": lambda w: Request(
        {"tournament_id": w.here, "tavla_id": w.tavla_ids["self"]}
    ),
    "POST /tournaments/{tournament_id}/registrations/{tavla_id}/refuse": lambda w: Request(
        {"tournament_id": w.here, "tavla_id": w.tavla_ids["self"]}
    ),
    "PUT /tournaments/{tournament_id}/placements/{tavla_id}": lambda w: Request(
        {"tournament_id": w.here, "tavla_id": w.tavla_ids["self"]}, {"division": "main"}
    ),
    "POST /tournaments/{tournament_id}/rounds": _in_t(),
    "GET /tournaments/{tournament_id}/rounds": _in_d(),
    "GET /tournaments/{tournament_id}/rounds/{number}": lambda w: Request(
        {"tournament_id": w.drawn, "number": "1"}
    ),
    "POST /tournaments/{tournament_id}/draw-commitment": _in_t(),
    "GET /tournaments/{tournament_id}/draw-preview": _in_t(),
    "POST /tournaments/{tournament_id}/rounds/{number}/redraw": lambda w: Request(
        {"tournament_id": w.drawn, "number": "1"}, {"reason": "The wrong field was checked in."}
    ),
    "PUT /tournaments/{tournament_id}/late-entry": _in_t({"open": True}),
    "POST /tournaments/{tournament_id}/late-entries": _in_t(lambda w: {"tavla_id": w.tavla_ids["other"]}),
    "GET /tournaments/{tournament_id}/hall": _in_d(),
    "PUT /tournaments/{tournament_id}/hall": _in_d({"top_board": True}),
    "PUT /tournaments/{tournament_id}/tables/{table}": lambda w: Request(
        {"tournament_id": w.drawn, "table": "1"}, {"accessible": True}
    ),
    "GET /tournaments/{tournament_id}/needs/{tavla_id}": lambda w: Request(
        {"tournament_id": w.drawn, "tavla_id": w.tavla_ids["self"]}
    ),
    "PUT /tournaments/{tournament_id}/needs/{tavla_id}": lambda w: Request(
        {"tournament_id": w.drawn, "tavla_id": w.tavla_ids["self"]}, {"accessible": True}
    ),
    "PUT /tournaments/{tournament_id}/needs/{tavla_id} clear": lambda w: Request(
        {"tournament_id": w.drawn, "tavla_id": w.tavla_ids["self"]}, {"accessible": False}
    ),
    "POST /tournaments/{tournament_id}/holds/{code}/release": lambda w: Request(
        {"tournament_id": w.drawn, "code": "main.R1.1"}
    ),
    "GET /matches/{match_id}": _on_match(),
    "PUT /matches/{match_id}/score game": _on_match(
        lambda w: {"version": 0, "game": {"winner": w.tavla_ids["self"]}}
    ),
    "PUT /matches/{match_id}/score penalty": _on_match(
        lambda w: {"version": 0, "penalty": {"player": w.tavla_ids["opponent"], "points": 1}}
    ),
    "POST /matches/{match_id}/report": _on_match(lambda w: {"home_points": w.match_length, "away_points": 0}),
    "POST /matches/{match_id}/confirm": _on_match(
        lambda w: {"home_points": w.match_length, "away_points": 0}
    ),
    # table call and no-show (R6)
    "POST /matches/{match_id}/presence self": _on_match(
        lambda w: {"tavla_id": w.tavla_ids["self"], "present": True}
    ),
    "POST /matches/{match_id}/presence opponent": _on_match(
        lambda w: {"tavla_id": w.tavla_ids["opponent"], "present": True}
    ),
    "POST /matches/{match_id}/presence excused": _on_match(
        lambda w: {"tavla_id": w.tavla_ids["opponent"], "excused": True}
    ),
    "POST /matches/{match_id}/call": _on_match(),
    "POST /matches/{match_id}/adjourn": _on_match(
        lambda w: {"reason": "The hall closes.", "resume_by": (clock.now() + timedelta(hours=12)).isoformat()}
    ),
    "POST /matches/{match_id}/resume": _on_match(),
    "POST /matches/{match_id}/adjournment-photo": _on_match({"content_type": "image/jpeg"}),
    "GET /matches/{match_id}/adjournment-photo": _on_match(),
    "POST /matches/{match_id}/breaks": _on_match(lambda w: {"tavla_id": w.tavla_ids["self"]}),
    "POST /matches/{match_id}/breaks/back": _on_match(lambda w: {"tavla_id": w.tavla_ids["self"]}),
    "GET /tournaments/{tournament_id}/board": _in_d(),
    "GET /tournaments/{tournament_id}/standings": _in_d(),
    "POST /tournaments/{tournament_id}/finish": _in_d(),
    "GET /tournaments/{tournament_id}/report": _in_d(),
    # appeals and conduct
    "POST /matches/{match_id}/appeals": _on_match({"kind": "pairing", "statement": "Wrong opponent."}),
    "POST /appeals/{appeal_id}/decision": lambda w: Request(
        {"appeal_id": _appealed(w)}, {"outcome": "dismissed", "reasoning": "The pairing follows the draw."}
    ),
    "GET /appeals/{appeal_id}": lambda w: Request({"appeal_id": _appealed(w)}),
    "POST /tournaments/{tournament_id}/penalties": _in_d(
        lambda w: {"tavla_id": w.tavla_ids["self"], "kind": "warning", "reason": "Slow play"}
    ),
    "POST /tournaments/{tournament_id}/withdrawals": _in_d(lambda w: {"tavla_id": w.tavla_ids["self"]}),
    "POST /tournaments/{tournament_id}/disqualifications": _in_d(
        lambda w: {"tavla_id": w.tavla_ids["self"], "reason": "Loaded dice"}
    ),
    # money
    "GET /tournaments/{tournament_id}/payments": _in_t(),
    "POST /tournaments/{tournament_id}/payments": _in_t(
        lambda w: {"tavla_id": w.tavla_ids["self"], "method": "cash", "amount": {"amount": 2000}}
    ),
    "GET /tournaments/{tournament_id}/payments/export": _in_t(),
    "POST /tournaments/{tournament_id}/payments/checkout": lambda w: _with_fake_provider(_in_t()(w)),
    "GET /me/payments": lambda w: Request(),
    "GET /tournaments/{tournament_id}/refunds": _in_t(),
    "GET /tournaments/{tournament_id}/prizes": _in_d(),
    "POST /tournaments/{tournament_id}/bank-statements": _in_t(
        {"format": "mt940", "content": ":20:X\n:25:GR16\n:28C:1/1\n:60F:C261101EUR0,00\n:62F:C261101EUR0,00"}
    ),
    "GET /tournaments/{tournament_id}/bank-statements/lines": _in_t(),
    "GET /tournaments/{tournament_id}/bank-statements/{statement_id}": lambda w: Request(
        {"tournament_id": w.here, "statement_id": "none"}
    ),
    "PUT /tournaments/{tournament_id}/payments/deadline": _in_t({"at": None}),
    "POST /tournaments/{tournament_id}/bank-statements/csv-columns": lambda w: Request(
        {"tournament_id": w.here}, {"content": "Date,Amount,Reference\n2026-03-04,20.00,ABC\n"}
    ),
    "POST /tournaments/{tournament_id}/bank-statements/lines/{checksum}/match": lambda w: Request(
        {"tournament_id": w.here, "checksum": "0" * 32}, {"tavla_id": w.tavla_ids["self"]}
    ),
    "POST /tournaments/{tournament_id}/prizes/payouts": _in_d(lambda w: {"tavla_id": w.tavla_ids["self"]}),
    "GET /tournaments/{tournament_id}/prizes/payouts": _in_d(),
    "POST /tournaments/{tournament_id}/refunds/{entry_id}/paid": lambda w: Request(
        {"tournament_id": w.here, "entry_id": "refund.bank.none"}
    ),
    "POST /webhooks/payments": lambda w: Request(body={"id": "evt_1", "type": "checkout.session.completed"}),
    # ratings and the season
    "GET /ratings": lambda w: Request(),
    "GET /seasons": lambda w: Request(),
    "GET /seasons/{season_id}": _in_season(),
    "PUT /seasons/{season_id}": _in_season(
        {"name": "Season 2027", "starts_on": "2027-01-01", "ends_on": "2027-12-31"}
    ),
    "GET /seasons/{season_id}/standings": _in_season(),
    "GET /seasons/{season_id}/tournaments": _in_season(),
    "GET /seasons/{season_id}/super-final": _in_season(),
    "POST /seasons/{season_id}/super-final/invitations": _in_closed_season(),
    "GET /seasons/{season_id}/invitations": _in_closed_season(),
    "GET /seasons/{season_id}/invitations/replies": _in_closed_season(),
    "GET /me/invitations": lambda w: Request(),
    "POST /seasons/{season_id}/invitations/me/accept": _in_closed_season(),
    "POST /seasons/{season_id}/invitations/me/decline": _in_closed_season(),
    "POST /seasons/{season_id}/super-final": lambda w: Request(
        {"season_id": _closed_season(w, accepted=True)},
        {"venue": "Athens Hall", "starts_at": (clock.now() + timedelta(days=30)).isoformat()},
    ),
    # R11.4: category-prize eligibility
    "GET /tournaments/{tournament_id}/prizes/eligibility": _in_t(),
    "PUT /tournaments/{tournament_id}/prizes/eligibility/{tavla_id}": lambda w: Request(
        {"tournament_id": w.here, "tavla_id": w.tavla_ids["self"]}, {"categories": ["women"]}
    ),
    # the staff list
    "GET /tournaments/{tournament_id}/staff": _in_t(),
    "GET /tournaments/{tournament_id}/placements": _in_t(),  # the organiser's placements (R3.7)
    # platform roles and requests to organise (R1.3)
    "PUT /admin/roles/{tavla_id}/{role}": lambda w: Request(
        {"tavla_id": w.tavla_ids["other"], "role": "organisers"}
    ),
    "DELETE /admin/roles/{tavla_id}/{role}": lambda w: Request(
        {"tavla_id": w.tavla_ids["org"], "role": "organisers"}
    ),
    "GET /admin/roles/{role}": lambda w: Request({"role": "admins"}),
    "POST /me/organiser-request": lambda w: Request(body={"club": "OA Plakas", "reason": "Club nights."}),
    "GET /admin/organiser-requests": lambda w: Request(),
    "POST /admin/organiser-requests/{tavla_id}/approve": lambda w: Request({"tavla_id": _requested(w)}, {}),
    "POST /admin/organiser-requests/{tavla_id}/refuse": lambda w: Request({"tavla_id": _requested(w)}, {}),
    "POST /tournaments/{tournament_id}/cancel": lambda w: Request(
        {"tournament_id": w.here}, {"reason": "flood"}
    ),
    "POST /tournaments/{tournament_id}/postpone": lambda w: Request(
        {"tournament_id": w.here}, {"starts_at": (clock.now() + timedelta(days=20)).isoformat()}
    ),
    "GET /clubs": lambda w: Request(),
    "GET /admin/clubs": lambda w: Request(),
    "POST /admin/clubs": lambda w: Request(body={"name": "Club 3", "city": "Patras", "short_name": "C3"}),
    "PATCH /admin/clubs/{club_id}": lambda w: Request({"club_id": _club(w)}, {"city": "Piraeus"}),
    "GET /admin/clubs/near-duplicates": lambda w: Request(),
    "POST /admin/clubs/{club_id}/merge": lambda w: Request(
        {"club_id": _club(w)}, {"spellings": ["O.A. Plakas"]}
    ),
}


def _with_fake_provider(request: Request) -> Request:
    """The card provider's API answered in-process: a checkout is a real SDK call."""
    from local.fake_provider import FakeProvider, FakeStripeHttp
    from tavla import card_payments

    card_payments.use_http_client(FakeStripeHttp(FakeProvider()))
    return request


@cache
def registry_routes() -> dict[tuple[str, str], Route]:
    return {(r.method, r.path): r for f in FUNCTIONS for r in f.routes()}


def answer(api: Api, world: World, row: Row, role: str) -> Reply:
    """What `role` gets for `row`'s request, through API Gateway to the function."""
    route = registry_routes()[(row.method, row.path)]
    if role == "anon" and not route.public:
        return Reply(401, {"message": "Unauthorized"})  # the JWT authorizer; the function never runs
    request = REQUESTS[row.name](world)
    sub, groups = USERS.get(role, (None, ()))
    return api.call(row.method, row.path, params=request.params, body=request.body, user=sub, groups=groups)


def test_every_route_has_a_row() -> None:
    """A new route must say who may call it; a row for a route that is gone is stale."""
    routes = set(registry_routes())
    rows = {(r.method, r.path) for r in ROWS}
    assert sorted(routes - rows) == [], "routes with no row in MATRIX"
    assert sorted(rows - routes) == [], "rows in MATRIX for routes the registry no longer has"
    assert sorted({r.name for r in ROWS} ^ set(REQUESTS)) == [], "rows and REQUESTS must name the same cases"


def test_public_routes_are_open_to_every_role() -> None:
    """The table and the routes' declared security agree: public means every column may read."""
    routes = registry_routes()
    for row in ROWS:
        if routes[(row.method, row.path)].public:
            assert row.expected["anon"] != 401, row.name
        else:
            assert row.expected["anon"] == 401, row.name


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.name)
def test_authorization_matrix(api: Api, world: World, row: Row, role: str) -> None:
    reply = answer(api, world, row, role)
    assert reply.status == row.expected[role], f"{role} on {row.name}: {reply.status} {str(reply.body)[:300]}"


@pytest.mark.parametrize(
    "route", [r for r in registry_routes().values() if not r.public], ids=lambda r: f"{r.method} {r.path}"
)
def test_functions_refuse_anonymous_callers_themselves(api: Api, world: World, route: Route) -> None:
    """Defence in depth: a function reached without the authorizer's claims answers 401 too."""
    row = next(r for r in ROWS if (r.method, r.path) == (route.method, route.path))
    request = REQUESTS[row.name](world)
    reply = api.call(route.method, route.path, params=request.params, body=request.body)
    assert (reply.status, reply.error) == (401, "unauthorized")


def test_the_board_shows_the_players_but_no_phone_or_email(api: Api, world: World) -> None:
    """R12.1: `self` (who has a phone) is on D's board by Tavla ID and name, and nothing private is."""
    for path in ("/tournaments/{tournament_id}/board", "/tournaments/{tournament_id}/standings"):
        reply = api.call("GET", path, params={"tournament_id": world.drawn})
        assert reply.status == 200, reply.body
        text = str(reply.body)
        assert world.tavla_ids["self"] in text and "Player self" in text
        digits = "".join(c for c in SELF_PHONE if c.isdigit())
        for secret in (SELF_PHONE, digits, digits[2:], "phone", "email", "@"):
            assert secret not in text, f"{path} shows {secret}"
