"""A change read on a part of the day (the match, what it feeds, their other feeders) moves the
day on exactly as the same change read on the whole day, whatever order the results come in
(R5, R6, R8.2): the same matches written, the same tables taken and freed, the same calls."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.day import DaySettings, DrawInputs, compute_draw
from tavla.rules.entrants import Entrant
from tavla.rules.model import Day, DayChange, FieldRecord, FixtureRecord, Unread, feeds_of, sources_of
from tavla.rules.results import Result
from tavla.rules.states import AT_TABLE, State
from tests.unit.rules.stored import stored_fixtures

NOW = datetime(2026, 6, 1, 10, 0, tzinfo=UTC)
T = "T1"


def _drawn(format: str, players: int, tables: int, out: tuple[str, ...] = ()) -> Day:
    """A day of `players` drawn in `format` on `tables` tables; `out` withdrew after the draw."""
    field = tuple(Entrant(player_id=f"P{i}", rating=1500.0 + i) for i in range(players))
    inputs = DrawInputs(number=1, settings=DaySettings(format=format), field=field)
    drawn = compute_draw(inputs, seed=11)
    fed = feeds_of(drawn.fixtures)
    bare = stored_fixtures(drawn.fixtures, feeds=fed)
    entrants = tuple({"player_id": e.player_id, "rating": e.rating} for e in field)
    empty = Day(T, tables, FieldRecord(T, NOW.isoformat(), entrants), None, {})
    change = empty.publish_draw(drawn, bare, NOW)
    assert change.tables is not None and change.tables[0].appeals == ()
    day = Day(
        T,
        tables,
        empty.field,
        replace(change.tables[0], version=1),
        {r.code: replace(r, version=1) for r, _ in change.matches},
        drawn.fixtures,
    )
    for player in out:  # as a withdrawal is saved: on the whole day, from the match they are in
        day = day.put_out(player, "withdrawn")
        mine = [r for r in day.matches.values() if player in (r.home, r.away)]
        current = min(mine, key=lambda r: (r.state not in AT_TABLE, r.position))
        day = _apply(day, day.settle(current.code, current, NOW))
    return day


def _apply(day: Day, change: DayChange) -> Day:
    matches = dict(day.matches)
    for record, seen in change.matches:
        matches[record.code] = replace(record, version=(seen or 0) + 1)
    tables = change.tables[0] if change.tables is not None else day.tables
    return replace(day, matches=matches, tables=tables)


def _part(day: Day, code: str, after: FixtureRecord) -> tuple[Day, DayChange]:
    """What `services.progress` reads for a change of `code` and what it makes of it: the match,
    what it feeds and their feeders, grown while the change settles matches it did not read."""
    played = set(day.matches[code].feeds or ())
    queued: set[str] = set()
    while True:
        loaded = {code, *played, *queued}
        loaded |= {s for c in played for s in sources_of(day.matches[c])}
        fixtures = sorted((day.matches[c] for c in played), key=lambda r: (r.draw, r.position))
        part = Day(
            T,
            day.table_count,
            day.field if played else None,
            day.tables,
            {c: day.matches[c] for c in loaded},
            [f for f in day.fixtures if f.code in {r.code for r in fixtures}],
            partial=True,
        )
        try:
            change = part.settle(code, after, NOW)
        except Unread as unread:
            queued |= unread.codes
            continue
        further = part.unreached(change)
        if not further:
            return part, change
        played |= further


def _result(match: FixtureRecord, home: bool) -> FixtureRecord:
    assert match.home and match.away
    result = Result.by_score(match.home, match.away, (7, 2) if home else (2, 7))
    return replace(match, state=State.OFFICIAL, result=result, official_at=NOW.isoformat())


def _by_code(items: tuple) -> list:
    return sorted(items, key=lambda item: item.code if isinstance(item, FixtureRecord) else item[0].code)


def _play_out(day: Day, choices: list[int]) -> Day:
    """Confirm matches at a table in the order `choices` picks, checking each partial change
    against the whole day's; the day as it ends."""
    for step in range(len(day.matches) * 2):
        at_table = sorted(c for c, r in day.matches.items() if r.state in AT_TABLE)
        if not at_table:
            break
        pick = choices[step % len(choices)] if choices else 0
        code = at_table[pick % len(at_table)]
        after = _result(day.matches[code], home=pick % 2 == 0)
        whole = day.settle(code, after, NOW)
        _, part = _part(day, code, after)
        assert _by_code(part.matches) == _by_code(whole.matches)
        assert part.tables == whole.tables
        assert _by_code(part.called) == _by_code(whole.called)
        assert _by_code(part.confirmed) == _by_code(whole.confirmed)
        assert sorted(map(repr, part.events)) == sorted(map(repr, whole.events))
        day = _apply(day, whole)
    return day


@settings(max_examples=40, deadline=None)
@given(
    format=st.sampled_from(["single_elimination", "double_elimination"]),
    players=st.integers(min_value=3, max_value=13),
    tables=st.integers(min_value=1, max_value=4),
    choices=st.lists(st.integers(min_value=0, max_value=63), max_size=40),
    withdrawn=st.booleans(),
)
def test_a_part_of_the_day_moves_on_as_the_whole_day_does(
    format: str, players: int, tables: int, choices: list[int], withdrawn: bool
) -> None:
    """R5, R6, R8.2: any order of results, BYEs and walkovers, a queue for tables, a reset final
    not needed, a withdrawn player forfeiting what they reach: reading the part gives the same
    change as reading the whole day, and the day is played out to its end."""
    day = _drawn(format, players, tables, out=("P0",) if withdrawn else ())
    day = _play_out(day, choices)
    undecided = [c for c, r in day.matches.items() if r.state not in (State.OFFICIAL, *_UNPLAYED)]
    assert undecided == []
    assert day.tables is not None and not day.tables.occupied and not day.tables.queue


_UNPLAYED = (State.BYE, State.VOID, State.NOT_NEEDED)


def test_a_swiss_match_reads_nothing_else() -> None:
    """R5.5, R6: a round's match feeds nothing: confirming it reads and changes only itself and
    the table it frees, however large the round."""
    day = _drawn("swiss", 64, 8)
    code = sorted(c for c, r in day.matches.items() if r.state in AT_TABLE)[0]
    after = _result(day.matches[code], home=True)
    part, change = _part(day, code, after)
    assert set(part.matches) == {code, *[r.code for r in change.called]}
    assert {r.code for r, _ in change.matches} == {code, *[r.code for r in change.called]}
    whole = day.settle(code, after, NOW)
    assert _by_code(change.matches) == _by_code(whole.matches) and change.tables == whole.tables
