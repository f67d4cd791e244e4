"""Late arrival: penalty points, forfeit and the next change, by profile (R7.6, R6.1)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.lateness import (
    CNB_LATENESS,
    HBF_LATENESS,
    PLATFORM_LATENESS,
    LatenessError,
    LatenessPolicy,
    LatenessVerdict,
    late_arrival,
    points_to_lose,
)

START = datetime(2026, 11, 29, 10, 0, 0)


def at(minutes: int, seconds: int = 0) -> datetime:
    return START + timedelta(minutes=minutes, seconds=seconds)


def arrived(policy: LatenessPolicy, length: int, minutes: int, seconds: int = 0) -> LatenessVerdict:
    return late_arrival(policy, length, START, at(minutes, seconds), arrived=True)


def absent(policy: LatenessPolicy, length: int, minutes: int, seconds: int = 0) -> LatenessVerdict:
    return late_arrival(policy, length, START, at(minutes, seconds), arrived=False)


def test_hbf_first_penalty_point_at_fifteen_minutes_then_one_every_five() -> None:
    """R7.6, hbf 2.3: 15:00 -> 1 point, 20:00 -> 2, 25:00 -> 3 (7-point match)."""
    table = {(14, 59): 0, (15, 0): 1, (19, 59): 1, (20, 0): 2, (24, 59): 2, (25, 0): 3}
    for (m, s), points in table.items():
        verdict = arrived(HBF_LATENESS, 7, m, s)
        assert (verdict.penalty_points, verdict.forfeit) == (points, False), (m, s)


def test_hbf_absent_player_loses_when_points_exceed_half_the_length() -> None:
    """R7.6, hbf 2.3: in a 7-point match 4 points exceed 3.5: a loss at 30:00; 3 points do not."""
    assert not absent(HBF_LATENESS, 7, 29, 59).forfeit
    verdict = absent(HBF_LATENESS, 7, 30)
    assert verdict.forfeit and verdict.penalty_points == 4 and verdict.next_change_at is None
    assert absent(HBF_LATENESS, 5, 25).forfeit  # 3 > 2.5
    assert absent(HBF_LATENESS, 1, 15).forfeit  # 1 > 0.5


def test_cnb_first_point_after_five_minutes_then_one_every_five() -> None:
    """R7.6, cnb 2.2.4: started within five minutes is in time; 5:01 -> 1, 10:01 -> 2."""
    table = {(5, 0): 0, (5, 1): 1, (10, 0): 1, (10, 1): 2, (15, 0): 2, (15, 1): 3}
    for (m, s), points in table.items():
        assert arrived(CNB_LATENESS, 7, m, s).penalty_points == points, (m, s)


def test_cnb_a_player_still_absent_at_the_boundary_owes_the_point() -> None:
    """R7.6, cnb 2.2.4: not started within five minutes: absent at 5:00 means a point now."""
    verdict = absent(CNB_LATENESS, 9, 5)
    assert verdict.penalty_points == 1
    assert verdict.next_change_at == at(10)


def test_cnb_penalty_beyond_half_the_length_loses_the_match() -> None:
    """R7.6, cnb 2.2.4: 7-point match, 4 points (after 20:00) exceed half: the absent player loses."""
    assert not absent(CNB_LATENESS, 7, 19, 59).forfeit
    assert absent(CNB_LATENESS, 7, 20).forfeit
    assert arrived(CNB_LATENESS, 7, 20).penalty_points == 3
    assert arrived(CNB_LATENESS, 7, 20, 1).forfeit


def test_platform_forfeits_after_ten_minutes_without_penalty_points() -> None:
    """R6.1, R7.6 platform: be at the table within 10 minutes, else a loss by forfeit."""
    on_time = arrived(PLATFORM_LATENESS, 7, 10)
    assert (on_time.penalty_points, on_time.forfeit, on_time.next_change_at) == (0, False, None)
    assert arrived(PLATFORM_LATENESS, 7, 10, 1).forfeit
    waiting = absent(PLATFORM_LATENESS, 7, 3)
    assert waiting.next_change_at == at(10) and not waiting.forfeit
    assert absent(PLATFORM_LATENESS, 7, 10).forfeit


def test_the_scheduler_learns_when_to_look_again() -> None:
    """R6.3, R7.6: next_change_at is when the verdict for a still-absent player changes."""
    assert absent(HBF_LATENESS, 11, 0).next_change_at == at(15)
    assert absent(HBF_LATENESS, 11, 16).next_change_at == at(20)
    assert absent(CNB_LATENESS, 11, 2).next_change_at == at(5)
    assert arrived(CNB_LATENESS, 11, 7).next_change_at is None


def test_an_early_player_is_not_late() -> None:
    """R7.6."""
    verdict = late_arrival(HBF_LATENESS, 7, START, START - timedelta(minutes=3), arrived=True)
    assert verdict.late_by == timedelta(0) and verdict.penalty_points == 0


def test_points_to_lose_exceed_half_the_length() -> None:
    """R7.6: exceed, not reach: 5 -> 3, 7 -> 4, 9 -> 5, 1 -> 1."""
    assert [points_to_lose(n) for n in (1, 3, 5, 7, 9, 11)] == [1, 2, 3, 4, 5, 6]


def test_nonsense_policies_and_lengths_are_refused() -> None:
    """R7.6."""
    with pytest.raises(ValueError, match="penalty points or a forfeit"):
        LatenessPolicy()
    with pytest.raises(ValueError, match="positive interval"):
        LatenessPolicy(first_point_after=timedelta(minutes=5), point_every=timedelta(0))
    with pytest.raises(ValueError, match="negative"):
        LatenessPolicy(forfeit_after=timedelta(minutes=-5))
    with pytest.raises(LatenessError, match="at least 1 point"):
        late_arrival(CNB_LATENESS, 0, START, START, arrived=True)


@settings(max_examples=150, deadline=None)
@given(
    policy=st.sampled_from([HBF_LATENESS, CNB_LATENESS, PLATFORM_LATENESS]),
    length=st.sampled_from([1, 3, 5, 7, 9, 11, 13, 25]),
    seconds=st.integers(0, 3600),
    later=st.integers(0, 600),
)
def test_lateness_properties(policy: LatenessPolicy, length: int, seconds: int, later: int) -> None:
    """R7.6: penalties never shrink as time passes; never beyond the losing number; an arrival
    never costs more than staying absent; the verdict holds until next_change_at and changes there."""
    now = START + timedelta(seconds=seconds)
    v_absent = late_arrival(policy, length, START, now, arrived=False)
    v_arrived = late_arrival(policy, length, START, now, arrived=True)
    v_later = late_arrival(policy, length, START, now + timedelta(seconds=later), arrived=False)
    assert v_absent.penalty_points <= points_to_lose(length)
    assert v_arrived.penalty_points <= v_absent.penalty_points <= v_later.penalty_points
    assert v_later.forfeit or not v_absent.forfeit
    assert v_arrived.forfeit <= v_absent.forfeit
    if v_absent.next_change_at is None:
        assert v_absent.forfeit
        return
    assert v_absent.next_change_at > now
    just_before = late_arrival(
        policy, length, START, v_absent.next_change_at - timedelta(seconds=1), arrived=False
    )
    assert (just_before.penalty_points, just_before.forfeit) == (v_absent.penalty_points, v_absent.forfeit)
    changed = late_arrival(policy, length, START, v_absent.next_change_at, arrived=False)
    assert (changed.penalty_points, changed.forfeit) != (v_absent.penalty_points, v_absent.forfeit)


def test_a_policy_can_be_named_by_its_profile() -> None:
    """R2.2, R7.6."""
    assert late_arrival("hbf", 7, START, at(15), arrived=True).penalty_points == 1
    with pytest.raises(LatenessError, match="no lateness policy for profile 'fibs'"):
        late_arrival("fibs", 7, START, at(15), arrived=True)
