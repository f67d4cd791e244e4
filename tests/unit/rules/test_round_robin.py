"""League / round robin schedules and league points (R5.1, R5.6)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.entrants import Entrant, MatchRecord
from tavla.rules.points import MatchPoints
from tavla.rules.round_robin import (
    DuplicateLeaguePlayer,
    ImpossibleLeaguePoints,
    InvalidLeagueResult,
    LeagueTooSmall,
    berger_rounds,
    draw_round_robin,
    league_points,
)


def league(n: int) -> list[Entrant]:
    return [Entrant(player_id=f"p{i:02d}", rating=1500 + i) for i in range(n)]


def test_six_players_follow_the_berger_table():
    """R5.6: the standard Berger table for 6 (FIDE), round by round, home first."""
    assert berger_rounds(6) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


def test_an_odd_league_gives_one_bye_per_round():
    """R5.6: with 5 players, each round one player rests, and each rests exactly once."""
    rounds = berger_rounds(5)
    assert len(rounds) == 5
    resting = [home for r in rounds for home, away in r if away is None]
    assert sorted(resting) == [1, 2, 3, 4, 5]
    assert all(r[-1][1] is None for r in rounds)


def test_a_league_of_one_is_refused():
    """R5.6: a league needs two players."""
    with pytest.raises(LeagueTooSmall):
        berger_rounds(1)


def test_a_player_entered_twice_is_refused():
    """R5.6: nobody is entered twice."""
    with pytest.raises(DuplicateLeaguePlayer):
        draw_round_robin([*league(3), Entrant(player_id="p00")], seed=1)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=2, max_value=24), st.integers(min_value=0, max_value=2**31), st.booleans())
def test_everybody_plays_everybody_once_per_cycle(n, seed, double):
    """R5.6: each pair meets once a cycle, each player has one board or the BYE every round."""
    schedule = draw_round_robin(league(n), seed=seed, double=double)
    ids = {e.player_id for e in league(n)}
    cycle = n - 1 + n % 2
    assert len(schedule.rounds) == cycle * schedule.cycles
    for boards in schedule.rounds:
        placed = [p for b in boards for p in b.players]
        assert sorted(placed) == sorted(ids)
        assert sum(1 for b in boards if b.is_bye) == n % 2
        assert [b.table for b in boards] == list(range(1, len(boards) + 1))
    meetings = Counter(frozenset(b.players) for boards in schedule.rounds for b in boards if not b.is_bye)
    assert set(meetings) == {frozenset(p) for p in itertools.combinations(ids, 2)}
    assert set(meetings.values()) == {schedule.cycles}


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=2, max_value=16), st.integers(min_value=0, max_value=2**31))
def test_the_second_cycle_swaps_home_and_away(n, seed):
    """R5.6: in a double round robin each pair meets once at each player's home."""
    schedule = draw_round_robin(league(n), seed=seed, double=True)
    half = len(schedule.rounds) // 2
    for first, second in zip(schedule.rounds[:half], schedule.rounds[half:], strict=True):
        for a, b in zip(first, second, strict=True):
            assert (a.home, a.away) == ((b.away, b.home) if b.away is not None else (b.home, None))


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=3, max_value=16))
def test_home_games_are_balanced_within_one(n):
    """R5.6: the Berger table gives nobody more than one extra home game per cycle (even fields)."""
    even = n + n % 2
    home = Counter(h for r in berger_rounds(even) for h, _ in r)
    assert max(home.values()) - min(home.values()) <= 1


def test_the_schedule_is_recomputable_from_its_seed():
    """R5.1: same players and seed, same schedule, whatever the entry order."""
    first = draw_round_robin(league(7), seed=42)
    again = draw_round_robin(list(reversed(league(7))), seed=first.seed)
    assert first == again
    assert first.seed == 42


def test_league_points_default_to_two_for_a_win_one_for_a_loss_nothing_for_a_forfeit():
    """R5.6: points for a win, a loss and a forfeit, here the defaults 2 / 1 / 0."""
    records = [
        MatchRecord(round=1, home="a", away="b", home_points=7, away_points=3, winner="a"),
        MatchRecord(round=1, home="c", away="d", home_points=7, winner="c", forfeit=True),
        MatchRecord(round=2, home="a", away=None, winner="a"),
    ]
    assert league_points(records, players=["a", "b", "c", "d", "e"]) == {
        "a": 2,
        "b": 1,
        "c": 2,
        "d": 0,
        "e": 0,
    }


def test_league_points_follow_the_league_page_settings():
    """R5.6: the organiser sets the points, the BYE included."""
    points = MatchPoints(win=3, loss=0, forfeit=-1, bye=3)
    records = [
        MatchRecord(round=1, home="a", away="b", winner="b", forfeit=True),
        MatchRecord(round=2, home="a", away=None, winner="a"),
    ]
    assert league_points(records, points) == {"b": 3, "a": 2}


def test_a_loss_worth_more_than_a_win_is_refused():
    """R5.6: impossible point settings are refused."""
    with pytest.raises(ImpossibleLeaguePoints, match="win"):
        league_points([], MatchPoints(win=1, loss=2))


def test_a_result_whose_winner_did_not_play_is_refused():
    """R5.6: the winner is one of the two players."""
    with pytest.raises(InvalidLeagueResult, match="zed"):
        league_points([MatchRecord(round=1, home="a", away="b", winner="zed")])
