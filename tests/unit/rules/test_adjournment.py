"""Adjourned matches without AWS: adjourn, resume, the deadline, as a state machine."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from tavla.errors import AppealOpen, MatchNotInPlay, PhotoNotOfMatch, ResumeByPast
from tavla.rules import adjournment as adj
from tavla.rules import operations as ops
from tavla.rules.model import SYSTEM, Actor, Day
from tavla.rules.play_settings import PlaySettings
from tavla.rules.states import State
from tests.unit.rules.test_model import NOW, _apply, _drawn

STAFF = Actor(role="referee", tavla_id="REF")
PLAY = PlaySettings()
LATER = NOW + timedelta(hours=12)


def _playing() -> tuple[Day, str]:
    """8 players on 2 tables, R1.1 at table 1 with one game won by home (1-0)."""
    day = _drawn(8, 2)
    match = day.matches["main.R1.1"]
    assert match.home and match.state == State.CALLED and match.table == 1
    game = ops.Record(ops.EntryAsked("game", match.home), PLAY, SYSTEM, NOW, match.version)
    return _apply(day, day.apply(match.code, game, NOW)), match.code


def _board(code: str = "main.R1.1") -> adj.Board:
    photo = f"{adj.photo_prefix('T1', code)}position.jpg"
    return adj.Board(cube_value=2, cube_owner="away", clock_home=610, clock_away=455, photo=photo)


def _adjourn(day: Day, code: str, board: adj.Board | None = None) -> Day:
    op = adj.Adjourn("hall closes", board or _board(code), LATER, STAFF, NOW)
    return _apply(day, day.apply(code, op, NOW))


def test_an_adjourned_match_keeps_its_state_frees_its_table_and_its_dependants_wait() -> None:
    day, code = _playing()
    change = day.apply(code, adj.Adjourn("hall closes", _board(), LATER, STAFF, NOW), NOW)
    day = _apply(day, change)
    match = day.matches[code]
    assert (match.state, match.score, match.table, len(match.games)) == (State.ADJOURNED, (1, 0), None, 1)
    assert match.adjournment is not None
    recorded = {
        k: match.adjournment[k] for k in ("cube_value", "cube_owner", "clock_home", "clock_away", "table")
    }
    assert recorded == {
        "cube_value": 2,
        "cube_owner": "away",
        "clock_home": 610,
        "clock_away": 455,
        "table": 1,
    }
    assert match.adjournment["resume_by"] == LATER.isoformat()
    # the first queued match takes its table; the match it feeds waits for its result
    assert (day.matches["main.R1.3"].state, day.matches["main.R1.3"].table) == (State.CALLED, 1)
    assert day.matches["main.R2.1"].state == State.WAITING
    assert [a.action for a in change.audit] == ["match_adjourned"]
    assert [r.code for r in change.called] == ["main.R1.3"]


def test_an_adjourned_match_takes_no_score_no_declaration_and_no_second_adjournment() -> None:
    day, code = _playing()
    day = _adjourn(day, code)
    match = day.matches[code]
    assert match.home
    with pytest.raises(MatchNotInPlay):
        day.apply(code, ops.Record(ops.EntryAsked("game", match.home), PLAY, SYSTEM, NOW, match.version), NOW)
    with pytest.raises(MatchNotInPlay):
        day.apply(code, ops.Declare("home", (7, 0), PLAY, SYSTEM, NOW), NOW)
    with pytest.raises(MatchNotInPlay):
        day.apply(code, adj.Adjourn("again", _board(), LATER, STAFF, NOW), NOW)


def test_only_a_match_at_its_table_is_adjourned_with_a_photo_of_its_own() -> None:
    day, code = _playing()
    with pytest.raises(MatchNotInPlay):  # queued: not at a table
        day.apply("main.R1.3", adj.Adjourn("x", _board("main.R1.3"), LATER, STAFF, NOW), NOW)
    with pytest.raises(PhotoNotOfMatch):
        day.apply(code, adj.Adjourn("x", _board("main.R1.2"), LATER, STAFF, NOW), NOW)
    with pytest.raises(ResumeByPast):  # a deadline in the past
        day.apply(code, adj.Adjourn("x", _board(), NOW - timedelta(minutes=1), STAFF, NOW), NOW)
    appealed = replace(day, matches={**day.matches, code: replace(day.matches[code], appeal="A1")})
    with pytest.raises(AppealOpen):
        appealed.apply(code, adj.Adjourn("x", _board(), LATER, STAFF, NOW), NOW)


def _finish(day: Day, code: str) -> Day:
    """Match `code` won 7-0 by home and confirmed: its table frees up."""
    winner = day.matches[code].home
    assert winner
    for _ in range(7):
        game = ops.Record(ops.EntryAsked("game", winner), PLAY, SYSTEM, NOW, day.matches[code].version)
        day = _apply(day, day.apply(code, game, NOW))
    return _apply(day, day.apply(code, ops.Confirm(None, PLAY, STAFF, NOW), NOW))


def test_a_resumed_match_is_seated_at_the_next_free_table_from_the_same_score() -> None:
    day, code = _playing()
    day = _adjourn(day, code)  # table 1 goes to R1.3
    day = _apply(day, day.apply(code, adj.Resume(STAFF, NOW), NOW))
    match = day.matches[code]
    assert (match.state, match.table) == (State.QUEUED, None)  # both tables are taken
    day = _finish(day, "main.R1.3")  # table 1 goes to R1.4, queued first
    day = _finish(day, "main.R1.2")  # table 2 to the resumed match
    match = day.matches[code]
    assert (match.state, match.table, match.score) == (State.CALLED, 2, (1, 0))
    assert not ops.awaited(match)  # both present: no no-show clock on a resumed match
    assert match.home
    game = ops.Record(ops.EntryAsked("game", match.home), PLAY, SYSTEM, NOW, match.version)
    after = day.apply(code, game, NOW).after(code)
    assert after is not None and (after.state, after.score) == (State.PLAYING, (2, 0))


def test_the_deadline_flags_a_match_still_adjourned_once_and_nothing_else() -> None:
    day, code = _playing()
    day = _adjourn(day, code)
    at = str(day.matches[code].adjournment["at"])  # type: ignore[index]
    overdue = adj.Overdue(at, SYSTEM, LATER)
    flagged = Day.of_match(day.matches[code]).apply(code, overdue, LATER)
    after = flagged.after(code)
    assert after is not None and adj.OVERDUE in after.flags
    assert [a.action for a in flagged.audit] == [adj.OVERDUE]
    with pytest.raises(ops.Unchanged):  # fired twice
        Day.of_match(replace(after, version=after.version + 1)).apply(code, overdue, LATER)
    resumed = _apply(day, day.apply(code, adj.Resume(STAFF, NOW), NOW))
    with pytest.raises(ops.Unchanged):  # resumed in time
        resumed.apply(code, overdue, LATER)
    with pytest.raises(ops.Unchanged):  # an earlier adjournment's deadline
        Day.of_match(day.matches[code]).apply(
            code, adj.Overdue("2026-01-01T00:00:00+00:00", SYSTEM, LATER), LATER
        )


def test_the_referee_may_forfeit_an_adjourned_match() -> None:
    day, code = _playing()
    day = _adjourn(day, code)
    match = day.matches[code]
    assert match.away
    penalty = ops.Penalty(match.away, "match", "did not come back", PLAY, STAFF, LATER)
    after = day.apply(code, penalty, LATER).after(code)
    assert after is not None and after.state == State.OFFICIAL and after.result is not None
    assert after.result.winner == match.home
