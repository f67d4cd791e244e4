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
]
# POST routes that take no body
NO_BODY = {
    ("POST", "/tournaments/{tournament_id}/checkins/close"),
    ("POST", "/tournaments/{tournament_id}/registrations/{tavla_id}/approve"),
    ("POST", "/tournaments/{tournament_id}/registrations/{tavla_id}/refuse"),
}


@pytest.mark.parametrize(("method", "template"), BODY_ROUTES)
def test_deeply_nested_json_is_malformed_json(api: Api, method: str, template: str) -> None:
    tavla_id = create_player(api, ORGANISER)
    tid = create_tournament(api)
    reply = api.call(
        method,
        template,
        params={"tournament_id": tid, "tavla_id": tavla_id},
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
