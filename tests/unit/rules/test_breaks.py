"""Breaks during a match, by profile and match length (R7.7)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.breaks import (
    CNB_BREAKS,
    HBF_BREAKS,
    NO_BREAKS,
    BreakError,
    BreakPolicy,
    break_decision,
    breaks_allowed,
)


def test_cnb_breaks_by_match_length() -> None:
    """R7.7, cnb 2.2.2: 9 points 1, 11-13 points 2, 15-19 points 3, longer 4; none below 9."""
    expected = {1: 0, 3: 0, 5: 0, 7: 0, 9: 1, 11: 2, 13: 2, 15: 3, 17: 3, 19: 3, 21: 4, 25: 4}
    assert {n: breaks_allowed(CNB_BREAKS, n) for n in expected} == expected


def test_cnb_even_lengths_fall_in_the_band_below_the_next_odd_length() -> None:
    """R7.7: the seed only names odd lengths; 10 -> 1, 12 and 14 -> 2, 20 -> 4."""
    assert [breaks_allowed(CNB_BREAKS, n) for n in (8, 10, 12, 14, 16, 20)] == [0, 1, 2, 2, 3, 4]


def test_hbf_one_break_per_player_up_to_thirteen_points() -> None:
    """R7.7, hbf 2.2: one five-minute break in matches up to 13 points, more only if the referee allows."""
    assert [breaks_allowed(HBF_BREAKS, n) for n in (1, 7, 13, 15, 17)] == [1, 1, 1, 0, 0]
    assert breaks_allowed(HBF_BREAKS, 17, extra_granted=2) == 2


def test_platform_rules_give_no_breaks() -> None:
    """R7.7: the platform seed has no breaks; only a referee's grant."""
    assert breaks_allowed(NO_BREAKS, 25) == 0
    assert break_decision(NO_BREAKS, 7, taken=0, between_games=True, extra_granted=1).allowed


def test_a_break_is_taken_only_between_games() -> None:
    """R7.7, cnb 2.2.2: only at the end of a game."""
    decision = break_decision(CNB_BREAKS, 11, taken=0, between_games=False)
    assert not decision.allowed and "between games" in decision.reason
    assert decision.remaining_after == 2


def test_a_player_may_use_each_break_once() -> None:
    """R7.7."""
    first = break_decision(CNB_BREAKS, 9, taken=0, between_games=True)
    assert first.allowed and first.duration == timedelta(minutes=5) and first.remaining_after == 0
    assert "5 minutes" in first.reason
    second = break_decision(CNB_BREAKS, 9, taken=1, between_games=True)
    assert not second.allowed and "used all 1" in second.reason


def test_no_breaks_in_short_cnb_matches() -> None:
    """R7.7: a 7-point cnb match has no break."""
    decision = break_decision(CNB_BREAKS, 7, taken=0, between_games=True)
    assert not decision.allowed and "7-point" in decision.reason


def test_cnb_breaks_can_be_run_together_hbf_not() -> None:
    """R7.7, cnb 2.2.2: a player may join their breaks; hbf has one break each."""
    joined = break_decision(CNB_BREAKS, 17, taken=0, between_games=True, count=3)
    assert joined.allowed and joined.duration == timedelta(minutes=15) and joined.remaining_after == 0
    too_many = break_decision(CNB_BREAKS, 17, taken=1, between_games=True, count=3)
    assert not too_many.allowed and "only 2" in too_many.reason
    hbf = break_decision(HBF_BREAKS, 17, taken=0, between_games=True, count=2, extra_granted=2)
    assert not hbf.allowed and "one at a time" in hbf.reason


def test_impossible_break_questions_are_refused() -> None:
    """R7.7."""
    with pytest.raises(BreakError):
        breaks_allowed(CNB_BREAKS, 0)
    with pytest.raises(BreakError):
        breaks_allowed(CNB_BREAKS, 9, extra_granted=-1)
    with pytest.raises(BreakError):
        break_decision(CNB_BREAKS, 9, taken=-1, between_games=True)
    with pytest.raises(ValueError, match="increasing"):
        BreakPolicy(bands=((9, 1), (5, 0)))
    with pytest.raises(ValueError, match="some minutes"):
        BreakPolicy(duration=timedelta(0))


@settings(max_examples=150, deadline=None)
@given(
    policy=st.sampled_from([CNB_BREAKS, HBF_BREAKS, NO_BREAKS]),
    length=st.integers(1, 41),
    taken=st.integers(0, 6),
    count=st.integers(1, 4),
    between=st.booleans(),
    extra=st.integers(0, 2),
)
def test_break_properties(
    policy: BreakPolicy, length: int, taken: int, count: int, between: bool, extra: int
) -> None:
    """R7.7: longer matches never get fewer breaks; a granted break is between games and within the
    allowance, and taking it leaves exactly the allowance minus what was used."""
    allowance = breaks_allowed(policy, length, extra_granted=extra)
    assert breaks_allowed(policy, length + 1, extra_granted=extra) >= allowance or policy is HBF_BREAKS
    decision = break_decision(
        policy, length, taken=taken, between_games=between, count=count, extra_granted=extra
    )
    if decision.allowed:
        assert between and taken + count <= allowance
        assert decision.remaining_after == allowance - taken - count
        assert decision.duration == policy.duration * count
    else:
        assert decision.duration == timedelta(0)
        assert decision.remaining_after == max(0, allowance - taken)


def test_a_policy_can_be_named_by_its_profile() -> None:
    """R2.2, R7.7."""
    assert breaks_allowed("cnb", 11) == 2
    assert break_decision("hbf", 13, taken=0, between_games=True).allowed
    with pytest.raises(BreakError, match="no break policy for profile 'fibs'"):
        breaks_allowed("fibs", 11)
