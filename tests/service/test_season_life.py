"""A season's life (R10.4): open, running, closed by a schedule at its end date; only
tournaments finished within its dates count; a changed season is recounted at once; the list
of seasons; a tournament declares only a season that exists."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from tavla import clock
from tests.service.conftest import Api, LambdaContext
from tests.service.helpers import ORGANISER, create_tournament, tournament_body
from tests.service.payment_helpers import planned_schedules
from tests.service.season_helpers import Published, bus, deliver, entered, finish, play_out, season_fn

__all__ = ["bus"]

ADMIN = {"user": "fed", "groups": ("admins",)}


def _put(api: Api, season_id: str, starts: date, ends: date, **more: Any) -> Any:
    body = {
        "name": f"Season {season_id}",
        "starts_on": starts.isoformat(),
        "ends_on": ends.isoformat(),
        **more,
    }
    return api.call("PUT", "/seasons/{season_id}", params={"season_id": season_id}, body=body, **ADMIN)


def _get(api: Api, season_id: str) -> Any:
    return api.call("GET", "/seasons/{season_id}", params={"season_id": season_id}).body


def _points(api: Api, season_id: str) -> list[int]:
    reply = api.call("GET", "/seasons/{season_id}/standings", params={"season_id": season_id})
    assert reply.status == 200, reply.body
    return [r["points"] for r in reply.body["rows"]]


def _played(api: Api, season_id: str, users: list[str], level: str = "regional") -> str:
    tid, _ = entered(api, users, season_id=season_id, level=level)
    play_out(tid, lambda m: m.home < m.away)
    finish(api, tid)
    return tid


def test_a_tournament_finished_after_the_season_ended_earns_nothing(api: Api, bus: Published) -> None:
    """R10.4: only tournaments finished within the season's dates count: a season that ended
    a month ago takes no points from a tournament finished today."""
    today = clock.now().date()
    assert _put(api, "s-past", today - timedelta(days=300), today - timedelta(days=30)).status == 200
    deliver(bus)
    _played(api, "s-past", ["a", "b", "c", "d"])
    deliver(bus)
    assert _points(api, "s-past") == []
    assert _get(api, "s-past")["status"] == "closed"


def test_a_season_closes_by_schedule_at_its_end_date_and_freezes(api: Api, bus: Published) -> None:
    """R10.4: setting a season schedules its close at the end of its end date; the schedule
    fired early changes nothing; at the end it closes, the Super Final's invited list is frozen,
    the season can no longer be changed and a tournament finished later earns nothing."""
    today = clock.now().date()
    start, end = today - timedelta(days=10), today + timedelta(days=5)
    assert _put(api, "s-now", start, end, settings={"super_final_size": 2}).status == 200
    assert _get(api, "s-now")["status"] == "running"
    deliver(bus)
    [payload] = [p for n, p in planned_schedules().items() if n.startswith("season-close")]
    assert payload == {"close_season": "s-now"}
    _played(api, "s-now", ["a", "b", "c", "d"])
    deliver(bus)
    assert _points(api, "s-now") == [200, 140, 100, 100]
    fire = season_fn.handler
    assert fire(payload, LambdaContext("season"))["outcome"] == "not_yet"
    clock.advance(timedelta(days=6))
    assert fire(payload, LambdaContext("season"))["outcome"] == "closed"
    assert fire(payload, LambdaContext("season"))["outcome"] == "already_closed"
    closed = _get(api, "s-now")
    final = api.call("GET", "/seasons/{season_id}/super-final", params={"season_id": "s-now"}).body
    assert closed["status"] == "closed" and closed["to_invite"] == [r["tavla_id"] for r in final["invited"]]
    assert len(closed["to_invite"]) == 2
    again = _put(api, "s-now", start, end + timedelta(days=30))
    assert (again.status, again.error) == (409, "season_closed")
    _played(api, "s-now", ["e", "f", "g", "h"])
    deliver(bus)
    assert _points(api, "s-now") == [200, 140, 100, 100]


def test_changed_season_settings_recount_the_standings_at_once(api: Api, bus: Published) -> None:
    """R10.4: an admin changes the regional coefficient from 2 to 3: the standings show the
    new points as soon as the change is delivered, not at the next nightly rebuild."""
    today = clock.now().date()
    start, end = today - timedelta(days=10), today + timedelta(days=50)
    assert _put(api, "s-change", start, end).status == 200
    tid = _played(api, "s-change", ["a", "b", "c", "d"])
    deliver(bus)
    assert _points(api, "s-change") == [200, 140, 100, 100]
    rows = api.call("GET", "/seasons/{season_id}/standings", params={"season_id": "s-change"}).body["rows"]
    assert [r["by_tournament"] for r in rows] == [{tid: n} for n in (200, 140, 100, 100)]
    coefficients = {"local": "1", "regional": "3", "national": "3", "major": "4"}
    assert _put(api, "s-change", start, end, settings={"coefficients": coefficients}).status == 200
    deliver(bus)
    assert _points(api, "s-change") == [300, 210, 150, 150]


def test_the_list_of_seasons_filters_by_year_and_federation(api: Api, bus: Published) -> None:
    """R10.4: GET /seasons, the latest first, by year and federation; bad filters are 422."""
    assert _put(api, "gr-2025", date(2025, 1, 1), date(2025, 12, 31), federation="hellenic").status == 200
    assert _put(api, "gr-2026", date(2026, 1, 1), date(2026, 12, 31), federation="hellenic").status == 200
    assert _put(api, "it-2026", date(2026, 1, 1), date(2026, 12, 31), federation="italian").status == 200
    every = api.call("GET", "/seasons").body
    assert [s["id"] for s in every["seasons"]] == ["it-2026", "gr-2026", "gr-2025"] and every["total"] == 3
    greek = api.call("GET", "/seasons", query={"federation": "hellenic", "year": "2026"}).body
    assert [s["id"] for s in greek["seasons"]] == ["gr-2026"]
    paged = api.call("GET", "/seasons", query={"limit": "1", "offset": "1"}).body
    assert [s["id"] for s in paged["seasons"]] == ["gr-2026"] and paged["total"] == 3
    for bad in ({"year": "soon"}, {"federation": "Not A Slug"}, {"limit": "0"}):
        assert api.call("GET", "/seasons", query=bad).status == 422


def test_a_tournament_cannot_declare_a_season_that_does_not_exist(api: Api) -> None:
    """R10.4: a tournament's season points must go to a season that exists: 404 on create and
    on a change of settings, and nothing is created or changed."""
    before = api.call("GET", "/tournaments", query={"upcoming": "false"}).body["tournaments"]
    reply = api.call(
        "POST",
        "/tournaments",
        user=ORGANISER,
        groups=("organisers",),
        body=tournament_body(season_id="nope"),
    )
    assert (reply.status, reply.error) == (404, "season_not_found")
    assert api.call("GET", "/tournaments", query={"upcoming": "false"}).body["tournaments"] == before
    tid = create_tournament(api)
    path, params = "/tournaments/{tournament_id}", {"tournament_id": tid}
    changed = api.call("PATCH", path, params=params, user=ORGANISER, body={"season_id": "nope"})
    assert (changed.status, changed.error) == (404, "season_not_found")
    assert api.call("GET", path, params=params).body.get("season_id") is None
