"""Match clocks: cnb defaults, a clock added mid-match, delays, loss on time (R7.4)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.clock import (
    ClockError,
    ClockPolicy,
    ClockSettings,
    clock_for_match_in_progress,
    cnb_default_clock,
    time_after_move,
    time_loser,
)

S = timedelta(seconds=1)


def test_cnb_default_clock_is_bronstein_two_minutes_a_point_and_twelve_seconds() -> None:
    """R7.4, cnb 3.5.5: a 9-point match gets 18 minutes each and a 12-second delay."""
    clock = cnb_default_clock(9)
    assert clock.kind == "bronstein"
    assert clock.reserve == timedelta(minutes=18)
    assert clock.delay == timedelta(seconds=12)


def test_a_clock_added_mid_match_gives_the_sum_of_points_still_needed_in_minutes() -> None:
    """R7.4, cnb 3.5.6: 11-point match at 4-7 -> (11-4) + (11-7) = 11 minutes each."""
    clock = clock_for_match_in_progress(11, 4, 7)
    assert clock.reserve == timedelta(minutes=11)
    assert clock.kind == "bronstein" and clock.delay == 12 * S


def test_penalty_points_at_the_start_set_the_clock_as_mid_match() -> None:
    """R7.6, cnb 2.2.4: after 2 late-arrival points in a 7-point match, each player gets 12 minutes."""
    assert clock_for_match_in_progress(7, 0, 2).reserve == timedelta(minutes=12)


def test_a_clock_cannot_be_added_to_a_finished_or_impossible_score() -> None:
    """R7.4."""
    with pytest.raises(ClockError, match="not the score of a 7-point match in progress"):
        clock_for_match_in_progress(7, 7, 2)
    with pytest.raises(ClockError, match="at least 1 point"):
        cnb_default_clock(0)


def test_bronstein_gives_back_the_delay_but_never_more_than_the_time_used() -> None:
    """R7.4, cnb 3.5.5: the 12 seconds a move are not cumulative."""
    clock = cnb_default_clock(5)
    assert time_after_move(clock, 600, 5).remaining == 600 * S
    assert time_after_move(clock, 600, 20).remaining == 592 * S
    assert time_after_move(clock, timedelta(seconds=600), timedelta(seconds=12)).remaining == 600 * S


def test_bronstein_flag_falls_when_the_move_outlasts_the_reserve() -> None:
    """R7.4: under Bronstein the reserve runs during the delay."""
    clock = cnb_default_clock(5)
    move = time_after_move(clock, 5, 10)
    assert move.flag_fell and move.remaining == timedelta(0)


def test_simple_delay_starts_the_reserve_after_the_delay() -> None:
    """R7.4: a simple-delay clock only charges time beyond the delay."""
    clock = ClockSettings(kind="simple_delay", reserve=60, delay=12)
    assert time_after_move(clock, 5, 10) == time_after_move(clock, 5, 0)
    assert time_after_move(clock, 5, 15).remaining == 2 * S
    assert time_after_move(clock, 5, 18).flag_fell


def test_increment_adds_time_after_every_move() -> None:
    """R7.4: an increment accumulates."""
    clock = ClockSettings(kind="increment", reserve=60, delay=10)
    assert time_after_move(clock, 60, 2).remaining == 68 * S
    assert time_after_move(clock, 60, 61).flag_fell


def test_clock_settings_refuse_nonsense() -> None:
    """R7.4: a referee cannot set an empty or negative clock."""
    with pytest.raises(ValueError, match="some reserve"):
        ClockSettings(reserve=0)
    with pytest.raises(ValueError, match="negative"):
        ClockSettings(reserve=60, delay=-1)
    with pytest.raises(ClockError, match="negative time"):
        time_after_move(cnb_default_clock(3), 60, -1)


def test_a_clock_policy_gives_per_point_or_fixed_reserves() -> None:
    """R7.4, R2.1: the page states the total per player, or cnb's per point."""
    assert ClockPolicy().settings_for(7).reserve == timedelta(minutes=14)
    fixed = ClockPolicy(
        reserve_per_point=None, reserve_total=timedelta(minutes=30), delay=8, kind="increment"
    )
    assert fixed.settings_for(11) == ClockSettings(kind="increment", reserve=timedelta(minutes=30), delay=8)
    with pytest.raises(ValueError, match="either per point"):
        ClockPolicy(reserve_total=timedelta(minutes=30))
    with pytest.raises(ValueError, match="some reserve"):
        ClockPolicy(reserve_per_point=0)
    with pytest.raises(ValueError, match="negative"):
        ClockPolicy(delay=-3)
    with pytest.raises(ClockError):
        ClockPolicy().settings_for(0)


def test_who_lost_on_time() -> None:
    """R7.4, cnb 4.3.3: whoever runs out of time loses the match."""
    assert time_loser(10, 20).loser is None
    assert time_loser(0, 20).loser == "A"
    assert time_loser(timedelta(seconds=5), timedelta(seconds=-1)).loser == "B"


def test_both_out_of_time_plays_on_without_the_clock_unless_we_know_who_was_first() -> None:
    """cnb 4.3.3."""
    verdict = time_loser(0, 0)
    assert verdict.loser is None and verdict.play_on_without_clock
    assert time_loser(0, 0, first_out="B").loser == "B"


def test_a_certain_win_survives_running_out_of_time() -> None:
    """cnb 4.3.3: a player whose win was mathematically certain still wins."""
    verdict = time_loser(0, 30, certain_win=True)
    assert verdict.loser == "B" and "certain win" in verdict.reason


@settings(max_examples=150, deadline=None)
@given(
    kind=st.sampled_from(["bronstein", "simple_delay", "increment"]),
    reserve=st.integers(1, 3600),
    delay=st.integers(0, 30),
    moves=st.lists(st.integers(0, 120), max_size=40),
)
def test_clock_properties(kind: str, reserve: int, delay: int, moves: list[int]) -> None:
    """R7.4: delays never raise the reserve above where the move began (increment may); a flag
    that falls leaves zero; Bronstein and simple delay leave the same reserve after a completed move
    when neither flag falls."""
    clock = ClockSettings(kind=kind, reserve=reserve, delay=delay)
    left = timedelta(seconds=reserve)
    for used in moves:
        move = time_after_move(clock, left, used)
        if move.flag_fell:
            assert move.remaining == timedelta(0)
            assert time_loser(move.remaining, 10).loser == "A"
            break
        if kind != "increment":
            assert move.remaining <= left
            other = "simple_delay" if kind == "bronstein" else "bronstein"
            twin = time_after_move(ClockSettings(kind=other, reserve=reserve, delay=delay), left, used)
            assert twin.flag_fell or twin.remaining == move.remaining
        left = move.remaining
