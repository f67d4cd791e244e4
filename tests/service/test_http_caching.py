"""Cheap to watch (R12.1): public pages carry a strong ETag and a short
public Cache-Control, and a phone that already has the current copy gets a bodiless 304."""

from __future__ import annotations

import json

import pytest

from tavla.http import etag, etag_matches
from tests.service.conftest import Api
from tests.service.helpers import create_player, create_tournament, register

PAGES = ["/tournaments/{tournament_id}", "/tournaments/{tournament_id}/entries"]


@pytest.mark.parametrize("template", PAGES)
def test_a_public_page_is_tagged_and_cacheable_for_five_seconds(api: Api, template: str) -> None:
    tid = create_tournament(api)
    reply = api.call("GET", template, params={"tournament_id": tid})
    assert reply.status == 200
    assert reply.headers["cache-control"] == "public, max-age=5"
    assert reply.headers["etag"] == etag(json.dumps(reply.body, separators=(",", ":")))
    assert reply.headers["etag"].startswith('"')  # strong


@pytest.mark.parametrize("template", PAGES)
def test_the_current_copy_is_answered_with_a_bodiless_304(api: Api, template: str) -> None:
    tid = create_tournament(api)
    tag = api.call("GET", template, params={"tournament_id": tid}).headers["etag"]
    for sent in (tag, f"W/{tag}", f'"other", {tag}', "*"):
        again = api.call("GET", template, params={"tournament_id": tid}, headers={"If-None-Match": sent})
        assert (again.status, again.body) == (304, None), sent
        assert again.headers["etag"] == tag and again.headers["cache-control"] == "public, max-age=5"


def test_a_changed_page_gets_a_new_tag_and_its_full_body(api: Api) -> None:
    """A registration changes the entry list: the old tag no longer matches."""
    tid = create_tournament(api)
    params = {"tournament_id": tid}
    before = api.call("GET", "/tournaments/{tournament_id}/entries", params=params)
    create_player(api, "p-1")
    assert register(api, tid, "p-1").status == 201
    after = api.call(
        "GET",
        "/tournaments/{tournament_id}/entries",
        params=params,
        headers={"If-None-Match": before.headers["etag"]},
    )
    assert after.status == 200 and after.headers["etag"] != before.headers["etag"]
    assert after.body != before.body


def test_a_missing_tournament_is_not_marked_cacheable(api: Api) -> None:
    reply = api.call("GET", "/tournaments/{tournament_id}", params={"tournament_id": "nope"})
    assert (reply.status, reply.error) == (404, "tournament_not_found")
    assert "etag" not in reply.headers and "public" not in reply.headers.get("cache-control", "")


def test_if_none_match_is_compared_weakly_as_http_says() -> None:
    assert etag_matches('"a"', '"a"') and etag_matches('W/"a"', '"a"') and etag_matches(' "b" , "a"', '"a"')
    assert not etag_matches(None, '"a"') and not etag_matches("", '"a"') and not etag_matches('"b"', '"a"')


def test_the_document_lists_the_304_and_the_caching_headers() -> None:
    from functions.tournaments.handler import app

    operation = app.get_openapi_schema().paths["/tournaments/{tournament_id}"].get  # type: ignore[index]
    assert operation is not None and operation.responses is not None
    assert {"ETag", "Cache-Control"} <= set(operation.responses[200].headers or {})
    assert 304 in operation.responses


def test_what_a_live_hint_refetches_answers_304_when_unchanged(api: Api) -> None:
    """R-live: the rounds, a round and a match (public), and the desk's audit and contact lists
    (staff: `private, no-cache`, never kept by a shared cache) carry an ETag; a refetch with it
    after a hint for something else is a bodiless 304."""
    from tests.service.day_helpers import checked_in_field, draw
    from tests.service.helpers import ORGANISER

    tid, _ = checked_in_field(api, 2)
    assert draw(api, tid).status == 201
    (match,) = api.call(
        "GET", "/tournaments/{tournament_id}/rounds/{number}", params={"tournament_id": tid, "number": "1"}
    ).body["pairings"]
    public = [
        ("/tournaments/{tournament_id}/rounds", {"tournament_id": tid}),
        ("/tournaments/{tournament_id}/rounds/{number}", {"tournament_id": tid, "number": "1"}),
        ("/matches/{match_id}", {"match_id": match["id"]}),
    ]
    staff = [
        ("/tournaments/{tournament_id}/audit", {"tournament_id": tid}),
        ("/tournaments/{tournament_id}/entries/contacts", {"tournament_id": tid}),
    ]
    for template, params in public + staff:
        user = ORGANISER if (template, params) in staff else None
        first = api.call("GET", template, params=params, user=user)
        assert first.status == 200, (template, first.body)
        control = "private, no-cache" if user else "public, max-age=5"
        assert first.headers["cache-control"] == control, template
        again = api.call(
            "GET", template, params=params, user=user, headers={"If-None-Match": first.headers["etag"]}
        )
        assert (again.status, again.body) == (304, None), template


def test_a_report_changes_the_match_tag(api: Api) -> None:
    """A declaration is a change the match's screen must see: the old tag no longer matches."""
    from tests.service.day_helpers import checked_in_field, draw

    tid, ids = checked_in_field(api, 2)
    assert draw(api, tid).status == 201
    (match,) = api.call(
        "GET", "/tournaments/{tournament_id}/rounds/{number}", params={"tournament_id": tid, "number": "1"}
    ).body["pairings"]
    params = {"match_id": match["id"]}
    before = api.call("GET", "/matches/{match_id}", params=params)
    score = {"home_points": match["length"], "away_points": 0}
    home = f"player-{ids.index(match['home']['tavla_id'])}"
    assert api.call("POST", "/matches/{match_id}/report", params=params, body=score, user=home).status == 200
    after = api.call(
        "GET", "/matches/{match_id}", params=params, headers={"If-None-Match": before.headers["etag"]}
    )
    assert after.status == 200 and after.headers["etag"] != before.headers["etag"]
