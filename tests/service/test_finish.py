"""Finishing a tournament and the federation report (R2.3, R8.3, R10.1, R10.2)."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from typing import Any

import pytest

from tavla import events
from tavla.services import progress
from tavla.store.records import FixtureRecord
from tests.service.board_helpers import (
    NOW,
    four_drawn_and_a_winner_disqualified,
    play_out,
    raw_call,
    records,
    settle,
)
from tests.service.conftest import Api
from tests.service.day_helpers import checked_in_field, draw
from tests.service.helpers import ORGANISER, bus_taking, create_player, register

FINISH = "/tournaments/{tournament_id}/finish"
REPORT = "/tournaments/{tournament_id}/report"

Published = list[tuple[str, dict[str, Any]]]


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> Published:
    """Every event put on the bus, in order (the bus itself is not read back)."""
    seen: Published = []
    monkeypatch.setattr(events, "put_on_bus", bus_taking(lambda kind, detail: seen.append((kind, detail))))
    return seen


def _finish(api: Api, tournament_id: str, user: str = ORGANISER) -> Any:
    return api.call("POST", FINISH, params={"tournament_id": tournament_id}, user=user)


def _finished(published: Published) -> list[dict[str, Any]]:
    return [detail for kind, detail in published if kind == events.TOURNAMENT_FINISHED]


def test_finish_is_refused_until_the_last_result_is_official(api: Api, published: Published) -> None:
    """Every match decided first: before the final's result, 409 not_finished and nothing announced."""
    tournament_id, _ = checked_in_field(api, 4)
    reply = _finish(api, tournament_id)
    assert (reply.status, reply.error) == (409, "not_finished")  # nothing drawn yet
    assert draw(api, tournament_id).status == 201
    settle(tournament_id, "main.R1.1", True, 7, 0)
    settle(tournament_id, "main.R1.2", True, 7, 0)
    reply = _finish(api, tournament_id)
    assert (reply.status, reply.error) == (409, "not_finished")
    assert _finished(published) == []
    settle(tournament_id, "main.R2.1", False, 3, 7)
    assert _finish(api, tournament_id).status == 200


def test_finish_waits_for_a_swiss_round_still_to_draw(api: Api, published: Published) -> None:
    """No draw may be due: every result of round 1 official, round 2 not drawn -> 409 not_finished."""
    tournament_id, _ = checked_in_field(api, 4, format="swiss", swiss_rounds=2)
    assert draw(api, tournament_id).status == 201
    play_out(tournament_id)
    reply = _finish(api, tournament_id)
    assert (reply.status, reply.error) == (409, "not_finished")
    assert draw(api, tournament_id).status == 201
    play_out(tournament_id)
    body = _finish(api, tournament_id).body
    assert body["events"][0]["rows"][0]["place"] == 1
    assert body["events"][0]["system"] == "table"


def test_finish_stores_the_standings_announces_them_once_and_is_idempotent(
    api: Api, published: Published
) -> None:
    """R10.1: final standings stored, the tournament finished, TournamentFinished on the bus once."""
    tournament_id, _ = checked_in_field(api, 8, level="regional")
    assert draw(api, tournament_id).status == 201
    play_out(tournament_id)
    first = _finish(api, tournament_id)
    assert first.status == 200, first.body
    [main] = first.body["events"]
    assert [r["label"] for r in main["rows"]] == ["1", "2", "3-4", "3-4", "5-8", "5-8", "5-8", "5-8"]
    page = api.call("GET", "/tournaments/{tournament_id}", params={"tournament_id": tournament_id}).body
    assert page["status"] == "finished" and page["finished_at"] == first.body["finished_at"]
    [announced] = _finished(published)
    assert announced["tournament_id"] == tournament_id and announced["level"] == "regional"
    assert announced["events"]["main"] == [
        {"tavla_id": r["player"]["tavla_id"], "place": r["place"], "place_to": r["place_to"]}
        for r in main["rows"]
    ]
    again = _finish(api, tournament_id)
    assert (again.status, again.body) == (200, first.body)
    assert len(_finished(published)) == 1
    standings = api.call(
        "GET", "/tournaments/{tournament_id}/standings", params={"tournament_id": tournament_id}
    )
    assert standings.body["final"] is True and standings.body["events"] == first.body["events"]
    reply = draw(api, tournament_id)
    assert (reply.status, reply.error) == (409, "nothing_to_draw")


def test_a_disqualified_player_gets_no_place_and_no_season_points(api: Api, published: Published) -> None:
    """R8.3: the disqualified player is in no event's places; the event names them apart."""
    tournament_id, cheat = four_drawn_and_a_winner_disqualified(api)
    play_out(tournament_id)
    body = _finish(api, tournament_id).body
    assert cheat not in json.dumps(body["events"])
    [announced] = _finished(published)
    assert cheat not in [p["tavla_id"] for p in announced["events"]["main"]]
    assert announced["disqualified"] == [cheat]
    assert [(p["place"], p["place_to"]) for p in announced["events"]["main"]] == [(1, 1), (2, 3), (2, 3)]


def test_finish_waits_for_an_open_appeal(api: Api, published: Published) -> None:
    """R9.2: an open appeal freezes the result: 409 appeal_open."""
    tournament_id, _ = checked_in_field(api, 2)
    assert draw(api, tournament_id).status == 201
    play_out(tournament_id)

    def appealed(match: FixtureRecord, _: progress.DayView) -> FixtureRecord:
        return replace(match, appeal="appeal-1")

    progress.settle(tournament_id, "main.R1.1", appealed, lambda a, b: [], NOW)
    reply = _finish(api, tournament_id)
    assert (reply.status, reply.error) == (409, "appeal_open")
    assert _finished(published) == []


def _refused_entry(api: Api, tournament_id: str, name: str = "=HYPERLINK(1)") -> str:
    """A late entry the organiser refuses (R3.7): approval switched on, one registration, refused."""
    reply = api.call(
        "PATCH",
        "/tournaments/{tournament_id}",
        params={"tournament_id": tournament_id},
        body={"requires_approval": True},
        user=ORGANISER,
    )
    assert reply.status == 200, reply.body
    refused = create_player(api, "late-comer", name=name, club="Club Late")
    assert register(api, tournament_id, "late-comer").body["status"] == "pending"
    path = "/tournaments/{tournament_id}/registrations/{tavla_id}/refuse"
    reply = api.call(
        "POST", path, params={"tournament_id": tournament_id, "tavla_id": refused}, user=ORGANISER
    )
    assert reply.status == 200, reply.body
    return refused


def test_the_report_holds_results_refused_entries_and_the_trail_as_json(
    api: Api, published: Published
) -> None:
    """R2.3: results (round, players, score, forfeit), refused entries, the audit trail by action."""
    tournament_id, players = checked_in_field(api, 4)
    refused = _refused_entry(api, tournament_id)
    assert draw(api, tournament_id).status == 201
    play_out(tournament_id)
    assert _finish(api, tournament_id).status == 200
    reply = api.call("GET", REPORT, params={"tournament_id": tournament_id}, user=ORGANISER)
    assert reply.status == 200, reply.body
    report = reply.body
    assert [r["code"] for r in report["results"]] == ["main.R1.1", "main.R1.2", "main.R2.1"]
    final = report["results"][-1]
    final_length = records(tournament_id)["main.R2.1"].length  # the final may be longer (R7.3)
    assert final["label"] == "R2" and (final["home_points"], final["away_points"]) == (final_length, 2)
    assert final["forfeit"] is False and final["home"]["name"].startswith("Player ")
    assert final["winner"] == final["home"]["tavla_id"]
    assert report["refused"] == [
        {
            "player": {"tavla_id": refused, "name": "=HYPERLINK(1)", "club": "Club Late"},
            "division": "main",
            "registered_at": report["refused"][0]["registered_at"],
        }
    ]
    assert {"refused", "draw_published", "finished", "checked_in"} <= set(report["actions"])
    assert report["actions"]["refused"][0]["details"]["tavla_id"] == refused
    assert report["status"] == "finished" and report["standings"][0]["rows"][0]["place"] == 1
    assert {row["player"]["tavla_id"] for row in report["standings"][0]["rows"]} == set(players)


def test_the_report_as_csv_is_one_table_with_a_kind_column(api: Api, published: Published) -> None:
    """R2.3: `format=csv` gives text/csv: results, standings, refused entries, actions; no formulas."""
    tournament_id, _ = checked_in_field(api, 4)
    refused = _refused_entry(api, tournament_id)
    assert draw(api, tournament_id).status == 201
    settle(tournament_id, "main.R1.1", True, 7, 5)
    answer = raw_call(
        api, "GET", REPORT, params={"tournament_id": tournament_id}, query={"format": "csv"}, user=ORGANISER
    )
    assert answer["statusCode"] == 200
    assert answer["headers"]["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer["body"])))
    kinds = {r["kind"] for r in rows}
    assert {"result", "standing", "refused_entry", "action"} <= kinds
    [result] = [r for r in rows if r["kind"] == "result"]
    assert (result["match"], result["round"], result["home_points"], result["away_points"]) == (
        "main.R1.1",
        "R1",
        "7",
        "5",
    )
    assert result["forfeit"] == "no" and result["winner"] == result["home"]
    [entry] = [r for r in rows if r["kind"] == "refused_entry"]
    assert entry["tavla_id"] == refused and entry["name"] == "'=HYPERLINK(1)"  # text, never a formula
    refusal = next(r for r in rows if r["kind"] == "action" and r["action"] == "refused")
    assert refusal["tavla_id"] == refused and json.loads(refusal["details"])["division"] == "main"


def test_a_separator_in_a_name_cannot_start_a_formula_in_the_report(api: Api) -> None:
    """R2.3: `Eve;=1+2` is two cells to a spreadsheet splitting on `;` (the Greek locale's
    separator): the federation report writes it as `Eve;'=1+2`, text in both."""
    tournament_id, _ = checked_in_field(api, 2)
    refused = _refused_entry(api, tournament_id, name="Eve;=1+2")
    answer = raw_call(
        api, "GET", REPORT, params={"tournament_id": tournament_id}, query={"format": "csv"}, user=ORGANISER
    )
    [entry] = [r for r in csv.DictReader(io.StringIO(answer["body"])) if r["kind"] == "refused_entry"]
    assert (entry["tavla_id"], entry["name"]) == (refused, "Eve;'=1+2")


def test_the_referee_may_read_the_report(api: Api) -> None:
    """R2.3: the tournament's staff read the report; the JSON answer is application/json."""
    from tests.service.helpers import appoint_referee

    tournament_id, _ = checked_in_field(api, 2)
    appoint_referee(api, tournament_id, create_player(api, "the-referee"))
    answer = raw_call(api, "GET", REPORT, params={"tournament_id": tournament_id}, user="the-referee")
    assert answer["statusCode"] == 200 and answer["headers"]["Content-Type"] == "application/json"
    assert json.loads(answer["body"])["results"] == []


def test_a_finished_tournament_keeps_its_results(api: Api, published: Published) -> None:
    """R10.1: once finished, the final standings are the record: a re-confirmed score, an appeal,
    a penalty or a disqualification gets 409 tournament_finished and changes nothing."""
    tournament_id, players = checked_in_field(api, 4)
    assert draw(api, tournament_id).status == 201
    play_out(tournament_id)
    assert _finish(api, tournament_id).status == 200
    before = records(tournament_id)
    final = f"{tournament_id}.main.R2.1"
    winner = before["main.R2.1"].home
    attempts = [
        (
            "POST",
            "/matches/{match_id}/confirm",
            {"match_id": final},
            {"home_points": 0, "away_points": before["main.R2.1"].length},
        ),
        (
            "POST",
            "/tournaments/{tournament_id}/penalties",
            {"tournament_id": tournament_id},
            {"tavla_id": winner, "kind": "warning", "reason": "found out later", "match_id": final},
        ),
        (
            "POST",
            "/tournaments/{tournament_id}/disqualifications",
            {"tournament_id": tournament_id},
            {"tavla_id": winner, "reason": "found out later"},
        ),
    ]
    for method, path, params, body in attempts:
        reply = api.call(method, path, params=params, body=body, user=ORGANISER)
        assert (reply.status, reply.error) == (409, "tournament_finished"), (path, reply.body)
    loser_user = f"player-{players.index(str(before['main.R2.1'].away))}"
    appeal = {"kind": "score", "statement": "the last game was miscounted"}
    reply = api.call(
        "POST", "/matches/{match_id}/appeals", params={"match_id": final}, body=appeal, user=loser_user
    )
    assert (reply.status, reply.error) == (409, "tournament_finished")
    assert records(tournament_id) == before
