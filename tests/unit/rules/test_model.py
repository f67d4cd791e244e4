"""The day aggregate without AWS: draws placed on tables, results flowing on, forfeits of
players out of play, appeals holding dependent matches, tables freed and re-seated (R5, R6,
R8, R9)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from tavla.rules.day import DaySettings, DrawInputs, compute_draw
from tavla.rules.entrants import Entrant
from tavla.rules.event_names import MATCHES_CALLED, RESULT_CONFIRMED
from tavla.rules.model import Day, DayChange, FieldRecord, FixtureRecord, bracket_of, locked
from tavla.rules.results import Result
from tavla.rules.states import AT_TABLE, OFF_TABLE, STARTED, State
from tests.unit.rules.stored import stored_fixtures

NOW = datetime(2026, 6, 1, 10, 0, tzinfo=UTC)
T = "T1"


def _drawn(players: int, tables: int) -> Day:
    """A single-elimination day of `players`, drawn and placed on `tables` tables."""
    field = tuple(Entrant(player_id=f"P{i}", rating=1500.0 + i) for i in range(players))
    inputs = DrawInputs(number=1, settings=DaySettings(format="single_elimination"), field=field)
    drawn = compute_draw(inputs, seed=7)
    entrants = tuple({"player_id": e.player_id, "rating": e.rating} for e in field)
    empty = Day(T, tables, FieldRecord(T, NOW.isoformat(), entrants), None, {})
    change = empty.publish_draw(drawn, stored_fixtures(drawn.fixtures), NOW)
    assert change.tables is not None
    return Day(
        T,
        tables,
        empty.field,
        replace(change.tables[0], version=1),
        {r.code: replace(r, version=1) for r, _ in change.matches},
        drawn.fixtures,
    )


def _apply(day: Day, change: DayChange) -> Day:
    """The day as it is once `change` is saved (what the next read would see)."""
    matches = dict(day.matches)
    for record, seen in change.matches:
        matches[record.code] = replace(record, version=(seen or 0) + 1)
    tables = day.tables
    if change.tables is not None:
        tables = change.tables[0]
    return replace(day, matches=matches, tables=tables)


def _won(day: Day, code: str, home: bool = True) -> FixtureRecord:
    match = day.matches[code]
    assert match.home and match.away
    points = (7, 3) if home else (3, 7)
    result = Result.by_score(match.home, match.away, points)
    return replace(match, state=State.OFFICIAL, result=result, official_at=NOW.isoformat())


def test_a_draw_seats_what_it_can_and_queues_the_rest() -> None:
    """R5.3, R6: 8 players on 2 tables: two first-round matches called, two queued, the
    later rounds wait; one MatchesCalled names the called matches in table order."""
    day = _drawn(8, tables=2)
    states = sorted(str(r.state) for r in day.matches.values() if r.round == 1)
    assert states == ["called", "called", "queued", "queued"]
    assert all(r.state == State.WAITING for r in day.matches.values() if r.round > 1)
    assert day.tables is not None and sorted(day.tables.occupied) == ["1", "2"]


def test_a_draw_announces_its_calls() -> None:
    """R6: the draw's change carries MatchesCalled with the called codes."""
    field = tuple(Entrant(player_id=f"P{i}", rating=1500.0) for i in range(4))
    drawn = compute_draw(
        DrawInputs(number=1, settings=DaySettings(format="single_elimination"), field=field), 1
    )
    day = Day(T, 8, None, None, {})
    change = day.publish_draw(drawn, stored_fixtures(drawn.fixtures), NOW)
    (event,) = change.events
    assert event.detail_type == MATCHES_CALLED
    assert set(event.detail["codes"]) == {r.code for r in change.called} and len(change.called) == 2
    assert change.tables is not None and change.tables[1] is None  # a new plan


def test_a_result_frees_its_table_and_calls_the_next_queued_match() -> None:
    """R6: the finished match gives up its table, the first queued match takes it."""
    day = _drawn(8, tables=2)
    first = next(r for r in day.matches.values() if r.state == State.CALLED)
    change = day.settle(first.code, _won(day, first.code), NOW)
    after = {r.code: r for r, _ in change.matches}
    assert after[first.code].table is None and after[first.code].state == State.OFFICIAL
    (called,) = change.called
    assert called.table == first.table and called.state == State.CALLED
    assert [e.detail_type for e in change.events] == [RESULT_CONFIRMED, MATCHES_CALLED]
    assert change.tables is not None and change.tables[1] == 1  # written on the version read
    assert all(seen == 1 for _, seen in change.matches)


def test_the_freed_table_goes_to_the_first_queued_match_and_the_rest_wait() -> None:
    """R6: 8 players, 2 tables: R1.1 and R1.2 called to tables 1 and 2, R1.3 and R1.4 queued;
    R1.2's result frees table 2 for R1.3, R1.4 still waits."""
    day = _drawn(8, tables=2)
    first_round = {c: (r.state, r.table) for c, r in day.matches.items() if r.round == 1}
    assert first_round == {
        "main.R1.1": (State.CALLED, 1),
        "main.R1.2": (State.CALLED, 2),
        "main.R1.3": (State.QUEUED, None),
        "main.R1.4": (State.QUEUED, None),
    }
    day = _apply(day, day.settle("main.R1.2", _won(day, "main.R1.2"), NOW))
    assert (day.matches["main.R1.3"].state, day.matches["main.R1.3"].table) == (State.CALLED, 2)
    assert day.matches["main.R1.4"].state == State.QUEUED


def test_one_semi_final_fills_half_the_final_and_the_second_calls_it() -> None:
    """R5.3, R6: one semi-final official -> the final waits with one player; the other ->
    it has both and is called to a free table; the change names what it called and confirmed."""
    day = _drawn(4, tables=2)
    day = _apply(day, day.settle("main.R1.1", _won(day, "main.R1.1"), NOW))
    final = day.matches["main.R2.1"]
    assert final.state == State.WAITING and final.home is not None and final.away is None
    change = day.settle("main.R1.2", _won(day, "main.R1.2", home=False), NOW)
    called = change.after("main.R2.1")
    assert called is not None and called.state == State.CALLED and called.table is not None
    assert called.away == day.matches["main.R1.2"].away
    assert [r.code for r in change.called] == ["main.R2.1"]
    assert {r.code for r in change.confirmed} == {"main.R1.2"}


def test_winners_flow_into_the_next_round() -> None:
    """R5.3: both semi-finals decided -> the final has its two players and is queued or called."""
    day = _drawn(4, tables=1)
    for code in ("main.R1.1", "main.R1.2"):
        day = _apply(day, day.settle(code, _won(day, code), NOW))
    final = day.matches["main.R2.1"]
    assert {final.home, final.away} == {day.matches["main.R1.1"].home, day.matches["main.R1.2"].home}
    assert final.state == State.CALLED and final.table == 1


def test_a_player_out_of_play_forfeits_the_match_they_are_due_in() -> None:
    """R8.2: a withdrawn player's next match is forfeited as soon as they are in it."""
    day = _drawn(4, tables=2)
    code = "main.R1.1"
    winner = day.matches[code].home
    assert winner is not None
    day = day.put_out(winner, "withdrawn")
    day = _apply(day, day.settle("main.R1.2", _won(day, "main.R1.2"), NOW))
    change = day.settle(code, _won(day, code), NOW)
    final = next(r for r, _ in change.matches if r.code == "main.R2.1")
    assert final.state == State.OFFICIAL and final.result is not None
    assert final.result.forfeit and final.result.how == "withdrawal" and final.result.winner != winner


def test_an_open_appeal_holds_the_matches_that_depend_on_it() -> None:
    """R9.2: while the semi-final is under appeal, the final is not called."""
    day = _drawn(4, tables=2)
    day = _apply(day, day.settle("main.R1.2", _won(day, "main.R1.2"), NOW))
    appealed = replace(_won(day, "main.R1.1"), appeal="T1.Aabc")
    change = day.settle("main.R1.1", appealed, NOW)
    final = next(r for r, _ in change.matches if r.code == "main.R2.1")
    assert final.state == State.QUEUED and final.table is None
    assert not change.called


def test_a_started_dependent_locks_the_result() -> None:
    """R9.4: once the final is being played, the semi-final's result no longer changes."""
    day = _drawn(4, tables=2)
    for code in ("main.R1.1", "main.R1.2"):
        day = _apply(day, day.settle(code, _won(day, code), NOW))
    semi = day.matches["main.R1.1"]
    assert not locked(semi, day.matches.values())
    playing = {**day.matches, "main.R2.1": replace(day.matches["main.R2.1"], state=State.PLAYING)}
    assert locked(semi, playing.values())


def test_nothing_changes_nothing_written() -> None:
    """An operation that leaves the match as it is writes no match and no table plan."""
    day = _drawn(4, tables=2)
    change = day.settle("main.R1.1", day.matches["main.R1.1"], NOW)
    assert change.matches == () and change.tables is None and change.events == ()


def test_state_groups_hold_what_their_names_say() -> None:
    """The groups every use case reasons in, defined once."""
    assert {State.CALLED, State.PLAYING} == AT_TABLE
    assert State.OFFICIAL in STARTED and State.BYE not in STARTED
    assert {State.BYE, State.VOID, State.NOT_NEEDED, State.OFFICIAL} <= OFF_TABLE
    assert State("official") == "official"  # the stored strings are the states themselves


def test_results_have_their_official_form() -> None:
    """R7.5, R8.1: a score's winner has more points; a forfeit is length to nil."""
    assert Result.by_score("A", "B", (3, 7)).winner == "B"
    forfeit = Result.forfeited("A", "B", 7, "A", "noshow")
    assert (forfeit.winner, forfeit.points, forfeit.forfeit) == ("B", (0, 7), True)
    assert Result.awarded("A", "B", 5, "A").points == (5, 0)
    assert Result.from_json(forfeit.as_json()) == forfeit
    assert Result.by_score("A", "B", (7, 2), "decision").same_outcome(Result.by_score("A", "B", (7, 2)))


def test_a_match_names_its_bracket_and_its_round_there() -> None:
    """R5.3, R5.4, R5.8: a client tells the brackets apart without parsing codes."""
    assert bracket_of("main", "R3") == ("main", 3)
    assert bracket_of("main", "W2") == ("winners", 2)
    assert bracket_of("main", "L4") == ("losers", 4)
    assert bracket_of("main", "GF1") == ("final", 1)
    assert bracket_of("main", "GF2") == ("final_reset", 1)
    assert bracket_of("consolation", "R1") == ("consolation", 1)
    assert bracket_of("last_chance", "R2") == ("last_chance", 2)
    assert bracket_of("main", "S5") == ("main", 5)
