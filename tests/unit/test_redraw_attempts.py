"""Which attempt of a draw readers see, and where each attempt's matches live (decision 0047)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tavla.rules.model import FixtureRecord
from tavla.rules.states import State
from tavla.store import keys
from tavla.store.draws import shown
from tavla.store.matches import on_shown_attempt
from tavla.store.records import TournamentRecord


def _tournament(draws: int, attempts: dict[str, int] | None = None) -> TournamentRecord:
    item: dict[str, Any] = {
        "id": "t1",
        "status": "running",
        "checkin_open": False,
        "registered": 8,
        "waiting": 0,
        "wait_seq": 0,
        "version": 1,
        "created_at": "2026-12-01T09:00:00+00:00",
        "created_by": "sub",
        "name": "Cup",
        "draws": draws,
        **({"attempts": attempts} if attempts else {}),
    }
    return TournamentRecord.from_item(item)


def _match(draw: int, attempt: int, code: str = "main.S1.1") -> FixtureRecord:
    return FixtureRecord(
        tournament_id="t1",
        code=code,
        draw=draw,
        event="main",
        round=1,
        label="S1",
        board=1,
        stage="swiss",
        length=7,
        home_source={},
        away_source={},
        state=State.QUEUED,
        attempt=attempt,
    )


def test_the_first_attempt_keeps_the_code_key_and_a_redraw_has_keys_of_its_own() -> None:
    assert keys.match("t1", "main.S1.1") == keys.match("t1", "main.S1.1", 1)
    assert keys.match("t1", "main.S1.1", 2)["sk"]["S"] == "MATCH#main.S1.1#2"
    assert keys.match("t1", "main.S1.1", 2) != keys.match("t1", "main.S1.1", 3)


def test_the_switch_is_not_a_setting_of_the_tournament() -> None:
    tournament = _tournament(1, {"1": 2})
    assert tournament.attempt_of(1) == 2 and tournament.attempt_of(2) == 1
    assert "attempts" not in tournament.settings and "attempts" not in tournament.public()


@given(
    draws=st.integers(1, 5),
    draw=st.integers(1, 6),
    shown_attempt=st.integers(1, 4),
    attempt=st.integers(1, 4),
)
def test_readers_see_a_published_draw_at_the_attempt_its_tournament_names_only(
    draws: int, draw: int, shown_attempt: int, attempt: int
) -> None:
    tournament = _tournament(draws, {str(draw): shown_attempt} if shown_attempt > 1 else None)
    assert shown(tournament, _match(draw, attempt)) == (draw <= draws and attempt == shown_attempt)
    assert not shown(None, _match(draw, attempt))


def test_a_write_conditions_on_its_draws_attempt_and_no_fence() -> None:
    condition, names, values = on_shown_attempt([_match(1, 1), _match(2, 3, "main.S2.1")])
    assert "attribute_not_exists(#attempts.#draw1)" in condition
    assert "#attempts.#draw2 = :attempt2" in condition and values["attempt2"] == 3
    assert condition.count("#redrawing.#fence_draw <>") == 2
    assert names["#draw1"] == "1" and names["#draw2"] == "2"
    assert on_shown_attempt([]) == ("", {}, {})
