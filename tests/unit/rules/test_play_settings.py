"""What the day reads of a tournament's settings, with its defaults decided once (R2.1, R2.2, R7.3)."""

from __future__ import annotations

from tavla.rules.play_settings import PlaySettings


def test_an_unset_page_plays_the_platforms_defaults() -> None:
    """R2.2, R6, R7.3: 7 points, cube and Crawford on, the platform profile, a table per two players."""
    s = PlaySettings.parse({})
    assert (s.format, s.rule_profile, s.divisions) == ("single_elimination", "platform", ("main",))
    assert s.match_length("final") == 7 and s.cube_used and s.crawford
    assert s.table_count(9) == 5 and s.table_count(0) == 1


def test_the_page_and_its_effective_rules_are_read() -> None:
    """R2.1, R2.2, R7.3: stage lengths fall back to the default length; the page's tables win."""
    s = PlaySettings.parse(
        {
            "format": "swiss",
            "tables": 3,
            "rule_profile": "hbf",
            "side_events": [{"kind": "last_chance"}],
            "divisions": [{"id": "open"}, {"id": "novice"}],
            "rules": {"match_length": 5, "final_length": 11, "cube_used": False},
        }
    )
    assert (s.match_length("default"), s.match_length("semi_final"), s.match_length("final")) == (5, 5, 11)
    assert s.table_count(100) == 3 and not s.cube_used and s.crawford
    assert s.side_events == {"last_chance"} and s.divisions == ("open", "novice")
