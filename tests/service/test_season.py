"""Season points, standings and the Super Final on the bus (R10.4, R10.5, R5.7, R8.3)."""

from __future__ import annotations

import importlib
from datetime import timedelta
from typing import Any

from tavla import clock, events
from tavla.rules.results import Result
from tavla.rules.states import State
from tavla.services import rebuild
from tests.service.board_helpers import set_field
from tests.service.conftest import Api, LambdaContext
from tests.service.helpers import create_tournament
from tests.service.season_helpers import Published, bus, deliver, entered, event, finish, play_out, season_fn

__all__ = ["bus"]

notify = importlib.import_module("functions.notify.handler")
ADMIN = {"user": "fed", "groups": ("admins",)}


def _season(api: Api, season_id: str = "s2027", **settings: Any) -> None:
    body = {"name": "Season 2027", "starts_on": "2026-01-01", "ends_on": "2027-12-31", "settings": settings}
    reply = api.call("PUT", "/seasons/{season_id}", params={"season_id": season_id}, body=body, **ADMIN)
    assert reply.status == 200, reply.body


def _standings(api: Api, season_id: str = "s2027") -> list[dict[str, Any]]:
    reply = api.call("GET", "/seasons/{season_id}/standings", params={"season_id": season_id})
    assert reply.status == 200, reply.body
    return list(reply.body["rows"])


def _tournament(api: Api, users: list[str], level: str = "regional") -> tuple[str, list[str]]:
    """A 4-player knockout of the season, the lower Tavla ID winning every match; finished."""
    tid, ids = entered(api, users, season_id="s2027", level=level)
    play_out(tid, lambda m: m.home < m.away)
    finish(api, tid)
    return tid, ids


def test_a_season_is_data_with_shipped_defaults(api: Api) -> None:
    """R10.4: dates, placement table, coefficients and invited count; defaults when left out."""
    _season(api)
    body = api.call("GET", "/seasons/{season_id}", params={"season_id": "s2027"}).body
    assert body["settings"]["coefficients"] == {"local": "1", "regional": "2", "national": "3", "major": "4"}
    assert body["settings"]["super_final_size"] == 16
    assert [b["points"] for b in body["settings"]["base_points"]] == [100, 70, 50, 30, 15, 8]
    bad = {"name": "S", "starts_on": "2027-01-01", "ends_on": "2026-01-01"}
    reply = api.call("PUT", "/seasons/{season_id}", params={"season_id": "s2"}, body=bad, **ADMIN)
    assert reply.status == 422
    assert api.call("GET", "/seasons/{season_id}", params={"season_id": "s2"}).status == 404


def test_a_finished_tournament_adds_its_points_once_ranked_by_r10_5(api: Api, bus: Published) -> None:
    """R10.4: place points x the level's coefficient; the same TournamentFinished twice counts once;
    the two semi-final losers tie on points and are split by their opponents' season points (R10.5)."""
    _season(api)
    _tournament(api, ["a", "b", "c", "d"])
    finished = [(k, d) for k, d in bus if k == events.TOURNAMENT_FINISHED]
    deliver(bus)
    bus.extend(finished)
    deliver(bus)
    rows = _standings(api)
    assert [r["points"] for r in rows] == [200, 140, 100, 100]
    assert [r["place"] for r in rows] == [1, 2, 3, 4]
    third, fourth = rows[2], rows[3]
    assert third["opponents_points"] > fourth["opponents_points"] and not third["drawn"]
    assert all(r["tournaments"] == 1 for r in rows)


def test_the_season_calendar_lists_its_tournaments_and_which_counted(api: Api, bus: Published) -> None:
    """R10.4: the season's calendar holds the tournaments that declared it, by start time, the
    finished one marked counted once its points are in; another season's are not listed; an
    unknown season is 404."""
    _season(api)
    _season(api, "other")
    played, _ = _tournament(api, ["a", "b", "c", "d"])
    upcoming = create_tournament(api, season_id="s2027", level="major", name="Major of Athens")
    create_tournament(api, season_id="other")
    calendar = lambda: api.call("GET", "/seasons/{season_id}/tournaments", params={"season_id": "s2027"})  # noqa: E731
    before = {t["id"]: (t["status"], t["counted"]) for t in calendar().body["tournaments"]}
    assert before == {played: ("finished", False), upcoming: ("open", False)}
    deliver(bus)
    listed = calendar().body["tournaments"]
    assert [(t["id"], t["counted"]) for t in listed] == [(played, True), (upcoming, False)]
    assert (listed[1]["level"], listed[1]["name"]) == ("major", "Major of Athens")
    missing = api.call("GET", "/seasons/{season_id}/tournaments", params={"season_id": "nope"})
    assert (missing.status, missing.error) == (404, "season_not_found")


def test_a_disqualified_player_gets_no_season_points(api: Api, bus: Published) -> None:
    """R8.3: the disqualified player has no place and no points; the places close up."""
    _season(api)
    tid, ids = entered(api, ["a", "b", "c", "d"], season_id="s2027", level="local")
    play_out(tid, lambda m: m.home < m.away)
    cheat = sorted(ids)[0]
    set_field(tid, disqualified=[cheat])
    finish(api, tid)
    deliver(bus)
    rows = _standings(api)
    assert cheat not in {r["tavla_id"] for r in rows}
    assert rows[0]["points"] == 100


def test_super_final_invitations_reach_the_leaders_with_lives_by_season_place(
    api: Api, bus: Published
) -> None:
    """R10.4, R5.7: at the season's close the top N (ties settled by R10.5's chain) are invited
    and told, with their starting lives and the deadline to answer; nobody else hears of it.
    Before the close there is nothing to send; an admin's reminder tells the same players again."""
    _season(
        api, super_final_size=3, final_lives={"tiers": [{"up_to_place": 1, "lives": 3}], "other_lives": 2}
    )
    _tournament(api, ["a", "b", "c", "d"])
    deliver(bus)
    table = _standings(api)
    final = api.call("GET", "/seasons/{season_id}/super-final", params={"season_id": "s2027"}).body
    assert [r["tavla_id"] for r in final["invited"]] == [r["tavla_id"] for r in table[:3]]
    assert list(final["lives"].values()) == [3, 2, 2]
    path, params = "/seasons/{season_id}/super-final/invitations", {"season_id": "s2027"}
    assert api.call("POST", path, params=params, user="a").status == 403
    early = api.call("POST", path, params=params, **ADMIN)
    assert (early.status, early.error) == (409, "season_not_closed") and bus == []
    before = api.call("GET", "/seasons/{season_id}/invitations", params={"season_id": "s2027"})
    assert before.status == 200, before.body  # public: nobody invited yet, said so
    assert (before.body["frozen"], before.body["seats"], before.body["accepted"]) == (False, 3, [])
    clock.advance(timedelta(days=400))  # past the season's end date: its schedule closes it
    assert season_fn.handler({"close_season": "s2027"}, LambdaContext("season"))["outcome"] == "closed"
    sent = [(k, d) for k, d in bus if k == events.SUPER_FINAL_INVITED]
    assert len(sent) == 3
    for kind, detail in sent:
        notify.handler(event(kind, detail), LambdaContext("notify"))
    bus.clear()
    for user in ("a", "b", "c", "d"):
        feed = api.call("GET", "/me/notifications", user=user).body
        mine = api.call("GET", "/me", user=user).body["tavla_id"]
        invited = mine in final["lives"]
        assert [n["kind"] for n in feed] == (["super_final"] if invited else [])
        if invited:
            # in the player's language: Greek unless the profile says otherwise
            assert (
                f"ξεκινάτε με {final['lives'][mine]} ζωές" in feed[0]["message"]
                and "Απαντήστε (αποδοχή ή άρνηση) έως" in feed[0]["message"]
            )
    reminded = api.call("POST", path, params=params, **ADMIN)
    assert reminded.status == 200 and len(reminded.body["pending"]) == 3
    assert sorted(d["invited"][0]["tavla_id"] for k, d in bus) == sorted(final["lives"])


def test_the_rebuild_equals_the_incremental_season_after_a_merge_and_an_appeal(
    api: Api, bus: Published
) -> None:
    """R10.5, R1.1, R9: a season of tournaments, a result changed by an appeal decision and an
    account merge: the incremental ratings and points equal the rebuild from the record."""
    from dataclasses import replace

    from tavla.services import progress
    from tavla.store.records import FixtureRecord
    from tests.service.season_helpers import _id_of_user

    _season(api)
    t1, _ = entered(api, ["a", "b", "c", "d"], season_id="s2027", level="local")
    play_out(t1, lambda m: m.home < m.away)

    def overturn(match: FixtureRecord, _: progress.DayView) -> FixtureRecord:
        assert match.home and match.away and match.result
        loser = match.away if match.result.winner == match.home else match.home
        result = {"winner": loser, "home_points": 1, "away_points": match.length, "how": "decision"}
        if loser == match.home:
            result.update(home_points=match.length, away_points=1)
        return replace(
            match, state=State.OFFICIAL, result=Result.from_json(result), official_at=clock.now().isoformat()
        )

    progress.settle(t1, "main.R2.1", overturn, lambda a, b: [], clock.now())  # the final, on appeal
    finish(api, t1)
    _tournament(api, ["e", "f", "dup", "h"])
    _tournament(api, ["a", "e", "f", "h"], level="national")
    deliver(bus)
    keep, dup = _id_of_user("b"), _id_of_user("dup")
    merged = api.call("POST", "/admin/players/merge", body={"keep": keep, "merge": dup}, **ADMIN)
    assert merged.status == 200, merged.body
    deliver(bus)
    rows = {r["tavla_id"]: r for r in _standings(api)}
    assert dup not in rows and rows[keep]["tournaments"] == 2
    report = rebuild.nightly(clock.now(), repair=False)
    assert report.clean, report.summary()
    assert report.results == 9 and report.tournaments == 3
