"""Bad bodies on every route that takes one: a clear 4xx in the API's error body, never a 500."""

from __future__ import annotations

import pytest

from tests.service.conftest import Api
from tests.service.helpers import ORGANISER, create_player, create_tournament

DEEP = '{"name": ' + "[" * 1000 + "]" * 1000 + "}"  # about 2 KB, 1,000 levels

BODY_ROUTES = [
    ("POST", "/players"),
    ("PATCH", "/me"),
    ("POST", "/admin/players/merge"),
    ("POST", "/tournaments"),
    ("PATCH", "/tournaments/{tournament_id}"),
    ("PUT", "/tournaments/{tournament_id}/staff"),
    ("POST", "/tournaments/{tournament_id}/registrations"),
    ("POST", "/tournaments/{tournament_id}/checkins"),
    ("PUT", "/tournaments/{tournament_id}/placements/{tavla_id}"),
    # a draw nobody can shop, late entries (R5.1, R5.5, R5.7)
    ("POST", "/tournaments/{tournament_id}/rounds/{number}/redraw"),
    ("PUT", "/tournaments/{tournament_id}/late-entry"),
    ("POST", "/tournaments/{tournament_id}/late-entries"),
    ("PUT", "/tournaments/{tournament_id}/hall"),
    ("PUT", "/tournaments/{tournament_id}/tables/{table}"),
    ("PUT", "/tournaments/{tournament_id}/needs/{tavla_id}"),
    # live score and result
    ("PUT", "/matches/{match_id}/score"),
    ("POST", "/matches/{match_id}/report"),
    ("POST", "/matches/{match_id}/confirm"),
    # table call and no-show (R6)
    ("POST", "/matches/{match_id}/presence"),
    # appeals and conduct
    ("POST", "/matches/{match_id}/appeals"),
    ("POST", "/matches/{match_id}/adjourn"),
    ("POST", "/matches/{match_id}/adjournment-photo"),
    ("POST", "/matches/{match_id}/breaks"),
    ("POST", "/matches/{match_id}/breaks/back"),
    ("POST", "/appeals/{appeal_id}/decision"),
    ("POST", "/tournaments/{tournament_id}/penalties"),
    ("POST", "/tournaments/{tournament_id}/withdrawals"),
    ("POST", "/tournaments/{tournament_id}/disqualifications"),
    # money
    ("POST", "/tournaments/{tournament_id}/payments"),
    ("POST", "/tournaments/{tournament_id}/prizes/payouts"),
    ("POST", "/tournaments/{tournament_id}/bank-statements"),
    ("POST", "/tournaments/{tournament_id}/bank-statements/csv-columns"),
    ("PUT", "/tournaments/{tournament_id}/payments/deadline"),
    ("POST", "/tournaments/{tournament_id}/bank-statements/lines/{checksum}/match"),
    # ratings and the season
    ("PUT", "/seasons/{season_id}"),
    ("POST", "/seasons/{season_id}/super-final"),
    # R11.4: category-prize eligibility
    ("PUT", "/tournaments/{tournament_id}/prizes/eligibility/{tavla_id}"),
    # erasure of my account (R12)
    ("POST", "/me/erasure"),
    # a browser's push subscription (R6.2)
    ("PUT", "/me/push-subscriptions"),
    # the federation: requests to organise (R1.3)
    ("POST", "/me/organiser-request"),
    ("POST", "/admin/organiser-requests/{tavla_id}/approve"),
    ("POST", "/admin/organiser-requests/{tavla_id}/refuse"),
    ("POST", "/admin/clubs"),
    ("POST", "/tournaments/{tournament_id}/cancel"),
    ("POST", "/tournaments/{tournament_id}/postpone"),
    ("PATCH", "/admin/clubs/{club_id}"),
    ("POST", "/admin/clubs/{club_id}/merge"),
]
# POST routes that take no body
NO_BODY = {
    ("POST", "/tournaments/{tournament_id}/checkins/close"),
    ("POST", "/tournaments/{tournament_id}/registrations/{tavla_id}/approve"),
    ("POST", "/tournaments/{tournament_id}/registrations/{tavla_id}/refuse"),
    ("POST", "/tournaments/{tournament_id}/rounds"),
    ("POST", "/tournaments/{tournament_id}/draw-commitment"),
    ("POST", "/tournaments/{tournament_id}/holds/{code}/release"),
    # table call and no-show (R6)
    ("POST", "/matches/{match_id}/call"),
    ("POST", "/matches/{match_id}/resume"),
    ("POST", "/tournaments/{tournament_id}/finish"),
    # money (the webhook's body is the provider's, read raw and verified by signature)
    ("POST", "/tournaments/{tournament_id}/payments/checkout"),
    ("POST", "/webhooks/payments"),
    ("POST", "/tournaments/{tournament_id}/refunds/{entry_id}/paid"),
    # ratings and the season
    ("POST", "/seasons/{season_id}/super-final/invitations"),
    ("POST", "/seasons/{season_id}/invitations/me/accept"),
    ("POST", "/seasons/{season_id}/invitations/me/decline"),
    # platform roles: the path says it all (R1.3)
    ("PUT", "/admin/roles/{tavla_id}/{role}"),
}


@pytest.mark.parametrize(("method", "template"), BODY_ROUTES)
def test_deeply_nested_json_is_malformed_json(api: Api, method: str, template: str) -> None:
    tavla_id = create_player(api, ORGANISER)
    tid = create_tournament(api)
    reply = api.call(
        method,
        template,
        params={
            "tournament_id": tid,
            "tavla_id": tavla_id,
            "match_id": f"{tid}.main.R1.1",
            "season_id": "s2027",
            "number": "1",
        },
        raw_body=DEEP,
        user=ORGANISER,
        groups=("organisers", "admins"),
    )
    assert (reply.status, reply.error) == (400, "malformed_json")


def test_every_body_route_is_covered() -> None:
    """A new route with a body joins the list above."""
    from infra.registry import FUNCTIONS

    with_body: set[tuple[str, str]] = {
        (route.method, route.path)
        for function in FUNCTIONS
        for route in function.routes()
        if route.method in ("POST", "PUT", "PATCH")
    }
    assert with_body - NO_BODY == set(BODY_ROUTES)


NOT_JSON = [
    "multipart/form-data",  # no boundary: Powertools' multipart parser raised a ValueError (500)
    "multipart/form-data; boundary=xyz",
    "application/x-www-form-urlencoded",
    "text/plain",
]


@pytest.mark.parametrize("content_type", NOT_JSON)
@pytest.mark.parametrize(("method", "template"), BODY_ROUTES)
def test_a_body_that_is_not_json_is_415_and_changes_nothing(
    api: Api, method: str, template: str, content_type: str
) -> None:
    """The API reads JSON only: any other media type is refused before parsing, in the API's body."""
    tavla_id = create_player(api, ORGANISER)
    tid = create_tournament(api, name="Athens Open")
    reply = api.call(
        method,
        template,
        params={
            "tournament_id": tid,
            "tavla_id": tavla_id,
            "match_id": f"{tid}.main.R1.1",
            "season_id": "s2027",
        },
        raw_body='{"name": "Changed"}',
        headers={"Content-Type": content_type},
        user=ORGANISER,
        groups=("organisers", "admins"),
    )
    assert (reply.status, reply.error) == (415, "unsupported_media_type")
    assert api.call("GET", "/me", user=ORGANISER).body["name"] != "Changed"
    assert [t["name"] for t in api.call("GET", "/tournaments").body["tournaments"]] == ["Athens Open"]


def test_json_with_a_charset_is_json(api: Api) -> None:
    reply = api.call(
        "POST",
        "/players",
        raw_body='{"name": "Eleni"}',
        headers={"Content-Type": "application/json; charset=utf-8"},
        user="eleni",
    )
    assert reply.status == 201, reply.body
