"""The day moves on (R5.3, R6, R8.2): a result official -> the next match filled, seated, called."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from tavla.rules.results import Result
from tavla.rules.states import State
from tavla.services import progress
from tavla.store import draws as draw_store
from tavla.store.records import FixtureRecord
from tests.service.conftest import Api
from tests.service.day_helpers import checked_in_field, draw

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def _win(home_wins: bool = True) -> Any:
    def change(match: FixtureRecord, _: progress.DayView) -> FixtureRecord:
        assert match.home and match.away
        winner = match.home if home_wins else match.away
        result = {
            "winner": winner,
            "home_points": 7 if home_wins else 2,
            "away_points": 2 if home_wins else 7,
        }
        return replace(
            match, state=State.OFFICIAL, result=Result.from_json(result), official_at=NOW.isoformat()
        )

    return change


def _records(tournament_id: str) -> dict[str, FixtureRecord]:
    return {r.code: r for r in draw_store.fixtures(tournament_id, 99)}


def test_two_results_fill_the_next_match_and_call_it_to_a_free_table(api: Api) -> None:
    """R5.3, R6: both semi-finals official -> the final has its players and is called."""
    tournament_id, _ = checked_in_field(api, 4)
    assert draw(api, tournament_id).status == 201
    progress.settle(tournament_id, "main.R1.1", _win(), lambda a, b: [], NOW)
    final = _records(tournament_id)["main.R2.1"]
    assert final.state == "waiting" and final.home is not None and final.away is None
    settled = progress.settle(tournament_id, "main.R1.2", _win(False), lambda a, b: [], NOW)
    final = _records(tournament_id)["main.R2.1"]
    assert final.state == "called" and final.table is not None and final.away is not None
    assert [r.code for r in settled.called] == ["main.R2.1"]
    assert {r.code for r in settled.confirmed} == {"main.R1.2"}


def test_more_matches_than_tables_queue_and_take_the_first_freed_table(api: Api) -> None:
    """R6: 8 players, 2 tables: two matches called, two queued; a result frees a table for the next."""
    tournament_id, _ = checked_in_field(api, 8, tables=2)
    body = draw(api, tournament_id).body
    states = {m["code"]: (m["state"], m["table"]) for m in body["pairings"] if m["round"] == 1}
    assert states == {
        "main.R1.1": ("called", 1),
        "main.R1.2": ("called", 2),
        "main.R1.3": ("queued", None),
        "main.R1.4": ("queued", None),
    }
    progress.settle(tournament_id, "main.R1.2", _win(), lambda a, b: [], NOW)
    records = _records(tournament_id)
    assert (records["main.R1.3"].state, records["main.R1.3"].table) == ("called", 2)
    assert records["main.R1.4"].state == "queued"


def test_a_withdrawn_players_next_match_is_forfeited_as_soon_as_it_is_due(api: Api) -> None:
    """R8.2: the winner of R1.1 withdraws: when the final is due, the other finalist wins it."""
    tournament_id, _ = checked_in_field(api, 4)
    assert draw(api, tournament_id).status == 201
    progress.settle(tournament_id, "main.R1.1", _win(), lambda a, b: [], NOW)
    gone = _records(tournament_id)["main.R1.1"].home
    field = draw_store.day(tournament_id).field
    assert field is not None and gone is not None
    from tavla.store import keys
    from tavla.store.dynamo import client, table_name
    from tavla.store.schema import MAIN

    client().update_item(
        TableName=table_name(MAIN),
        Key=keys.field(tournament_id),
        UpdateExpression="SET withdrawn = :w",
        ExpressionAttributeValues={":w": {"L": [{"S": gone}]}},
    )
    progress.settle(tournament_id, "main.R1.2", _win(), lambda a, b: [], NOW)
    final = _records(tournament_id)["main.R2.1"]
    assert final.state == "official" and final.result is not None
    assert final.result.winner != gone and final.result.forfeit is True
