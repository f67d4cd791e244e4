"""League and Swiss table points set on the tournament page (R5.6, R10.2), over the handlers."""

from __future__ import annotations

from typing import Any

import pytest

from tests.service.board_helpers import swiss_tie_break_day, table_figures
from tests.service.conftest import Api
from tests.service.helpers import ORGANISER, create_tournament, tournament_body

PAGE = "/tournaments/{tournament_id}"


def _page(api: Api, tid: str) -> dict[str, Any]:
    reply = api.call("GET", PAGE, params={"tournament_id": tid})
    assert reply.status == 200, reply.body
    return dict(reply.body)


def _patch(api: Api, tid: str, body: dict[str, Any]) -> Any:
    return api.call("PATCH", PAGE, params={"tournament_id": tid}, user=ORGANISER, body=body)


BAD_POINTS = [
    {"win": 1, "loss": 1, "forfeit": 0},  # a win worth no more than a loss
    {"win": 2, "loss": 0, "forfeit": 1},  # a forfeit worth more than a loss
    {"win": 11, "loss": 1, "forfeit": 0},  # beyond the bound
    {"win": 2, "loss": -1, "forfeit": -1},  # negative
    {"win": 2, "loss": 1, "forfeit": 0, "draw": 1},  # backgammon has no draws
    {"win": "two"},
]


def test_league_points_are_set_on_create_and_by_patch(api: Api) -> None:
    """R5.6: unset, the page shows none (a league counts 2/1/0); the organiser creates a
    league with 3/1/0 and changes it to 3/0/0; null takes it back to the default."""
    plain = create_tournament(api, format="round_robin")
    assert _page(api, plain)["match_points"] is None
    tid = create_tournament(api, format="round_robin", match_points={"win": 3, "loss": 1, "forfeit": 0})
    assert _page(api, tid)["match_points"] == {"win": 3, "loss": 1, "forfeit": 0}
    reply = _patch(api, tid, {"match_points": {"win": 3, "loss": 0}})
    assert reply.status == 200, reply.body
    assert _page(api, tid)["match_points"] == {"win": 3, "loss": 0, "forfeit": 0}
    assert _patch(api, tid, {"match_points": None}).status == 200
    assert _page(api, tid)["match_points"] is None


@pytest.mark.parametrize("points", BAD_POINTS)
def test_impossible_league_points_are_refused_and_nothing_changes(api: Api, points: dict[str, Any]) -> None:
    """R5.6: a win must be worth more than a loss and a loss at least a forfeit, 0..10 each:
    422 on create (no tournament) and on PATCH (the page keeps its points)."""
    body = tournament_body(format="round_robin", match_points=points)
    reply = api.call("POST", "/tournaments", body=body, user=ORGANISER, groups=("organisers",))
    assert (reply.status, reply.error) == (422, "validation_error"), reply.body
    assert api.call("GET", "/tournaments").body["tournaments"] == []
    tid = create_tournament(api, format="round_robin", match_points={"win": 3, "loss": 1, "forfeit": 0})
    before = _page(api, tid)
    refused = _patch(api, tid, {"match_points": points})
    assert (refused.status, refused.error) == (422, "validation_error"), refused.body
    assert _page(api, tid) == before


def test_swiss_standings_count_the_pages_points(api: Api) -> None:
    """R5.6, R10.2: the Swiss day of the tie-break example (X beats Y 7-6, W beats Z 7-0; W
    beats X, Y beats Z) counted 3 for a win and 1 for a loss: W 6, X 4, Y 4, Z 2; X is second
    on head-to-head (3 to 1 in points between them), and the opponents' points (Buchholz)
    are of the same count: W 4+2, X 6+4, Y 4+2, Z 6+4."""
    tournament_id, (w, x, y, z) = swiss_tie_break_day(api, match_points={"win": 3, "loss": 1, "forfeit": 0})
    reply = api.call("GET", "/tournaments/{tournament_id}/standings", params={"tournament_id": tournament_id})
    assert reply.status == 200, reply.body
    [main] = reply.body["events"]
    figures = table_figures(main)
    assert [row["player"]["tavla_id"] for row in main["rows"]] == [w, x, y, z]
    assert figures == {
        w: ("1", 6, 0, 0, 14, 6),
        x: ("2", 4, 3, 1, -6, 10),
        y: ("3", 4, 1, -1, 6, 6),
        z: ("4", 2, 0, 0, -14, 10),
    }
