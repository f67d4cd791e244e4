"""Rule profiles as data, tournament overrides, committee appeals (R2.2, R9.5, R7.4, R7.6, R7.7)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.breaks import CNB_BREAKS, HBF_BREAKS, NO_BREAKS
from tavla.rules.errors import RuleViolation
from tavla.rules.lateness import CNB_LATENESS, HBF_LATENESS, PLATFORM_LATENESS
from tavla.rules.profiles import (
    PROFILES,
    AppealNotAvailable,
    InvalidCommittee,
    InvalidSetting,
    MatchLengths,
    RuleOverrides,
    Stage,
    UnknownProfile,
    decide_committee_appeal,
    get_profile,
    resolve,
    start_match_under,
)

STAGES: tuple[Stage, ...] = ("default", "semi_final", "final")


def test_each_profile_carries_its_seed_rules() -> None:
    """R2.2, R7.6, R7.7, R9.5: platform = seed 002, hbf = seed 000, cnb = seed 001."""
    platform, hbf, cnb = resolve("platform"), resolve("hbf"), resolve("cnb")
    assert (platform.lateness, hbf.lateness, cnb.lateness) == (PLATFORM_LATENESS, HBF_LATENESS, CNB_LATENESS)
    assert (platform.breaks, hbf.breaks, cnb.breaks) == (NO_BREAKS, HBF_BREAKS, CNB_BREAKS)
    assert platform.appeal.above_referee == "none"
    assert (hbf.appeal.committee_sizes, hbf.appeal.overturn_rule) == ((3,), "unanimous")
    assert (cnb.appeal.committee_sizes, cnb.appeal.overturn_rule) == ((3, 5), "simple_majority")
    for profile in (platform, hbf, cnb):
        assert profile.crawford and not profile.jacoby and profile.cube_used
        assert profile.table_call_deadline == timedelta(minutes=10)
        assert profile.appeal_window == timedelta(minutes=15)


def test_cnb_clock_is_bronstein_two_minutes_a_point_platform_has_none_by_default() -> None:
    """R7.4: cnb default clock; the platform page states its own."""
    clock = resolve("cnb").clock_settings("final")
    assert clock is not None
    assert (clock.kind, clock.reserve, clock.delay) == (
        "bronstein",
        timedelta(minutes=22),
        timedelta(seconds=12),
    )
    assert resolve("platform").clock_settings() is None


def test_semi_finals_and_final_may_be_longer() -> None:
    """R2.1, R7.3: match length per stage."""
    profile = resolve("platform")
    assert [profile.match_length(s) for s in STAGES] == [7, 9, 11]
    plain = MatchLengths(default=5)
    assert plain.for_stage("final") == 5 and plain.for_stage("semi_final") == 5


def test_the_page_overrides_the_profile() -> None:
    """R2.2: the page's match length, clock, lives and cube win over the profile."""
    rules = resolve(
        "hbf",
        {
            "match_length": 5,
            "final_length": 9,
            "lives": 3,
            "cube_used": False,
            "clock": {"use": "mandatory", "reserve_per_point": None, "reserve_total": 1800, "delay": 10},
        },
    )
    assert [rules.match_length(s) for s in STAGES] == [5, 5, 9]
    assert rules.lives == 3 and not rules.cube_used
    clock = rules.clock_settings()
    assert clock is not None and clock.reserve == timedelta(minutes=30)
    assert rules.lateness == HBF_LATENESS  # untouched
    again = resolve("hbf", RuleOverrides(semi_final_length=11))
    assert again.match_length("semi_final") == 11 and again.match_length("final") == 11


def test_no_overrides_gives_the_profile_itself() -> None:
    """R2.2."""
    assert resolve("cnb", {}) == PROFILES["cnb"] == get_profile("cnb")


def test_impossible_settings_are_refused_with_a_readable_reason() -> None:
    """R2.2: match length odd and 1..25, lives >= 1, only known settings."""
    with pytest.raises(InvalidSetting, match=r"odd number of points from 1 to 25 \(got 8\)"):
        resolve("cnb", {"match_length": 8})
    with pytest.raises(InvalidSetting, match="got 27"):
        resolve("cnb", {"final_length": 27})
    with pytest.raises(InvalidSetting, match="at least 1 life"):
        resolve("platform", {"lives": 0})
    with pytest.raises(InvalidSetting, match="'crawford' is not a rule a tournament page can set"):
        resolve("platform", {"crawford": False})
    with pytest.raises(InvalidSetting, match="clock"):
        resolve("platform", {"clock": {"reserve_total": 60}})
    with pytest.raises(InvalidSetting, match="lives"):
        resolve("platform", {"lives": "many"})
    with pytest.raises(UnknownProfile, match="no rule profile 'fibs'"):
        resolve("fibs")
    with pytest.raises(ValueError):
        MatchLengths(default=6)


def test_hbf_committee_overturns_only_unanimously() -> None:
    """R9.5, hbf 6.3: three impartial players; unanimity to overturn; that exhausts the appeal."""
    upheld = decide_committee_appeal("hbf", [True, True, False])
    assert not upheld.overturned and upheld.final
    overturned = decide_committee_appeal("hbf", [True, True, True])
    assert overturned.overturned and "3 of 3" in overturned.reason
    with pytest.raises(InvalidCommittee, match="3 members, not 5"):
        decide_committee_appeal("hbf", [True] * 5)


def test_cnb_committee_decides_by_simple_majority() -> None:
    """R9.5, cnb 5.2: three or five players, simple majority, final."""
    assert decide_committee_appeal("cnb", [True, True, False]).overturned
    assert not decide_committee_appeal("cnb", [True, False, False]).overturned
    assert decide_committee_appeal("cnb", [True, True, True, False, False]).overturned
    assert not decide_committee_appeal(
        get_profile("cnb").appeal, [True, True, False, False, False]
    ).overturned
    with pytest.raises(InvalidCommittee, match="3 or 5 members, not 4"):
        decide_committee_appeal("cnb", [True] * 4)


def test_platform_referee_decision_is_final() -> None:
    """R9.3, R9.5: no appeal above the referee on the platform."""
    with pytest.raises(AppealNotAvailable, match="referee's decision is final"):
        decide_committee_appeal("platform", [True, True, True])


@settings(max_examples=150, deadline=None)
@given(
    name=st.sampled_from(["platform", "hbf", "cnb"]),
    length=st.one_of(st.none(), st.integers(-2, 30)),
    final=st.one_of(st.none(), st.integers(-2, 30)),
    lives=st.one_of(st.none(), st.integers(-1, 5)),
    cube=st.one_of(st.none(), st.booleans()),
)
def test_resolved_rules_are_always_valid(
    name: str, length: int | None, final: int | None, lives: int | None, cube: bool | None
) -> None:
    """R2.2: whatever a page asks, the effective rules have odd lengths 1..25 and lives >= 1, and
    every setting the page gave wins."""
    overrides = {"match_length": length, "final_length": final, "lives": lives, "cube_used": cube}
    valid = all(v is None or (1 <= v <= 25 and v % 2 == 1) for v in (length, final)) and (
        lives is None or lives >= 1
    )
    if not valid:
        with pytest.raises(RuleViolation):
            resolve(name, overrides)
        return
    rules = resolve(name, overrides)
    for stage in STAGES:
        n = rules.match_length(stage)
        assert 1 <= n <= 25 and n % 2 == 1
    assert rules.lives >= 1
    if length is not None:
        assert rules.match_length() == length
    if final is not None:
        assert rules.match_length("final") == final
    if cube is not None:
        assert rules.cube_used is cube


@settings(max_examples=100, deadline=None)
@given(name=st.sampled_from(["hbf", "cnb"]), votes=st.lists(st.booleans(), min_size=3, max_size=5))
def test_committee_outcomes(name: str, votes: list[bool]) -> None:
    """R9.5: unanimity (hbf) is stricter than majority (cnb); every committee decision is final."""
    route = get_profile(name).appeal
    if len(votes) not in route.committee_sizes:
        with pytest.raises(InvalidCommittee):
            decide_committee_appeal(name, votes)
        return
    outcome = decide_committee_appeal(name, votes)
    assert outcome.final
    if name == "hbf":
        assert outcome.overturned == all(votes)
    else:
        assert outcome.overturned == (sum(votes) > len(votes) / 2)


def test_a_match_starts_under_the_effective_rules() -> None:
    """R2.2, R7.2, R7.3: the final is played to the final's length, with the page's cube setting."""
    rules = resolve("cnb", {"cube_used": False})
    match = start_match_under(rules, ("nikos", "maria"), "final")
    assert match.match_length == 11 and not match.cube_used and match.crawford_rule
    assert match.players == ("nikos", "maria")
