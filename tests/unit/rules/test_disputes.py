"""Players' final scores that differ: whose record prevails, by rule profile (R7.5)."""

from __future__ import annotations

import pytest

from tavla.rules.disputes import settle_dispute, trailing_side

REPORTS = {"home": (7, 5), "away": (4, 7)}


@pytest.mark.parametrize("profile", ["platform", "hbf"])
def test_platform_and_hbf_leave_a_dispute_to_the_referee(profile: str) -> None:
    """R7.5: under platform and hbf no record prevails by itself, even a complete live score."""
    assert settle_dispute(profile, REPORTS, (7, 5), (7, 5)) is None
    assert settle_dispute(profile, REPORTS, (4, 5), None) is None


def test_cnb_the_scorers_complete_record_prevails() -> None:
    """R7.5, cnb 4.7: the table scorer's record (the complete live score) beats both reports."""
    assert settle_dispute("cnb", REPORTS, (7, 6), (7, 6)) == (7, 6)


def test_cnb_without_a_complete_record_the_trailing_players_report_prevails() -> None:
    """R7.5, cnb 4.7: live 4-6 unfinished: home trails, so home's report (7-5) prevails."""
    assert settle_dispute("cnb", REPORTS, (4, 6), None) == (7, 5)
    assert settle_dispute("cnb", REPORTS, (6, 2), None) == (4, 7)


def test_cnb_nobody_trails_at_a_level_score_so_the_referee_decides() -> None:
    """R7.5: 0-0 (no live score at all) or level: no trailing player, no record prevails."""
    assert settle_dispute("cnb", REPORTS, (0, 0), None) is None
    assert settle_dispute("cnb", REPORTS, (3, 3), None) is None


def test_trailing_side() -> None:
    assert (trailing_side((1, 2)), trailing_side((2, 1)), trailing_side((2, 2))) == ("home", "away", None)
