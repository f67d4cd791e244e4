"""The season table's tie-breaks (R10.5, R10.4, R5.7)."""

from __future__ import annotations

from tavla.rules.season import FinalLivesRule, LivesTier, SeasonSettings
from tavla.rules.season_table import Award, Meeting, final_lives, invited, season_table


def _m(opponent: str, won: bool, points_for: int = 5, points_against: int = 2) -> Meeting:
    return Meeting(opponent=opponent, won=won, points_for=points_for, points_against=points_against)


def test_points_first_then_head_to_head_between_the_tied() -> None:
    """R10.5: level on points, the one who beat the other comes first, whatever else."""
    awards = {
        "A": [Award(tournament_id="t1", points=50, meetings=(_m("B", False, 1, 5),))],
        "B": [Award(tournament_id="t1", points=50, meetings=(_m("A", True, 5, 1),))],
        "C": [Award(tournament_id="t1", points=70)],
    }
    rows = season_table(awards, seed=1)
    assert [r.player_id for r in rows] == ["C", "B", "A"]
    assert [r.place for r in rows] == [1, 2, 3] and not any(r.drawn for r in rows)


def test_then_point_difference_then_opponents_points_then_a_recorded_draw() -> None:
    """R10.5: point difference, then the sum of the opponents' season points; the last ties
    are drawn with the recorded seed (the same seed, the same order)."""
    awards = {
        "X": [Award(tournament_id="t", points=100)],
        "Y": [Award(tournament_id="t", points=60)],
        "A": [Award(tournament_id="t", points=30, meetings=(_m("X", False, 1, 5),))],
        "B": [Award(tournament_id="t", points=30, meetings=(_m("Y", False, 1, 5),))],
        "C": [Award(tournament_id="t", points=30, meetings=(_m("Y", False, 3, 5),))],
        "D": [Award(tournament_id="t", points=10)],
        "E": [Award(tournament_id="t", points=10)],
    }
    rows = season_table(awards, seed=7)
    order = [r.player_id for r in rows]
    assert order[:5] == ["X", "Y", "C", "A", "B"]  # C: better difference; A: stronger opponent than B
    assert {r.player_id for r in rows if r.drawn} == {"D", "E"}
    assert [r.player_id for r in season_table(awards, seed=7)] == order


def test_the_invited_are_the_top_n_with_points_and_their_lives_follow_the_place() -> None:
    """R10.4, R5.7: nobody without points is invited; lives by season place."""
    awards = {p: [Award(tournament_id="t", points=n)] for p, n in (("A", 9), ("B", 8), ("C", 7), ("Z", 0))}
    settings = SeasonSettings(
        super_final_size=3,
        final_lives=FinalLivesRule(tiers=(LivesTier(up_to_place=1, lives=3),), other_lives=1),
    )
    rows = season_table(awards, seed=0)
    chosen = invited(rows, settings)
    assert [r.player_id for r in chosen] == ["A", "B", "C"]
    assert final_lives(chosen, settings) == {"A": 3, "B": 1, "C": 1}
    assert [r.player_id for r in invited(rows, SeasonSettings())] == ["A", "B", "C"]
