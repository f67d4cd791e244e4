"""The season standings as a stored snapshot (R10.5): the season function ranks the
season once per finished tournament and GET /seasons/{id}/standings reads a page of it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tavla import clock, events
from tavla.services import rebuild, season
from tavla.store import season as season_store
from tests.service.conftest import Api
from tests.service.season_helpers import Published, bus, deliver, entered, finish, play_out

__all__ = ["bus"]

ADMIN = {"user": "fed", "groups": ("admins",)}
COMPARED = (
    "tavla_id",
    "place",
    "points",
    "tournaments",
    "head_to_head",
    "point_difference",
    "opponents_points",
)


@pytest.fixture(autouse=True)
def small_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three rows a snapshot page, so a season of eight players spans pages."""
    monkeypatch.setattr(season, "STANDINGS_PAGE_ROWS", 3)


def _season_of_three(api: Api, bus: Published) -> None:
    body = {"name": "Season 2027", "starts_on": "2026-01-01", "ends_on": "2027-12-31", "settings": {}}
    assert (
        api.call("PUT", "/seasons/{season_id}", params={"season_id": "s2027"}, body=body, **ADMIN).status
        == 200
    )
    for users, level in (
        (["a", "b", "c", "d"], "regional"),
        (["e", "f", "g", "h"], "regional"),  # the same points as the first: ties across tournaments
        (["a", "e", "c", "g"], "local"),
    ):
        tid, _ = entered(api, users, season_id="s2027", level=level)
        play_out(tid, lambda m: m.home < m.away)
        finish(api, tid)
    deliver(bus)


def _page(api: Api, limit: int, offset: int) -> dict[str, Any]:
    reply = api.call(
        "GET",
        "/seasons/{season_id}/standings",
        params={"season_id": "s2027"},
        query={"limit": str(limit), "offset": str(offset)},
    )
    assert reply.status == 200, reply.body
    return dict(reply.body)


def _ranked_per_request() -> list[dict[str, Any]]:
    """What the standings were before the snapshot: every entry ranked by R10.5 on the spot."""
    rows, _ = season.table("s2027")
    return [{**r.model_dump(), "tavla_id": r.player_id} for r in rows]


def test_the_snapshot_equals_the_per_request_ranking_page_by_page(api: Api, bus: Published) -> None:
    """R10.5: read two rows at a time across snapshot pages of three, the standings are exactly
    the ranking of every entry they replace (places, points and every tie-break)."""
    _season_of_three(api, bus)
    wanted = _ranked_per_request()
    assert len(wanted) == 8
    got: list[dict[str, Any]] = []
    for offset in range(0, 10, 2):
        page = _page(api, 2, offset)
        assert page["total"] == 8
        got += page["rows"]
    assert [{k: r[k] for k in COMPARED} for r in got] == [{k: r[k] for k in COMPARED} for r in wanted]
    assert [r["place"] for r in got] == list(range(1, 9))


def test_a_page_is_read_from_the_snapshot_without_ranking_any_entry(
    api: Api, bus: Published, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R10.5 at national size: a request reads the snapshot's head and its page, never the entries."""
    _season_of_three(api, bus)

    def no_ranking(_: str) -> None:
        raise AssertionError("a request read every season entry")

    monkeypatch.setattr(season_store, "entries", no_ranking)
    assert [r["place"] for r in _page(api, 3, 3)["rows"]] == [4, 5, 6]
    final = api.call("GET", "/seasons/{season_id}/super-final", params={"season_id": "s2027"})
    assert final.status == 200 and len(final.body["invited"]) == 8


def test_the_same_tournament_again_leaves_the_snapshot_as_it_was(api: Api, bus: Published) -> None:
    """R10.5: the roll-up may fire twice; the second TournamentFinished rewrites nothing."""
    body = {"name": "Season 2027", "starts_on": "2026-01-01", "ends_on": "2027-12-31", "settings": {}}
    api.call("PUT", "/seasons/{season_id}", params={"season_id": "s2027"}, body=body, **ADMIN)
    tid, _ = entered(api, ["a", "b", "c", "d"], season_id="s2027", level="local")
    play_out(tid, lambda m: m.home < m.away)
    finish(api, tid)
    finished = [(k, d) for k, d in bus if k == events.TOURNAMENT_FINISHED]
    deliver(bus)
    head, rows = season_store.snapshot("s2027"), _page(api, 10, 0)
    assert head is not None and head.counted == (tid,)
    bus.extend(finished)
    deliver(bus)
    assert season_store.snapshot("s2027") == head
    assert _page(api, 10, 0) == rows


def test_a_season_with_no_tournament_yet_has_empty_standings_and_an_unknown_one_is_404(api: Api) -> None:
    """R10.5: a season set by the federation and not yet played has no rows; no season, 404."""
    body = {"name": "Season 2028", "starts_on": "2028-01-01", "ends_on": "2028-12-31", "settings": {}}
    api.call("PUT", "/seasons/{season_id}", params={"season_id": "s2028"}, body=body, **ADMIN)
    reply = api.call("GET", "/seasons/{season_id}/standings", params={"season_id": "s2028"})
    assert reply.status == 200 and reply.body["rows"] == [] and reply.body["total"] == 0
    assert api.call("GET", "/seasons/{season_id}/standings", params={"season_id": "nope"}).status == 404


def test_the_nightly_rebuild_rewrites_a_stale_snapshot(api: Api, bus: Published) -> None:
    """R10.5: a snapshot that no longer matches the season's awards (a lost write, a bug) is
    found by the nightly rebuild and rewritten; the next night finds nothing."""
    _season_of_three(api, bus)
    good = _page(api, 10, 0)
    head = season_store.snapshot("s2027")
    assert head is not None
    lost = replace(head, version=head.version + 1, total=0, pages=0)  # a snapshot that lost its rows
    season_store.put_snapshot("s2027", [], lost, head)
    assert _page(api, 10, 0)["rows"] == []
    found = rebuild.nightly(clock.now())
    assert found.standings_differ == ["s2027"] and found.repaired
    assert _page(api, 10, 0) == good
    assert rebuild.nightly(clock.now()).clean
