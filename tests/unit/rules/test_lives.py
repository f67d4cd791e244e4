"""Lives format (R5.7): a loss costs a life, equal lives meet, the BYE to the fewest lives."""

from __future__ import annotations

import random
from collections.abc import Iterable

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.entrants import Entrant, MatchRecord, Pairing
from tavla.rules.lives import (
    LivesError,
    LivesRound,
    lives_remaining,
    lives_winner,
    pair_lives_round,
    players_still_in,
)


def field(n: int, seed: int = 0) -> list[Entrant]:
    rng = random.Random(seed)
    return [Entrant(player_id=f"p{i:03d}", rating=round(rng.gauss(1500, 200))) for i in range(n)]


def play(rnd: LivesRound, rng: random.Random) -> list[MatchRecord]:
    out = []
    for p in rnd.pairings:
        if p.away is None:
            out.append(MatchRecord(round=rnd.round, home=p.home, winner=p.home))
        else:
            out.append(MatchRecord(round=rnd.round, home=p.home, away=p.away, winner=rng.choice(p.players)))
    return out


def oracle(players: list[str], lives: dict[str, int], met: set[frozenset[str]]) -> tuple[int, int]:
    """networkx's exact optimum of (total lives difference, rematches), lexicographically (R5.7)."""
    graph = nx.Graph()
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            rematch = frozenset((a, b)) in met
            graph.add_edge(a, b, weight=10**6 - (10**3 * abs(lives[a] - lives[b]) + rematch))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return score(matching, lives, met)


def score(
    pairs: Iterable[tuple[str, str]], lives: dict[str, int], met: set[frozenset[str]]
) -> tuple[int, int]:
    """(total lives difference, rematches) of a pairing."""
    pairs = list(pairs)
    rematches = sum(1 for p in pairs if frozenset(p) in met)
    return sum(abs(lives[a] - lives[b]) for a, b in pairs), rematches


def check_round(entrants: list[Entrant], history: list[MatchRecord], start: int, rnd: LivesRound) -> None:
    lives = lives_remaining(entrants, history, start)
    alive = [p for p, n in lives.items() if n > 0]
    seated = [x for p in rnd.pairings for x in p.players]
    assert sorted(seated) == sorted(alive)
    assert [p.table for p in rnd.pairings] == list(range(1, len(rnd.pairings) + 1))
    byes = [p.home for p in rnd.pairings if p.away is None]
    assert len(byes) == len(alive) % 2
    if byes:
        fewest = min(lives[p] for p in alive)
        assert lives[byes[0]] == fewest
        had_bye = {r.home for r in history if r.away is None}
        if any(lives[p] == fewest and p not in had_bye for p in alive):
            assert byes[0] not in had_bye
    met = {frozenset((r.home, r.away)) for r in history if r.away is not None}
    games = [(p.home, p.away) for p in rnd.pairings if p.away is not None]
    players = [p for p in alive if p not in byes]
    assert score(games, lives, met) == oracle(players, lives, met)


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=30),
    start=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_every_round_pairs_the_players_still_in_by_equal_lives_then_fewest_rematches(
    n: int, start: int, seed: int
) -> None:
    """R5.7: random events played to the end; every round is checked against an exact matching
    that puts equal lives before avoiding a rematch."""
    entrants = field(n, seed)
    rng = random.Random(seed)
    history: list[MatchRecord] = []
    number = 0
    while lives_winner(entrants, history, start) is None:
        number += 1
        rnd = pair_lives_round(entrants, history, number, seed + number, start)
        check_round(entrants, history, start, rnd)
        history += play(rnd, rng)
    assert len(players_still_in(entrants, history, start)) == 1


def test_each_loss_costs_one_life_and_a_bye_costs_none() -> None:
    """R5.7: three lives; A lost twice, B once, C had a bye and lost once."""
    entrants = [Entrant(player_id=p) for p in "ABC"]
    history = [
        MatchRecord(round=1, home="A", away="B", winner="B"),
        MatchRecord(round=1, home="C", winner="C"),
        MatchRecord(round=2, home="A", away="C", winner="C"),
        MatchRecord(round=2, home="B", winner="B"),
        MatchRecord(round=3, home="B", away="C", winner="B", forfeit=True),
    ]
    assert lives_remaining(entrants, history, 3) == {"A": 1, "B": 3, "C": 2}


def test_a_player_with_no_lives_left_is_out_and_the_last_one_standing_wins() -> None:
    """R5.7: with one life each the loser of the only match is out, the winner has won."""
    entrants = [Entrant(player_id=p) for p in "AB"]
    history = [MatchRecord(round=1, home="A", away="B", winner="A")]
    assert players_still_in(entrants, history, 1) == ["A"]
    assert lives_winner(entrants, history, 1) == "A"
    assert lives_winner(entrants, [], 1) is None
    with pytest.raises(LivesError, match="over: A has won"):
        pair_lives_round(entrants, history, 2, 0, 1)


def test_season_finals_start_each_player_with_their_own_lives() -> None:
    """R5.7: the season leader starts with three lives, the others with fewer."""
    entrants = [Entrant(player_id=p, rating=r) for p, r in zip("ABCD", (1900, 1800, 1700, 1600), strict=True)]
    start = {"A": 3, "B": 2, "C": 2, "D": 1}
    assert lives_remaining(entrants, [], start) == start
    rnd = pair_lives_round(entrants, [], 1, 0, start)
    # A is alone on three lives and meets the nearest group (B); C then meets D, one below:
    # two floats of one life rather than B-C and a float of two lives from A to D.
    assert [p.players for p in rnd.pairings] == [("A", "B"), ("C", "D")]


def test_players_with_the_same_lives_meet() -> None:
    """R5.7: two players on three lives, two on two: each pair meets within its lives."""
    entrants = [Entrant(player_id=p, rating=r) for p, r in zip("ABCD", (1900, 1800, 1700, 1600), strict=True)]
    history = [
        MatchRecord(round=1, home="A", away="C", winner="A"),
        MatchRecord(round=1, home="B", away="D", winner="B"),
    ]
    rnd = pair_lives_round(entrants, history, 2, 0, 3)
    assert [(p.table, p.home, p.away) for p in rnd.pairings] == [(1, "A", "B"), (2, "C", "D")]


def test_the_bye_goes_to_a_player_with_the_fewest_lives_who_had_none() -> None:
    """R5.7: of the two players on one life, the one without a bye sits out."""
    entrants = [Entrant(player_id=p) for p in "ABCDE"]
    start = {"A": 2, "B": 2, "C": 2, "D": 1, "E": 1}
    history = [MatchRecord(round=1, home="D", winner="D")]
    history += [
        MatchRecord(round=1, home="A", away="B", winner="A"),
        MatchRecord(round=1, home="C", away="E", winner="C"),
    ]
    # Now A 2, B 1, C 2, D 1 (had a bye), E 0 (out): four still in, no bye.
    rnd = pair_lives_round(entrants, history, 2, 0, start)
    assert not any(p.is_bye for p in rnd.pairings)
    rnd = pair_lives_round(entrants, history[:1], 2, 0, start)
    assert rnd.pairings[-1] == Pairing(table=3, home="E")


def test_rematches_are_avoided_while_possible_and_allowed_when_not() -> None:
    """R5.7: the last two players may meet again; earlier a new opponent is preferred."""
    entrants = [Entrant(player_id=p) for p in "ABCD"]
    history = [
        MatchRecord(round=1, home="A", away="B", winner="A"),
        MatchRecord(round=1, home="C", away="D", winner="C"),
    ]
    rnd = pair_lives_round(entrants, history, 2, 0, 2)
    # Equal lives would pair A-C and B-D: new opponents too.
    assert {frozenset(p.players) for p in rnd.pairings} == {frozenset("AC"), frozenset("BD")}
    history += [
        MatchRecord(round=2, home="A", away="C", winner="A"),
        MatchRecord(round=2, home="B", away="D", winner="B"),
    ]
    # A 2, B 1, C 1, D 0 (out). Three left: the bye goes to B or C (one life each).
    rnd = pair_lives_round(entrants, history, 3, 0, 2)
    assert rnd.pairings[-1].is_bye and rnd.pairings[-1].home in {"B", "C"}
    two_left = [Entrant(player_id=p) for p in "AB"]
    again = pair_lives_round(two_left, history[:1], 2, 0, 2)
    assert again.pairings == (Pairing(table=1, home="A", away="B"),)


def test_impossible_settings_and_results_are_refused() -> None:
    """R5.7: a referee sees why the lives cannot be counted."""
    entrants = [Entrant(player_id=p) for p in "AB"]
    with pytest.raises(LivesError, match="at least one"):
        lives_remaining(entrants, [], 0)
    with pytest.raises(LivesError, match="no starting lives given for B"):
        lives_remaining(entrants, [], {"A": 2})
    with pytest.raises(LivesError, match="entered twice"):
        lives_remaining([*entrants, Entrant(player_id="A")], [], 2)
    with pytest.raises(LivesError, match="not in this lives event"):
        lives_remaining(entrants, [MatchRecord(round=1, home="A", away="Z", winner="A")], 2)
    out = [MatchRecord(round=1, home="A", away="B", winner="A"), MatchRecord(round=2, home="B", winner="B")]
    with pytest.raises(LivesError, match="already out"):
        lives_remaining(entrants, out, 1)
    with pytest.raises(LivesError, match="not a valid match"):
        lives_remaining(entrants, [MatchRecord(round=1, home="A", away="B", winner="C")], 2)
    with pytest.raises(LivesError, match="not a valid match"):
        lives_remaining(entrants, [MatchRecord(round=1, home="A", away="A", winner="A")], 2)
    with pytest.raises(LivesError, match="numbered from 1"):
        pair_lives_round(entrants, [], 0, 0, 2)
    with pytest.raises(LivesError, match="already on record"):
        pair_lives_round(entrants, [MatchRecord(round=1, home="A", away="B", winner="A")], 1, 0, 2)
    with pytest.raises(LivesError, match="over"):
        pair_lives_round(entrants[:1], [], 1, 0, 2)


def test_the_same_input_gives_the_same_pairing() -> None:
    """R5.1: reproducible from the field, the results and the seed."""
    entrants = field(25, 3)
    rng = random.Random(3)
    history: list[MatchRecord] = []
    for number in (1, 2, 3):
        history += play(pair_lives_round(entrants, history, number, 11, 3), rng)
    a = pair_lives_round(entrants, history, 4, 11, 3)
    assert a == pair_lives_round(list(reversed(entrants)), list(reversed(history)), 4, 11, 3)


# R5.7's smallest case: five players, two lives, three rounds.
FIVE = [Entrant(player_id=f"P{i}", rating=1500 - i) for i in range(5)]
TWO_ROUNDS = [
    MatchRecord(round=1, home="P0", away="P4", winner="P4"),
    MatchRecord(round=1, home="P3", away="P2", winner="P2"),
    MatchRecord(round=1, home="P1", winner="P1"),
    MatchRecord(round=2, home="P2", away="P4", winner="P2"),
    MatchRecord(round=2, home="P1", away="P3", winner="P1"),
    MatchRecord(round=2, home="P0", winner="P0"),
]


def test_equal_lives_meet_even_when_that_is_a_rematch() -> None:
    """R5.7: after two rounds P1 and P2 have 2 lives, P0 and P4 1 (P3 is out). P0 and P4
    met in round 1, but equal lives come first: round 3 is P1-P2 and P0-P4 (a rematch inside
    the one-life group, which leaves no other way), not P2-P0 and P1-P4."""
    assert lives_remaining(FIVE, TWO_ROUNDS, 2) == {"P0": 1, "P1": 2, "P2": 2, "P3": 0, "P4": 1}
    rnd = pair_lives_round(FIVE, TWO_ROUNDS, 3, 0, 2)
    assert {frozenset(p.players) for p in rnd.pairings} == {frozenset({"P1", "P2"}), frozenset({"P0", "P4"})}
    assert [p.table for p in rnd.pairings if set(p.players) == {"P1", "P2"}] == [1]


def test_draws_of_the_older_rule_still_pair_rematch_free_first() -> None:
    """R5.1: a round drawn under the older order (no rematch first) recomputes as published:
    P2-P0 and P1-P4."""
    rnd = pair_lives_round(FIVE, TWO_ROUNDS, 3, 0, 2, equal_lives_first=False)
    assert {frozenset(p.players) for p in rnd.pairings} == {frozenset({"P0", "P2"}), frozenset({"P1", "P4"})}


@st.composite
def lives_days(draw: st.DrawFn) -> tuple[list[Entrant], list[MatchRecord], int, int]:
    """A lives event part-played at random: its field, the history so far, lives, next round."""
    n = draw(st.integers(min_value=2, max_value=14))
    start = draw(st.integers(min_value=1, max_value=3))
    seed = draw(st.integers(min_value=0, max_value=10**6))
    entrants = field(n, seed)
    rng = random.Random(seed)
    history: list[MatchRecord] = []
    rounds = draw(st.integers(min_value=0, max_value=8))
    number = 0
    while number < rounds and lives_winner(entrants, history, start) is None:
        number += 1
        history += play(pair_lives_round(entrants, history, number, seed + number, start), rng)
    return entrants, history, start, number + 1


@settings(max_examples=60, deadline=None)
@given(day=lives_days())
def test_groups_pair_inside_before_a_rematch_is_avoided(
    day: tuple[list[Entrant], list[MatchRecord], int, int],
) -> None:
    """R5.7 on random lives days: (1) at most one player crosses each gap between lives groups,
    and only when the players above it are odd in number (an odd group is evened out, no
    more); (2) a pair of equal lives is a rematch only if no pairing with the same crossings
    has fewer rematches (the group left no other way); (3) the BYE is a player with the
    fewest lives."""
    entrants, history, start, number = day
    lives = lives_remaining(entrants, history, start)
    if sum(1 for n in lives.values() if n > 0) < 2:
        return
    rnd = pair_lives_round(entrants, history, number, number, start)
    byes = [p.home for p in rnd.pairings if p.away is None]
    alive = [p for p, n in lives.items() if n > 0]
    if byes:
        assert lives[byes[0]] == min(lives[p] for p in alive)
    games = [(p.home, p.away) for p in rnd.pairings if p.away is not None]
    seated = [p for p in alive if p not in byes]
    for level in sorted({lives[p] for p in seated})[:-1]:
        above = sum(1 for p in seated if lives[p] > level)
        crossing = sum(1 for a, b in games if min(lives[a], lives[b]) <= level < max(lives[a], lives[b]))
        assert crossing == above % 2, (level, games)
    met = {frozenset((r.home, r.away)) for r in history if r.away is not None}
    assert score(games, lives, met) == oracle(seated, lives, met)
