"""The venue board and the standings (R10.1, R10.2, R8.3, R12.1), over the handlers on moto."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from tavla.rules.score_entries import GamePlayed
from tavla.rules.states import State
from tavla.services import progress
from tavla.store.records import FixtureRecord
from tests.service.board_helpers import (
    NOW,
    four_drawn_and_a_winner_disqualified,
    play_out,
    raw_call,
    records,
    settle,
    swiss_tie_break_day,
    table_figures,
)
from tests.service.conftest import Api
from tests.service.day_helpers import checked_in_field, draw
from tests.service.helpers import dynamodb_calls

BOARD = "/tournaments/{tournament_id}/board"
STANDINGS = "/tournaments/{tournament_id}/standings"


def _get(api: Api, path: str, tournament_id: str) -> Any:
    reply = api.call("GET", path, params={"tournament_id": tournament_id})
    assert reply.status == 200, reply.body
    return reply.body


def _places(event: dict[str, Any]) -> list[tuple[str, str]]:
    return [(row["label"], row["player"]["tavla_id"]) for row in event["rows"]]


def test_a_finished_single_elimination_shares_places_by_round_out(api: Api) -> None:
    """R10.1: 8 players: the winner 1, the finalist 2, semi-final losers 3-4, quarter-final losers 5-8."""
    tournament_id, players = checked_in_field(api, 8)
    assert draw(api, tournament_id).status == 201
    play_out(tournament_id)
    played = records(tournament_id)
    final = played["main.R3.1"]
    assert final.result is not None
    body = _get(api, STANDINGS, tournament_id)
    assert body["final"] is False  # official results, but nobody has finished the tournament yet
    [main] = body["events"]
    assert main["event"] == "main" and main["system"] == "knockout"
    labels = [label for label, _ in _places(main)]
    assert labels == ["1", "2", "3-4", "3-4", "5-8", "5-8", "5-8", "5-8"]
    by_label: dict[str, set[str]] = {}
    for label, player in _places(main):
        by_label.setdefault(label, set()).add(player)
    assert by_label["1"] == {final.result.winner}
    assert by_label["2"] == {final.home, final.away} - {final.result.winner}
    semi_losers = {played[f"main.R2.{i}"].away for i in (1, 2)}  # home wins every match here
    assert by_label["3-4"] == semi_losers
    assert set().union(*by_label.values()) == set(players)
    assert all(row["points"] is None for row in main["rows"])  # no table figures in a knockout


def test_swiss_places_follow_the_tie_break_chain(api: Api) -> None:
    """R10.2: level on points, head-to-head comes before point difference; every figure is shown.

    Round 1: X beats Y 7-6, W beats Z 7-0. Round 2: W beats X 7-0, Y beats Z 7-0. X and Y
    both have 1 point; Y's point difference (+6) is better than X's (-6), but X beat Y, so X
    is second.
    """
    tournament_id, (w, x, y, z) = swiss_tie_break_day(api)
    [main] = _get(api, STANDINGS, tournament_id)["events"]
    assert main["system"] == "table"
    figures = table_figures(main)
    assert [row["player"]["tavla_id"] for row in main["rows"]] == [w, x, y, z]
    assert figures == {
        w: ("1", 2, 0, 0, 14, 1),
        x: ("2", 1, 1, 1, -6, 3),
        y: ("3", 1, 0, -1, 6, 1),
        z: ("4", 0, 0, 0, -14, 3),
    }


def test_a_disqualified_player_has_no_place_and_the_others_close_up(api: Api) -> None:
    """R8.3: A wins round 1 and is disqualified: the final is forfeited, A is in no place."""
    tournament_id, a = four_drawn_and_a_winner_disqualified(api)
    settle(tournament_id, "main.R1.2", True, 7, 1)
    final = records(tournament_id)["main.R2.1"]
    assert final.state == "official" and final.result and final.result.forfeit is True
    [main] = _get(api, STANDINGS, tournament_id)["events"]
    assert a not in {tavla_id for _, tavla_id in _places(main)}
    assert [label for label, _ in _places(main)] == ["1", "2-3", "2-3"]
    assert _places(main)[0][1] == final.result.winner


def _live(match: FixtureRecord, _: progress.DayView) -> FixtureRecord:
    return replace(
        match,
        state=State.PLAYING,
        present={"home": NOW.isoformat(), "away": NOW.isoformat()},
        late_points={"away": 1},
        score=(3, 1),
        games=(GamePlayed(winner="home", cube=2), GamePlayed(winner="home"), GamePlayed(winner="away")),
    )


def test_the_board_shows_tables_queue_live_score_and_brackets(api: Api) -> None:
    """R6, R10: 8 players at 2 tables: who plays whom where, who waits, the live score, the bracket."""
    tournament_id, _ = checked_in_field(api, 8, tables=2)
    assert draw(api, tournament_id).status == 201
    progress.settle(tournament_id, "main.R1.1", _live, lambda a, b: [], NOW)
    board = _get(api, BOARD, tournament_id)
    assert board["tournament_id"] == tournament_id and board["status"] == "running"
    assert [r["number"] for r in board["current"]] == [1]
    on_tables = {t["table"]: t["match"]["code"] if t["match"] else None for t in board["tables"]}
    assert on_tables == {1: "main.R1.1", 2: "main.R1.2"}
    assert [m["code"] for m in board["queue"]] == ["main.R1.3", "main.R1.4"]
    live = board["tables"][0]["match"]
    assert live["state"] == "playing" and live["score"] == [3, 1] and live["games"] == 3
    assert live["present"] == ["home", "away"] and live["late_points"] == {"away": 1}
    assert live["home"]["name"].startswith("Player ") and live["home"]["club"].startswith("Club ")
    assert board["tables"][1]["match"]["state"] == "called" and board["tables"][1]["match"]["called_at"]
    [bracket] = board["brackets"]
    assert [(r["label"], len(r["matches"])) for r in bracket["rounds"]] == [("R1", 4), ("R2", 2), ("R3", 1)]
    semi = bracket["rounds"][1]["matches"][0]
    assert semi["state"] == "waiting" and semi["home_from"] == "winner of main.R1.1"
    [main] = board["standings"]
    assert {row["label"] for row in main["rows"]} == {"1-8"}  # nobody is out yet


def test_the_board_before_any_draw_is_empty_and_an_unknown_tournament_is_404(api: Api) -> None:
    tournament_id, _ = checked_in_field(api, 2)
    board = _get(api, BOARD, tournament_id)
    assert (board["current"], board["tables"], board["queue"], board["brackets"], board["standings"]) == (
        [],
        [],
        [],
        [],
        [],
    )
    reply = api.call("GET", BOARD, params={"tournament_id": "nope"})
    assert (reply.status, reply.error) == (404, "tournament_not_found")
    reply = api.call("GET", STANDINGS, params={"tournament_id": "nope"})
    assert (reply.status, reply.error) == (404, "tournament_not_found")


def test_the_board_is_cached_by_etag_and_answers_304_until_it_changes(api: Api) -> None:
    """Cheap to watch: ETag and a 5 s Cache-Control; If-None-Match with the tag gives 304."""
    tournament_id, _ = checked_in_field(api, 4)
    assert draw(api, tournament_id).status == 201
    params = {"tournament_id": tournament_id}
    first = raw_call(api, "GET", BOARD, params=params)
    tag = first["headers"]["ETag"]
    assert first["statusCode"] == 200 and first["headers"]["Cache-Control"] == "public, max-age=5"
    again = raw_call(api, "GET", BOARD, params=params, headers={"If-None-Match": tag})
    assert again["statusCode"] == 304 and not again["body"]
    weak = raw_call(api, "GET", BOARD, params=params, headers={"If-None-Match": f"W/{tag}"})
    assert weak["statusCode"] == 304  # CloudFront weakens the tag of a compressed answer
    settle(tournament_id, "main.R1.1", True, 7, 0)
    changed = raw_call(api, "GET", BOARD, params=params, headers={"If-None-Match": tag})
    assert changed["statusCode"] == 200 and changed["headers"]["ETag"] != tag
    assert json.loads(changed["body"])["brackets"][0]["rounds"][0]["matches"][0]["state"] == "official"


def test_the_board_shows_no_phone_or_email(api: Api) -> None:
    """R12.1: players with a phone and an e-mail appear by name and club only."""
    tournament_id, _ = checked_in_field(api, 4)
    secrets = []
    for i in range(4):
        phone, email = f"+30697123456{i}", f"player{i}@example.org"
        reply = api.call("PATCH", "/me", body={"phone": phone, "email": email}, user=f"player-{i}")
        assert reply.status == 200, reply.body
        secrets += [phone, phone[3:], email]
    assert draw(api, tournament_id).status == 201
    for path in (BOARD, STANDINGS):
        text = json.dumps(_get(api, path, tournament_id))
        assert not [s for s in (*secrets, "example.org", "phone", "email") if s in text], path


def test_a_board_costs_three_dynamodb_calls_whatever_the_field(api: Api) -> None:
    """Cheap to watch: the tournament, field and tables, the rounds, the matches: three calls."""
    tournament_id, _ = checked_in_field(api, 16)
    assert draw(api, tournament_id).status == 201
    settle(tournament_id, "main.R1.1", True, 7, 0)
    calls = dynamodb_calls(lambda: _get(api, BOARD, tournament_id))
    assert calls == ["BatchGetItem", "Query", "Query"]
    assert len(dynamodb_calls(lambda: _get(api, STANDINGS, tournament_id))) == 3


def test_the_board_carries_the_round_in_play_and_the_top_of_the_standings(api: Api, monkeypatch: Any) -> None:
    """R10.1, R5.1: a board stays small as a Swiss grows: round 2 in play shows round 2's matches
    only (round 1 is at its round's page), the latest round's results stay up until the next
    draw, and the standings show their top rows with the whole table's size (all of it at the
    standings route)."""
    from tavla.services import board

    monkeypatch.setattr(board, "BOARD_ROWS", 3)
    tournament_id, _ = checked_in_field(api, 8, format="swiss", swiss_rounds=3)
    assert draw(api, tournament_id).status == 201
    play_out(tournament_id)
    between = _get(api, BOARD, tournament_id)
    [bracket] = between["brackets"]
    assert [(r["label"], len(r["matches"])) for r in bracket["rounds"]] == [("S1", 4)]
    assert {m["state"] for m in bracket["rounds"][0]["matches"]} == {"official"}  # round 1's results
    assert draw(api, tournament_id).status == 201
    settle(tournament_id, "main.S2.1", True, 7, 2)
    drawn = _get(api, BOARD, tournament_id)
    [bracket] = drawn["brackets"]
    assert [(r["label"], len(r["matches"])) for r in bracket["rounds"]] == [("S2", 4)]
    assert [m["state"] for m in bracket["rounds"][0]["matches"]].count("official") == 1
    [main] = drawn["standings"]
    [whole] = _get(api, STANDINGS, tournament_id)["events"]
    assert (len(main["rows"]), main["total"], len(whole["rows"]), whole["total"]) == (3, 8, 8, 8)
    assert main["rows"] == whole["rows"][:3]  # the same places and tie-break figures
    first = api.call(
        "GET",
        "/tournaments/{tournament_id}/rounds/{number}",
        params={"tournament_id": tournament_id, "number": "1"},
    ).body
    assert {m["state"] for m in first["pairings"]} == {"official"} and len(first["pairings"]) == 4
