"""League and Swiss table points from the tournament page (R5.6, R5.5, R10.2)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.models.tournaments import MatchPointsSetting
from tavla.rules.day import DaySettings, event_standings
from tavla.rules.entrants import MatchRecord
from tavla.rules.points import LEAGUE_POINTS, SWISS_POINTS, MatchPoints, table_points
from tavla.rules.standings import TableRow, table_standings

LEAGUE = DaySettings(format="round_robin")


def test_unset_points_are_the_formats_defaults() -> None:
    """R5.6, R5.5: no points on the page: a league counts 2/1/0, a Swiss 1/0/0 (BYE 1)."""
    assert (
        table_points(swiss=False, page=None) == LEAGUE_POINTS == MatchPoints(win=2, loss=1, forfeit=0, bye=0)
    )
    assert table_points(swiss=True, page=None) == SWISS_POINTS == MatchPoints(win=1, loss=0, forfeit=0, bye=1)


def test_a_league_of_three_counted_three_one_zero() -> None:
    """R5.6 worked example, a league page at 3 / 1 / 0: A beats B 5-2 and C by forfeit 5-0;
    B beats C 5-4. A 3+3 = 6; B 1+3 = 4; C 0 (forfeit) + 1 = 1. Opponents' points: A 4+1 = 5,
    B 6+1 = 7, C 6+4 = 10. At the default 2 / 1 / 0: A 4, B 3, C 1."""
    matches = [
        MatchRecord(round=1, home="A", away="B", home_points=5, away_points=2, winner="A"),
        MatchRecord(round=2, home="A", away="C", home_points=5, away_points=0, winner="A", forfeit=True),
        MatchRecord(round=3, home="B", away="C", home_points=5, away_points=4, winner="B"),
    ]
    page = table_points(swiss=False, page={"win": 3, "loss": 1, "forfeit": 0})
    rows = event_standings(LEAGUE, "main", ["A", "B", "C"], matches, points=page)
    assert all(isinstance(r, TableRow) for r in rows)
    assert [(r.player_id, r.points, r.buchholz) for r in rows if isinstance(r, TableRow)] == [
        ("A", 6, 5),
        ("B", 4, 7),
        ("C", 1, 10),
    ]
    default = event_standings(LEAGUE, "main", ["A", "B", "C"], matches)
    assert [r.points for r in default if isinstance(r, TableRow)] == [4, 3, 1]


valid_points = st.tuples(st.integers(0, 10), st.integers(0, 10), st.integers(0, 10)).filter(
    lambda t: t[0] > t[1] >= t[2]
)


@settings(max_examples=60, deadline=None)
@given(points=valid_points, seed=st.integers(0, 10**6), swiss=st.booleans())
def test_every_table_counts_the_pages_points(points: tuple[int, int, int], seed: int, swiss: bool) -> None:
    """R5.6, R10.2 on random leagues: each player's points are wins x win + losses x loss +
    forfeits x forfeit (+ a Swiss BYE as a win); the opponents' points (Buchholz) are the sum
    of the same figures; the table is ordered by points first."""
    win, loss, forfeit = points
    rng = random.Random(seed)
    players = [f"P{i}" for i in range(rng.randint(2, 7))]
    matches = []
    for n, (a, b) in enumerate((a, b) for i, a in enumerate(players) for b in players[i + 1 :]):
        if rng.random() < 0.2:
            continue
        winner = rng.choice((a, b))
        matches.append(
            MatchRecord(
                round=n + 1,
                home=a,
                away=b,
                home_points=5 if winner == a else rng.randint(0, 4),
                away_points=5 if winner == b else rng.randint(0, 4),
                winner=winner,
                forfeit=rng.random() < 0.2,
            )
        )
    if swiss:
        matches.append(MatchRecord(round=99, home=players[0], winner=players[0]))
    scale = table_points(swiss=swiss, page={"win": win, "loss": loss, "forfeit": forfeit})
    rows = table_standings(players, matches, scale)
    expected = dict.fromkeys(players, 0)
    opponents: dict[str, list[str]] = {p: [] for p in players}
    for m in matches:
        if m.away is None:
            expected[m.home] += win
            continue
        loser = m.away if m.winner == m.home else m.home
        expected[m.winner] += win
        expected[loser] += forfeit if m.forfeit else loss
        opponents[m.home].append(m.away)
        opponents[m.away].append(m.home)
    assert {r.player_id: r.points for r in rows} == expected
    assert {r.player_id: r.buchholz for r in rows} == {
        p: sum(expected[o] for o in opponents[p]) for p in players
    }
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)


@given(win=st.integers(-3, 13), loss=st.integers(-3, 13), forfeit=st.integers(-3, 13))
def test_the_page_accepts_exactly_the_bounded_ordered_points(win: int, loss: int, forfeit: int) -> None:
    """R5.6: 0..10 each, a win above a loss, a loss at least a forfeit; anything else is refused."""
    fine = all(0 <= v <= 10 for v in (win, loss, forfeit)) and win > loss >= forfeit
    try:
        MatchPointsSetting(win=win, loss=loss, forfeit=forfeit)
    except ValueError:
        assert not fine
    else:
        assert fine
