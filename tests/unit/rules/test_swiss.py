"""Swiss pairing (R5.5): equal points meet, never the same two twice, the BYE to the lowest."""

from __future__ import annotations

import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.entrants import Entrant, MatchRecord, Pairing
from tavla.rules.swiss import SwissError, SwissRound, pair_swiss_round, swiss_ranking


def field(n: int, seed: int = 0) -> list[Entrant]:
    rng = random.Random(seed)
    return [Entrant(player_id=f"p{i:03d}", rating=round(rng.gauss(1500, 200))) for i in range(n)]


def play(pairings: SwissRound, rng: random.Random) -> list[MatchRecord]:
    """Random results to 5 points; a BYE is recorded as a 5-0 win."""
    out = []
    for p in pairings.pairings:
        if p.away is None:
            out.append(MatchRecord(round=pairings.round, home=p.home, winner=p.home, home_points=5))
            continue
        home_wins = rng.random() < 0.5
        loser_points = rng.randint(0, 4)
        out.append(
            MatchRecord(
                round=pairings.round,
                home=p.home,
                away=p.away,
                winner=p.home if home_wins else p.away,
                home_points=5 if home_wins else loser_points,
                away_points=loser_points if home_wins else 5,
            )
        )
    return out


def points_of(history: list[MatchRecord]) -> dict[str, int]:
    points: dict[str, int] = {}
    for r in history:
        points[r.winner] = points.get(r.winner, 0) + 1
    return points


def oracle_total(players: list[str], points: dict[str, int], met: set[frozenset[str]]) -> int | None:
    """networkx's exact maximum-weight matching: the least total points difference."""
    graph = nx.Graph()
    graph.add_nodes_from(players)
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if frozenset((a, b)) not in met:
                graph.add_edge(a, b, weight=100 - abs(points.get(a, 0) - points.get(b, 0)))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(players):
        return None
    return sum(abs(points.get(a, 0) - points.get(b, 0)) for a, b in matching)


def check_round(entrants: list[Entrant], history: list[MatchRecord], rnd: SwissRound) -> None:
    """The guarantees of R5.5 on one round, the total checked against the exact optimum."""
    ids = [e.player_id for e in entrants]
    seated = [x for p in rnd.pairings for x in p.players]
    assert sorted(seated) == sorted(ids)
    assert [p.table for p in rnd.pairings] == list(range(1, len(rnd.pairings) + 1))
    met = {frozenset((r.home, r.away)) for r in history if r.away is not None}
    games = [p for p in rnd.pairings if p.away is not None]
    assert not [p for p in games if frozenset(p.players) in met]
    points = points_of(history)
    byes = [p.home for p in rnd.pairings if p.away is None]
    assert len(byes) == len(ids) % 2
    if byes:
        assert rnd.pairings[-1].is_bye
        had_bye = {r.home for r in history if r.away is None}
        ranking = [s.player_id for s in swiss_ranking(entrants, history, rnd.seed)]
        eligible = [p for p in ranking if p not in had_bye]
        if eligible and byes[0] != eligible[-1]:
            # Only allowed when the lowest-ranked would leave a field with no legal pairing.
            rest = [p for p in ids if p != eligible[-1]]
            assert oracle_total(rest, points, met) is None
    total = sum(abs(points.get(p.home, 0) - points.get(p.away or "", 0)) for p in games)
    assert total == oracle_total([p for p in ids if p not in byes], points, met)


def run_tournament(n: int, rounds: int, seed: int) -> list[SwissRound]:
    entrants = field(n, seed)
    rng = random.Random(seed)
    history: list[MatchRecord] = []
    played = []
    for number in range(1, rounds + 1):
        try:
            rnd = pair_swiss_round(entrants, history, number, seed + number)
        except SwissError:
            # Only when the field has truly run out of new opponents.
            met = {frozenset((r.home, r.away)) for r in history if r.away is not None}
            ids = [e.player_id for e in entrants]
            points = points_of(history)
            choices = [[p for p in ids if p != b] for b in ids] if n % 2 else [ids]
            assert all(oracle_total(rest, points, met) is None for rest in choices)
            break
        check_round(entrants, history, rnd)
        history += play(rnd, rng)
        played.append(rnd)
    return played


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=64),
    rounds=st.integers(min_value=1, max_value=9),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_every_round_has_the_least_total_points_difference_and_no_rematch(
    n: int, rounds: int, seed: int
) -> None:
    """R5.5: on random tournaments with random results every round equals networkx's exact optimum."""
    run_tournament(n, rounds, seed)


@pytest.mark.parametrize(("n", "seed"), [(128, 1), (127, 2)])
def test_fields_of_up_to_128_match_the_exact_optimum_every_round(n: int, seed: int) -> None:
    """R5.5: a 128-player and a 127-player Swiss of 7 rounds, each round checked against networkx."""
    assert len(run_tournament(n, 7, seed)) == 7


def test_small_field_runs_out_of_opponents_and_is_refused_clearly() -> None:
    """R5.5: four players after three rounds have met everybody: round 4 would repeat a match."""
    entrants = field(4)
    history: list[MatchRecord] = []
    for number in (1, 2, 3):
        rnd = pair_swiss_round(entrants, history, number, 1)
        history += play(rnd, random.Random(number))
    with pytest.raises(SwissError, match="repeat a match"):
        pair_swiss_round(entrants, history, 4, 1)


def test_round_one_pairs_the_top_half_against_the_bottom_half_by_rating() -> None:
    """R5.5: eight players, nobody has points: seed 1 meets seed 5, 2 meets 6, and so on."""
    entrants = [Entrant(player_id=f"s{i}", rating=2000 - 10 * i) for i in range(1, 9)]
    rnd = pair_swiss_round(entrants, [], 1, seed=42)
    assert [(p.table, p.home, p.away) for p in rnd.pairings] == [
        (1, "s1", "s5"),
        (2, "s2", "s6"),
        (3, "s3", "s7"),
        (4, "s4", "s8"),
    ]
    assert rnd.seed == 42 and rnd.round == 1


def test_winners_meet_winners_and_losers_meet_losers() -> None:
    """R5.5: after round one, the players on one point meet each other."""
    entrants = [Entrant(player_id=p) for p in "ABCD"]
    history = [
        MatchRecord(round=1, home="A", away="B", winner="A", home_points=5, away_points=2),
        MatchRecord(round=1, home="C", away="D", winner="C", home_points=5, away_points=3),
    ]
    rnd = pair_swiss_round(entrants, history, 2, seed=0)
    assert [(p.table, p.home, p.away) for p in rnd.pairings] == [(1, "A", "C"), (2, "D", "B")]


def test_the_bye_goes_to_the_lowest_ranked_player_without_one_and_counts_as_a_win() -> None:
    """R5.5: five players; the last in the ranking sits out, and scores a point for it."""
    entrants = [Entrant(player_id=f"s{i}", rating=2000 - 10 * i) for i in range(1, 6)]
    first = pair_swiss_round(entrants, [], 1, seed=3)
    assert first.pairings[-1] == Pairing(table=3, home="s5")
    bye = MatchRecord(round=1, home="s5", winner="s5", home_points=5)
    history = [
        MatchRecord(round=1, home="s1", away="s3", winner="s3", home_points=1, away_points=5),
        MatchRecord(round=1, home="s2", away="s4", winner="s4", home_points=4, away_points=5),
        bye,
    ]
    ranking = {s.player_id: s for s in swiss_ranking(entrants, history, 3)}
    assert ranking["s5"].points == 1 and ranking["s5"].byes == 1
    second = pair_swiss_round(entrants, history, 2, seed=3)
    # s5 already had a bye; the lowest-ranked of the others (s1, lost 1-5) gets it now.
    assert second.pairings[-1] == Pairing(table=3, home="s1")


def test_the_bye_moves_up_when_the_lowest_would_leave_only_rematches() -> None:
    """R5.5: E is the lowest without a bye, but A has met B, C and D, so E must play A."""
    entrants = [Entrant(player_id=p) for p in "ABCDE"]
    history = [
        MatchRecord(round=1, home="A", away="B", winner="A"),
        MatchRecord(round=1, home="C", away="E", winner="C"),
        MatchRecord(round=1, home="D", winner="D"),
        MatchRecord(round=2, home="A", away="C", winner="A"),
        MatchRecord(round=2, home="D", away="E", winner="D"),
        MatchRecord(round=2, home="B", winner="B"),
        MatchRecord(round=3, home="A", away="D", winner="A"),
        MatchRecord(round=3, home="B", away="E", winner="E"),
        MatchRecord(round=3, home="C", winner="C"),
    ]
    rnd = pair_swiss_round(entrants, history, 4, seed=0)
    assert rnd.pairings[-1].home == "B" and rnd.pairings[-1].is_bye
    assert {frozenset(p.players) for p in rnd.pairings[:-1]} == {frozenset("AE"), frozenset("CD")}


def test_ranking_breaks_ties_by_point_difference_then_buchholz_then_rating() -> None:
    """R5.5/R10.2: equal points are ordered by point difference, then the opponents' points."""
    entrants = [Entrant(player_id=p, rating=1500 + 10 * i) for i, p in enumerate("ABCDEF")]
    history = [
        MatchRecord(round=1, home="A", away="B", winner="A", home_points=5, away_points=0),
        MatchRecord(round=1, home="C", away="D", winner="C", home_points=5, away_points=4),
        MatchRecord(round=1, home="E", away="F", winner="E", home_points=5, away_points=4),
        MatchRecord(round=2, home="D", away="F", winner="D", home_points=5, away_points=0),
    ]
    order = [s.player_id for s in swiss_ranking(entrants, history, 0)]
    # One point each: A +5, D +4 (lost 4-5, won 5-0), then C and E +1 each, where C's
    # opponent D has a point (Buchholz 1) and E's opponent F has none. No points: B -5, F -6.
    assert order == ["A", "D", "C", "E", "B", "F"]
    tied = [Entrant(player_id="low", rating=1400), Entrant(player_id="high", rating=1600)]
    assert [s.player_id for s in swiss_ranking(tied, [], 0)] == ["high", "low"]


def test_the_same_input_gives_the_same_pairing_whatever_the_entry_order() -> None:
    """R5.1: the draw is reproducible from the field, the history and the seed."""
    entrants = field(21, 5)
    rng = random.Random(5)
    history: list[MatchRecord] = []
    for number in (1, 2, 3):
        history += play(pair_swiss_round(entrants, history, number, 9), rng)
    a = pair_swiss_round(entrants, history, 4, 9)
    b = pair_swiss_round(list(reversed(entrants)), list(reversed(history)), 4, 9)
    assert a == b


def test_bad_requests_are_refused_with_a_reason() -> None:
    """R5.5: a referee sees why a round cannot be paired."""
    entrants = [Entrant(player_id=p) for p in "ABCD"]
    with pytest.raises(SwissError, match="entered twice"):
        pair_swiss_round([*entrants, Entrant(player_id="A")], [], 1, 0)
    with pytest.raises(SwissError, match="entered twice"):
        swiss_ranking([*entrants, Entrant(player_id="A")], [], 0)
    with pytest.raises(SwissError, match="numbered from 1"):
        pair_swiss_round(entrants, [], 0, 0)
    with pytest.raises(SwissError, match="at least two"):
        pair_swiss_round(entrants[:1], [], 1, 0)
    later = MatchRecord(round=2, home="A", away="B", winner="A")
    with pytest.raises(SwissError, match="already on record"):
        pair_swiss_round(entrants, [later], 2, 0)
    with pytest.raises(SwissError, match="themselves"):
        pair_swiss_round(entrants, [MatchRecord(round=1, home="A", away="A", winner="A")], 2, 0)
    with pytest.raises(SwissError, match="did not play"):
        pair_swiss_round(entrants, [MatchRecord(round=1, home="A", away="B", winner="C")], 2, 0)


def test_a_withdrawn_opponent_still_counts_for_rematches_and_buchholz() -> None:
    """R5.5/R8.2: players who left stay in the history; the rest are never paired twice."""
    entrants = [Entrant(player_id=p) for p in "ABCD"]
    history = [
        MatchRecord(round=1, home="A", away="X", winner="A"),
        MatchRecord(round=1, home="B", away="C", winner="B"),
        MatchRecord(round=1, home="D", winner="D"),
        MatchRecord(round=2, home="X", away="B", winner="X"),
    ]
    ranking = {s.player_id: s for s in swiss_ranking(entrants, history, 0)}
    assert ranking["A"].buchholz == 1 and ranking["B"].buchholz == 1
    rnd = pair_swiss_round(entrants, history, 3, 0)
    # A, B and D have a point, C none; B met C, so the lowest of the three, D, floats to C.
    assert {frozenset(p.players) for p in rnd.pairings} == {frozenset("AB"), frozenset("CD")}
