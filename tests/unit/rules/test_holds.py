"""Holds and constraints in the day engine (rules.model, rules.holds): a match whose player is
at a table elsewhere is not called (no MatchesCalled, so no no-show clock), waits with who holds
it, and is called once the player is free or staff release the hold; needs and the streamed
board are honoured by the draw's seating and by every change after it."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from tavla.errors import NotHeld
from tavla.rules import holds, operations
from tavla.rules.day import DaySettings, DrawInputs, compute_draw
from tavla.rules.entrants import Entrant
from tavla.rules.event_names import MATCHES_CALLED
from tavla.rules.model import SYSTEM, Day, DayChange, FieldRecord, TablesRecord
from tavla.rules.results import Result
from tavla.rules.states import State
from tavla.rules.venue import HELD, TABLES_BUSY
from tests.unit.rules.stored import stored_fixtures

NOW = datetime(2026, 6, 1, 10, 0, tzinfo=UTC)
T = "T1"
BESIDE = "J.main.R1.2"


def _drawn(
    players: int, tables: TablesRecord, elsewhere: dict[str, str] | None = None
) -> tuple[Day, DayChange]:
    field = tuple(Entrant(player_id=f"P{i}", rating=1500.0 + i) for i in range(players))
    drawn = compute_draw(
        DrawInputs(number=1, settings=DaySettings(format="single_elimination"), field=field), 7
    )
    bare = stored_fixtures(drawn.fixtures)
    entrants = tuple({"player_id": e.player_id, "rating": e.rating} for e in field)
    empty = Day(
        T, tables.count, FieldRecord(T, NOW.isoformat(), entrants), tables, {}, elsewhere=elsewhere or {}
    )
    change = empty.publish_draw(drawn, bare, NOW)
    assert change.tables is not None
    day = replace(
        empty,
        tables=replace(change.tables[0], version=1),
        matches={r.code: replace(r, version=1) for r, _ in change.matches},
        fixtures=drawn.fixtures,
    )
    return day, change


def _saved(day: Day, change: DayChange) -> Day:
    matches = dict(day.matches)
    for record, seen in change.matches:
        matches[record.code] = replace(record, version=(seen or 0) + 1)
    return replace(day, matches=matches, tables=change.tables[0] if change.tables else day.tables)


def _with_player(day: Day, player: str) -> str:
    return next(c for c, r in day.matches.items() if player in (r.home, r.away))


def _called(change: DayChange) -> list[str]:
    return [c for e in change.events if e.detail_type == MATCHES_CALLED for c in e.detail["codes"]]


def test_a_player_playing_beside_is_held_not_called_and_the_desk_says_by_whom() -> None:
    day, change = _drawn(4, TablesRecord(T, 4), {"P0": BESIDE})
    held = _with_player(day, "P0")
    assert day.matches[held].state == State.QUEUED and day.matches[held].called_at is None
    assert held not in _called(change)  # no MatchesCalled: no no-show clock runs for it
    waits = holds.waits(holds.plan_of(day.tables, (), day.elsewhere))  # type: ignore[arg-type]
    assert [(w.code, w.reason, w.by, w.player) for w in waits] == [(held, HELD, BESIDE, "P0")]


def test_a_held_match_is_called_when_its_player_is_free() -> None:
    day, _ = _drawn(4, TablesRecord(T, 4), {"P0": BESIDE})
    held = _with_player(day, "P0")
    change = replace(day, elsewhere={}).reseat(NOW)
    assert _called(change) == [held]
    assert change.after(held).state == State.CALLED  # type: ignore[union-attr]
    assert replace(day, elsewhere={}).reseat(NOW).tables is not None  # seating again is harmless


def test_staff_release_a_hold_and_the_match_is_called_while_the_player_is_still_elsewhere() -> None:
    day, _ = _drawn(4, TablesRecord(T, 4), {"P0": BESIDE})
    held = _with_player(day, "P0")
    assert day.tables is not None
    released = holds.release(day.tables, held, day.elsewhere)
    change = replace(day, tables=released).reseat(NOW)
    assert _called(change) == [held]


def test_only_a_held_match_can_be_released() -> None:
    day, _ = _drawn(4, TablesRecord(T, 4))
    assert day.tables is not None
    with pytest.raises(NotHeld):
        holds.release(day.tables, "main.R1.1", day.elsewhere)  # called already
    with pytest.raises(NotHeld):
        holds.release(day.tables, "main.R9.9", day.elsewhere)


def test_a_queued_match_waits_its_turn_and_takes_the_table_freed() -> None:
    # 4 players, 1 table: R1.2 queues; R1.1 over -> R1.2 takes its table
    day, _ = _drawn(4, TablesRecord(T, 1))
    first = day.matches["main.R1.1"]
    assert first.state == State.CALLED and day.matches["main.R1.2"].state == State.QUEUED
    waits = holds.waits(holds.plan_of(day.tables, (), {}))  # type: ignore[arg-type]
    assert [(w.code, w.reason) for w in waits] == [("main.R1.2", TABLES_BUSY)]
    assert first.home is not None and first.away is not None
    won = replace(first, state=State.OFFICIAL, result=Result.by_score(first.home, first.away, (7, 3)))
    change = day.settle("main.R1.1", won, NOW)
    assert _called(change) == ["main.R1.2"]


def test_an_accessible_need_seats_the_player_at_the_accessible_table_all_day() -> None:
    tables = TablesRecord(T, 4, attributes={"4": {"accessible": True}}, needs={"P0": ("accessible",)})
    day, _ = _drawn(8, tables)
    mine = _with_player(day, "P0")
    assert day.matches[mine].table == 4
    others = {r.table for c, r in day.matches.items() if c != mine and r.table}
    assert 4 not in others


def test_the_top_board_goes_to_the_streamed_table() -> None:
    tables = TablesRecord(T, 3, attributes={"2": {"streamed": True}}, stream_top=True)
    day, _ = _drawn(8, tables)
    top = next(r for r in day.matches.values() if r.board == 1 and r.round == 1)
    assert top.table == 2
    assert sorted(r.table for r in day.matches.values() if r.table) == [1, 2, 3]


def test_the_no_show_deadline_never_forfeits_a_player_still_playing_elsewhere() -> None:
    day, _ = _drawn(4, TablesRecord(T, 4))
    match = day.matches["main.R1.1"]
    assert match.home is not None and match.away is not None
    waiting = replace(match, present={"away": NOW.isoformat()})
    absent = operations.NoShow("home", 0, SYSTEM, NOW)
    with pytest.raises(operations.Unchanged):
        absent.after(waiting, replace(day, elsewhere={match.home: BESIDE}))
    assert absent.after(waiting, day).state == State.OFFICIAL  # free, absent: forfeited


def test_the_demands_kept_are_as_stored_so_a_change_rewrites_only_the_demands_it_changes() -> None:
    # DynamoDB drops None: a kept demand with `division: None` never equals the one read back,
    # and every change rewrote every demand of the plan (26 KB per confirmation at 256 players)
    day, change = _drawn(8, TablesRecord(T, 4))
    assert change.tables is not None
    kept = change.tables[0].demands
    assert kept and all(None not in d.values() for d in kept.values())
    stored = {c: {k: v for k, v in d.items() if v is not None} for c, d in kept.items()}
    assert day.tables is not None
    assert holds.demands_kept(holds.plan_of(replace(day.tables, demands=stored), (), {})) == kept
