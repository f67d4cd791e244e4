"""Standings of elimination, lives, Swiss and league events (R10.1, R10.2, R5.7, R8.3)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.entrants import MatchRecord
from tavla.rules.errors import RuleViolation
from tavla.rules.points import MatchPoints
from tavla.rules.standings import (
    Standing,
    StandingsError,
    knockout_standings,
    rank_by_elimination,
    remove_players,
    table_standings,
    validate_standings,
)


def win(
    rnd: int, winner: str, loser: str, score: tuple[int, int] = (5, 2), forfeit: bool = False
) -> MatchRecord:
    return MatchRecord(
        round=rnd,
        home=winner,
        away=loser,
        home_points=score[0],
        away_points=score[1],
        winner=winner,
        forfeit=forfeit,
    )


def bye(rnd: int, player: str) -> MatchRecord:
    return MatchRecord(round=rnd, home=player, winner=player)


def bracket(players: list[str], rng: random.Random) -> list[MatchRecord]:
    """A single-elimination bracket on a power-of-two field, winners picked by `rng`."""
    out: list[MatchRecord] = []
    alive = list(players)
    rnd = 1
    while len(alive) > 1:
        nxt = []
        for a, b in zip(alive[::2], alive[1::2], strict=True):
            w, lo = (a, b) if rng.random() < 0.5 else (b, a)
            out.append(win(rnd, w, lo))
            nxt.append(w)
        alive = nxt
        rnd += 1
    return out


def labels(rows: Sequence[Standing]) -> dict[str, str]:
    return {r.player_id: r.label for r in rows}


def assert_well_formed(rows: Sequence[Standing], expected: set[str]) -> None:
    assert sorted(r.player_id for r in rows) == sorted(expected)
    for r in rows:
        better = sum(1 for o in rows if o.place < r.place)
        same = sum(1 for o in rows if o.place == r.place)
        assert r.place == better + 1
        assert r.place_to == r.place + same - 1
    assert [r.place for r in rows] == sorted(r.place for r in rows)


P16 = [f"p{i:02d}" for i in range(16)]


def test_knocked_out_in_same_round_share_the_place_in_a_field_of_16() -> None:
    """R10.1: 16 players: 1, 2, 3-4, 5-8, 9-16."""
    matches = bracket(P16, random.Random(3))
    rows = knockout_standings(P16, matches)
    counts: dict[str, int] = {}
    for lab in labels(rows).values():
        counts[lab] = counts.get(lab, 0) + 1
    assert counts == {"1": 1, "2": 1, "3-4": 2, "5-8": 4, "9-16": 8}
    final = max(matches, key=lambda m: m.round)
    assert labels(rows)[final.winner] == "1"
    assert labels(rows)[final.loser or ""] == "2"
    assert rows[0].player_id == final.winner and not rows[0].shared


def test_bye_in_round_one_does_not_knock_anyone_out() -> None:
    """R10.1, R5.3: 3 players, the top seed has a BYE; the first-round loser is 3rd."""
    matches = [bye(1, "a"), win(1, "b", "c"), win(2, "b", "a")]
    assert labels(knockout_standings(["a", "b", "c"], matches)) == {"b": "1", "a": "2", "c": "3"}


def test_disqualified_semi_finalist_gets_no_place_and_the_other_loser_moves_up() -> None:
    """R8.3: a disqualified player is removed from the standings; the field closes up."""
    matches = [win(1, "a", "d"), win(1, "b", "c"), win(2, "a", "b")]
    rows = knockout_standings(["a", "b", "c", "d"], matches, disqualified={"c"})
    assert labels(rows) == {"a": "1", "b": "2", "d": "3"}


def test_double_elimination_ranks_by_the_second_loss() -> None:
    """R5.4, R10.1: out after two losses; round numbers run across both brackets."""
    matches = [
        win(1, "a", "b"),
        win(1, "c", "d"),
        win(2, "a", "c"),
        win(2, "b", "d"),  # d out (2 losses)
        win(3, "c", "b"),  # b out
        win(4, "c", "a"),  # grand final: a's first loss
        win(5, "c", "a"),  # reset: a out
    ]
    rows = knockout_standings(["a", "b", "c", "d"], matches, lives=2)
    assert labels(rows) == {"c": "1", "a": "2", "b": "3", "d": "4"}


def test_lives_event_survivors_first_with_more_lives_ahead() -> None:
    """R5.7: ranked by the round of elimination, survivors first by lives left."""
    lives = {"a": 2, "b": 2, "c": 1, "d": 1, "e": 2}
    matches = [
        win(1, "a", "c"),  # c out r1
        win(1, "b", "d"),  # d out r1
        win(1, "e", "b"),
        win(2, "a", "b"),  # b out r2
    ]
    rows = knockout_standings(list(lives), matches, lives=lives)
    assert labels(rows) == {"a": "1-2", "e": "1-2", "b": "3", "c": "4-5", "d": "4-5"}
    rows = knockout_standings(list(lives), [*matches, win(3, "a", "e")], lives=lives)
    assert labels(rows) == {"a": "1", "e": "2", "b": "3", "c": "4-5", "d": "4-5"}


def test_rank_by_elimination_without_lives_lets_survivors_share_first() -> None:
    """R10.1: the standings of a bracket still in play."""
    rows = rank_by_elimination({"a": None, "b": None, "c": 1})
    assert labels(rows) == {"a": "1-2", "b": "1-2", "c": "3"}


def test_a_loss_after_being_knocked_out_is_refused() -> None:
    """R10.1: a record in which an eliminated player plays on is wrong."""
    with pytest.raises(StandingsError, match="already knocked out in round 1"):
        knockout_standings(["a", "b", "c"], [win(1, "a", "b"), win(2, "b", "c")])


@pytest.mark.parametrize(
    ("players", "matches", "kwargs", "message"),
    [
        (["a", "a"], [], {}, "listed twice"),
        (["a", "b"], [win(1, "a", "x")], {}, "x is not in the field"),
        (["a", "b"], [win(1, "a", "a")], {}, "against themselves"),
        (["a", "b"], [MatchRecord(round=1, home="a", away="b", winner="z")], {}, "did not play"),
        (["a", "b"], [], {"disqualified": {"z"}}, "not in the field"),
        (["a", "b"], [], {"lives": {"a": 1}}, "no starting lives"),
        (["a", "b"], [], {"lives": 0}, "at least one life"),
    ],
)
def test_bad_records_are_refused_with_a_clear_reason(players, matches, kwargs, message) -> None:
    """R10.1: impossible inputs are refused with a RuleViolation a referee can read."""
    with pytest.raises(RuleViolation, match=message):
        knockout_standings(players, matches, **kwargs)


def test_rank_by_elimination_refuses_unknown_disqualified_player() -> None:
    """R8.3."""
    with pytest.raises(StandingsError):
        rank_by_elimination({"a": None}, disqualified={"b"})


@settings(max_examples=60, deadline=None)
@given(
    k=st.integers(min_value=1, max_value=5),
    seed=st.integers(min_value=0, max_value=10**6),
    data=st.data(),
)
def test_knockout_standings_are_a_permutation_with_power_of_two_shares(k: int, seed: int, data) -> None:
    """R10.1, R8.3: every non-disqualified player gets exactly one place, ranges fit."""
    players = [f"p{i}" for i in range(2**k)]
    dq = data.draw(st.sets(st.sampled_from(players), max_size=len(players) - 1))
    matches = bracket(players, random.Random(seed))
    rows = knockout_standings(players, matches, disqualified=dq)
    assert_well_formed(rows, set(players) - dq)
    assert remove_players(knockout_standings(players, matches), dq) == rows
    if not dq:
        sizes = sorted({r.place_to - r.place + 1 for r in rows})
        assert sizes == sorted({1} | {2**i for i in range(1, k)})


# ---------------------------------------------------------------- Swiss / league


def test_points_decide_first() -> None:
    """R10.2: more match points rank higher; a BYE earns a win's points."""
    matches = [win(1, "a", "b"), bye(1, "c"), win(2, "a", "c"), win(2, "b", "d")]
    rows = table_standings(["a", "b", "c", "d"], matches)
    assert [r.player_id for r in rows][:1] == ["a"]
    assert {r.player_id: r.points for r in rows} == {"a": 2, "b": 1, "c": 1, "d": 0}


def test_head_to_head_beats_a_better_point_difference() -> None:
    """R10.2: level on points, the winner of their meeting ranks first."""
    matches = [
        win(1, "b", "a", (5, 4)),
        win(2, "a", "c", (5, 0)),
        win(2, "b", "d", (5, 4)),
        win(3, "a", "d", (5, 0)),
        win(3, "c", "b", (5, 4)),
    ]
    rows = table_standings(["a", "b", "c", "d"], matches)
    top = [r for r in rows if r.points == 2]
    assert [r.player_id for r in top] == ["b", "a"]
    assert top[0].point_difference < top[1].point_difference
    assert top[0].head_to_head == 1 and top[1].head_to_head == 0


def test_head_to_head_difference_splits_players_who_beat_each_other_once() -> None:
    """R10.2: a and b beat each other once (level on head-to-head points); a won 5-3 and lost
    4-5, so a is ahead on the head-to-head difference although b has the better overall one."""
    matches = [
        win(1, "a", "b", (5, 3)),
        win(2, "b", "a", (5, 4)),
        win(3, "a", "c", (5, 4)),
        win(4, "b", "c", (5, 0)),
    ]
    rows = table_standings(["a", "b", "c"], matches)
    assert [
        (r.player_id, r.head_to_head, r.head_to_head_difference, r.point_difference) for r in rows[:2]
    ] == [
        ("a", 1, 1, 2),
        ("b", 1, -1, 4),
    ]


def test_head_to_head_is_skipped_when_the_tied_players_have_not_all_met() -> None:
    """R10.2: in a Swiss event a, b, c, z are level but a never met c: head-to-head is skipped,
    so b ranks above a on point difference although a beat b."""
    matches = [
        win(1, "a", "b", (5, 4)),
        win(1, "c", "x", (5, 0)),
        win(2, "b", "y", (5, 0)),
        win(2, "z", "c", (5, 4)),
    ]
    rows = table_standings(["a", "b", "c", "x", "y", "z"], matches)
    assert all(r.head_to_head == 0 for r in rows)
    assert labels(rows) == {"b": "1-2", "c": "1-2", "a": "3-4", "z": "3-4", "x": "5-6", "y": "5-6"}


def test_head_to_head_cycle_falls_through_to_point_difference() -> None:
    """R10.2: a beat b, b beat c, c beat a: head-to-head is level, difference decides."""
    matches = [win(1, "a", "b", (5, 0)), win(2, "b", "c", (5, 3)), win(3, "c", "a", (5, 4))]
    rows = table_standings(["a", "b", "c"], matches)
    assert all(r.head_to_head == 1 for r in rows)
    assert [(r.player_id, r.point_difference) for r in rows] == [("a", 4), ("c", -1), ("b", -3)]


def test_buchholz_decides_when_difference_is_level() -> None:
    """R10.2: sum of the opponents' points is the last tie-break."""
    matches = [
        win(1, "a", "c", (5, 3)),
        win(1, "b", "d", (5, 3)),
        win(2, "c", "d", (5, 3)),
    ]
    rows = table_standings(["a", "b", "c", "d"], matches)
    assert [r.player_id for r in rows][:2] == ["a", "b"]
    assert rows[0].buchholz == 1 and rows[1].buchholz == 0
    assert rows[0].place == 1 and rows[1].place == 2


def test_players_level_after_the_whole_chain_share_the_place() -> None:
    """R10.2: still tied after points, head-to-head, difference and Buchholz: shared place."""
    matches = [win(1, "a", "c", (5, 3)), win(1, "b", "d", (5, 3))]
    rows = table_standings(["a", "b", "c", "d"], matches)
    assert labels(rows) == {"a": "1-2", "b": "1-2", "c": "3-4", "d": "3-4"}


def test_league_points_system_and_forfeits() -> None:
    """R5.6, R8.1: league page sets win 2, loss 1, forfeit 0; forfeit scored length-0."""
    system = MatchPoints(win=2, loss=1, forfeit=0, bye=2)
    matches = [win(1, "a", "b", (7, 5)), win(1, "c", "d", (7, 0), forfeit=True), win(2, "a", "c", (7, 6))]
    rows = {r.player_id: r for r in table_standings(["a", "b", "c", "d"], matches, system)}
    assert rows["a"].points == 4 and rows["b"].points == 1 and rows["c"].points == 3
    assert rows["d"].points == 0 and rows["d"].point_difference == -7


def test_disqualified_player_is_removed_but_their_results_stand() -> None:
    """R8.3: no place for the disqualified player; opponents keep what they won."""
    matches = [win(1, "a", "x"), win(1, "b", "c"), win(2, "x", "b"), win(2, "a", "c")]
    rows = table_standings(["a", "b", "c", "x"], matches, disqualified={"x"})
    assert [r.player_id for r in rows] == ["a", "b", "c"]
    assert rows[0].points == 2 and rows[0].place == 1


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=9),
    seed=st.integers(min_value=0, max_value=10**6),
    win_pts=st.integers(min_value=1, max_value=3),
    data=st.data(),
)
def test_round_robin_standings_are_a_consistent_permutation(n: int, seed: int, win_pts: int, data) -> None:
    """R10.2, R8.3: permutation of the non-disqualified field, points never rise down the table,
    the point difference sums to zero, and equal places mean equal tie-break figures."""
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(n)]
    matches = []
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            lo = rng.randint(0, 4)
            matches.append(win(1, a, b, (5, lo)) if rng.random() < 0.5 else win(1, b, a, (5, lo)))
    dq = data.draw(st.sets(st.sampled_from(players), max_size=n - 1))
    system = MatchPoints(win=win_pts, loss=0)
    rows = table_standings(players, matches, system, disqualified=dq)
    assert_well_formed(rows, set(players) - dq)
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    if not dq:
        assert sum(r.point_difference for r in rows) == 0
        assert sum(r.points for r in rows) == win_pts * n * (n - 1) // 2
    for r in rows:
        for o in rows:
            if r.place == o.place:
                assert r.model_dump(exclude={"player_id"}) == o.model_dump(exclude={"player_id"})


def row(pid: str, a: int, b: int | None = None) -> Standing:
    return Standing(player_id=pid, place=a, place_to=a if b is None else b)


def test_late_disqualification_closes_up_the_places() -> None:
    """R8.3: removing a player from a shared 5-8 makes it 5-7 and moves everybody below up."""
    rows = [row("a", 1), row("b", 2), row("c", 3, 4), row("d", 3, 4)]
    rows += [row(p, 5, 8) for p in "efgh"] + [row("i", 9)]
    out = remove_players(rows, {"b", "f"})
    assert labels(out) == {"a": "1", "c": "2-3", "d": "2-3", "e": "4-6", "g": "4-6", "h": "4-6", "i": "7"}


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([row("a", 1), row("a", 2)], "ranked twice"),
        ([row("a", 2)], "inconsistent at place 1"),
        ([row("a", 1, 2), row("b", 2)], "inconsistent at place 1"),
        ([row("a", 1, 3), row("b", 1, 3)], "fewer players"),
    ],
)
def test_malformed_standings_are_refused(rows: list[Standing], message: str) -> None:
    """R10.1: prizes and season points are only computed from a clean ranking."""
    with pytest.raises(StandingsError, match=message):
        validate_standings(rows)


def test_a_backwards_place_range_is_refused() -> None:
    """R10.1."""
    with pytest.raises(ValueError, match="runs backwards"):
        row("a", 3, 2)
