"""The day moves on (R5.3, R6): a result official -> the next match filled, seated, called.

The wiring only (the day read, changed by `rules.model.Day`, saved); the day's cases
themselves (queues, freed tables, forfeits of players out of play) are unit tests of the
aggregate in tests/unit/rules/test_model.py."""

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
    return {r.code: r for r in draw_store.fixtures(draw_store.day(tournament_id).tournament, 99)}


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
