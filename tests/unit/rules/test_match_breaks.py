"""Breaks on the day without AWS (R7.7): start, back, overrun on the lateness ladder (R7.6)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from tavla.errors import BreakRefused, NoBreakRunning
from tavla.rules import match_breaks as mb
from tavla.rules import operations as ops
from tavla.rules.breaks import CNB_BREAKS, HBF_BREAKS
from tavla.rules.lateness import CNB_LATENESS
from tavla.rules.model import SYSTEM, Actor, Day, FixtureRecord
from tavla.rules.play_settings import PlaySettings
from tavla.rules.states import State
from tests.unit.rules.test_model import NOW, _apply, _drawn

CNB = PlaySettings(rule_profile="cnb")
REF = Actor(role="referee", tavla_id="REF")
CODE = "main.R1.1"


def _match(length: int = 9, games: int = 1) -> Day:
    """A cnb match of `length` points at its table, `games` games won by home."""
    day = _drawn(4, 2)
    match = replace(day.matches[CODE], length=length)
    day = replace(day, matches={**day.matches, CODE: match})
    assert match.home
    for _ in range(games):
        current = day.matches[CODE]
        game = ops.Record(ops.EntryAsked("game", match.home), CNB, SYSTEM, NOW, current.version)
        day = _apply(day, day.apply(CODE, game, NOW))
    return day


def _run(day: Day, op: ops.Operation) -> Day:
    return _apply(day, day.apply(CODE, op, NOW))


def _start(day: Day, sides: tuple[ops.Side, ...] = ("home",), count: int = 1) -> Day:
    return _run(day, mb.Start(sides, count, CNB_BREAKS, REF, NOW))


def _m(day: Day) -> FixtureRecord:
    return day.matches[CODE]


def test_a_break_between_games_uses_the_allowance_both_players_see() -> None:
    day = _match(length=11)  # cnb: two breaks each at 11 points
    assert mb.left(CNB_BREAKS, _m(day)) == {"home": 2, "away": 2}
    day = _start(day)
    brk = mb.running(_m(day))
    assert brk is not None and brk["ends_at"] == (NOW + timedelta(minutes=5)).isoformat()
    assert mb.left(CNB_BREAKS, _m(day)) == {"home": 1, "away": 2}


def test_a_break_is_refused_during_a_game_while_one_runs_and_beyond_the_allowance() -> None:
    with pytest.raises(BreakRefused, match="between games"):
        _start(_match(games=0))  # no game over yet
    day = _start(_match(length=9))
    with pytest.raises(BreakRefused, match="running"):
        _start(day, ("away",))
    back = _run(day, mb.Back("home", CNB_LATENESS, CNB, REF, NOW))
    with pytest.raises(BreakRefused, match="used all 1"):
        _start(back)
    with pytest.raises(BreakRefused, match="No breaks in a 7-point"):  # a best-of-three series' match
        _start(_match(length=7))
    with pytest.raises(BreakRefused, match="one player at a time"):  # hbf: not pooled
        _run(_match(length=9), mb.Start(("home", "away"), 1, HBF_BREAKS, REF, NOW))
    with pytest.raises(NoBreakRunning):
        _run(back, mb.Back("home", CNB_LATENESS, CNB, REF, NOW))


def test_pooled_breaks_run_together_and_end_after_all_of_them() -> None:
    day = _start(_match(length=15), ("home", "away"), count=2)  # cnb 15 points: three each
    brk = mb.running(_m(day))
    assert brk is not None and brk["ends_at"] == (NOW + timedelta(minutes=10)).isoformat()
    assert mb.left(CNB_BREAKS, _m(day)) == {"home": 1, "away": 1}


def test_an_overrun_costs_the_ladder_s_points_once_and_the_return_adds_nothing_more() -> None:
    day = _start(_match(length=9))  # ends at +5 min; cnb: a point once 5 more minutes pass
    brk = mb.running(_m(day))
    assert brk is not None
    steps = mb.overrun_steps(CNB_LATENESS, _m(day), brk)
    assert steps[:2] == [NOW + timedelta(minutes=10), NOW + timedelta(minutes=15)]
    step = mb.Overrun(brk["started_at"], CNB_LATENESS, CNB, SYSTEM, steps[0])
    day = _run(day, step)
    assert _m(day).score == (1, 1)  # 1-0, and the penalty point to away
    with pytest.raises(ops.Unchanged):  # fired twice
        _run(day, step)
    day = _run(day, mb.Back("home", CNB_LATENESS, CNB, REF, steps[0] + timedelta(minutes=2)))
    assert _m(day).score == (1, 1) and mb.running(_m(day)) is None
    with pytest.raises(ops.Unchanged):  # the next step finds the player back
        _run(day, mb.Overrun(brk["started_at"], CNB_LATENESS, CNB, SYSTEM, steps[1]))


def test_back_in_time_costs_nothing_and_late_costs_what_the_ladder_says() -> None:
    day = _start(_match(length=9))
    on_time = _run(day, mb.Back("home", CNB_LATENESS, CNB, REF, NOW + timedelta(minutes=10)))
    assert _m(on_time).score == (1, 0)  # 5 minutes over is still within the ladder's first step
    late = _run(day, mb.Back("home", CNB_LATENESS, CNB, REF, NOW + timedelta(minutes=16)))
    assert _m(late).score == (1, 2)


def test_an_overrun_past_half_the_length_loses_the_match() -> None:
    day = _start(_match(length=9))
    brk = mb.running(_m(day))
    assert brk is not None
    last = mb.overrun_steps(CNB_LATENESS, _m(day), brk)[-1]
    change = day.apply(CODE, mb.Overrun(brk["started_at"], CNB_LATENESS, CNB, SYSTEM, last), last)
    after = change.after(CODE)
    assert after is not None and after.state == State.OFFICIAL and after.result is not None
    assert after.result.winner == _m(day).away and after.result.how == "penalty"
    assert [r.code for r in change.confirmed] == [CODE]


def test_a_game_recorded_after_the_break_ends_it() -> None:
    day = _start(_match(length=9))
    home = _m(day).home
    assert home
    later = NOW + timedelta(minutes=3)
    game = ops.Record(ops.EntryAsked("game", home), CNB, SYSTEM, later, _m(day).version)
    day = _apply(day, day.apply(CODE, game, later))
    assert mb.running(_m(day)) is None
