"""The pairing engine shared by Swiss and Lives: exact minimum total level difference, no rematch."""

from __future__ import annotations

import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.errors import RuleViolation
from tavla.rules.line_matching import NoPerfectMatching, matching_cost, min_cost_line_matching


def oracle_cost(levels: list[int], forbidden: list[tuple[int, int]]) -> int | None:
    """networkx's exact blossom algorithm: the minimum total difference, None if no pairing."""
    banned = {frozenset(p) for p in forbidden}
    graph = nx.Graph()
    graph.add_nodes_from(range(len(levels)))
    spread = max(levels) - min(levels) + 1
    for i in range(len(levels)):
        for j in range(i + 1, len(levels)):
            if frozenset((i, j)) not in banned:
                graph.add_edge(i, j, weight=spread - abs(levels[i] - levels[j]))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(levels):
        return None
    return int(sum(abs(levels[a] - levels[b]) for a, b in matching))


def assert_valid(levels: list[int], forbidden: list[tuple[int, int]], pairs: list[tuple[int, int]]) -> None:
    banned = {frozenset(p) for p in forbidden}
    assert sorted(x for p in pairs for x in p) == list(range(len(levels)))
    assert not [p for p in pairs if frozenset(p) in banned]


@st.composite
def fields(draw: st.DrawFn) -> tuple[list[int], list[tuple[int, int]]]:
    n = 2 * draw(st.integers(min_value=1, max_value=12))
    top = draw(st.integers(min_value=0, max_value=6))
    levels = sorted((draw(st.integers(min_value=0, max_value=top)) for _ in range(n)), reverse=True)
    density = draw(st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.7]))
    rng = random.Random(draw(st.integers(min_value=0, max_value=2**32)))
    forbidden = [(i, j) for i in range(n) for j in range(i + 1, n) if rng.random() < density]
    return levels, forbidden


@settings(max_examples=150, deadline=None)
@given(fields())
def test_total_difference_equals_the_exact_optimum(field: tuple[list[int], list[tuple[int, int]]]) -> None:
    """R5.5/R5.7: the engine's total equals an exact maximum-weight matching's, with no rematch."""
    levels, forbidden = field
    expected = oracle_cost(levels, forbidden)
    if expected is None:
        with pytest.raises(NoPerfectMatching):
            min_cost_line_matching(levels, forbidden)
        return
    pairs = min_cost_line_matching(levels, forbidden)
    assert_valid(levels, forbidden, pairs)
    assert matching_cost(levels, pairs) == expected


def test_a_large_group_with_one_player_who_met_everybody_in_it_floats_that_player() -> None:
    """R5.5: 70 players on 3 points, one of whom met the other 69; 2 on 2 points."""
    levels = [3] * 70 + [2] * 2
    forbidden = [(0, j) for j in range(1, 70)]
    pairs = min_cost_line_matching(levels, forbidden)
    assert_valid(levels, forbidden, pairs)
    assert matching_cost(levels, pairs) == oracle_cost(levels, forbidden) == 2


def test_equal_levels_pair_top_half_against_bottom_half() -> None:
    """R5.5: in a score group of eight, 1 meets 5, 2 meets 6, 3 meets 7, 4 meets 8."""
    assert min_cost_line_matching([2] * 8, []) == [(0, 4), (1, 5), (2, 6), (3, 7)]


def test_the_lowest_ranked_player_of_an_odd_group_floats_down() -> None:
    """R5.5: three on one point, one on nil: the third-ranked floats down to meet the last."""
    assert min_cost_line_matching([1, 1, 1, 0], []) == [(0, 1), (2, 3)]


def test_a_rematch_inside_the_group_is_repaired_by_swapping_opponents() -> None:
    """R5.5: 1 already met 3, so the group pairs 1-4 and 2-3 instead."""
    pairs = min_cost_line_matching([1, 1, 1, 1], [(0, 2)])
    assert pairs == [(0, 3), (1, 2)]


def test_players_who_all_met_are_floated_with_the_smallest_total() -> None:
    """R5.5: the two leaders met; each floats one score group down rather than further."""
    levels = [5, 5, 4, 4, 3, 3]
    forbidden = [(0, 1), (2, 3)]
    pairs = min_cost_line_matching(levels, forbidden)
    assert_valid(levels, forbidden, pairs)
    assert matching_cost(levels, pairs) == 2


def test_an_odd_number_of_players_cannot_all_be_paired() -> None:
    with pytest.raises(NoPerfectMatching, match="odd"):
        min_cost_line_matching([1, 1, 1], [])


def test_when_every_pairing_is_a_rematch_the_engine_refuses() -> None:
    """R5.5: four players who all met each other cannot be paired again."""
    everyone = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    with pytest.raises(RuleViolation, match="rematch"):
        min_cost_line_matching([2, 1, 1, 0], everyone)


def test_pairs_outside_the_field_and_self_pairs_are_ignored() -> None:
    assert min_cost_line_matching([0, 0], [(0, 0), (1, 5)]) == [(0, 1)]


def test_the_same_input_always_gives_the_same_pairing() -> None:
    """R5.1: a draw anyone can recompute."""
    rng = random.Random(7)
    levels = sorted((rng.randint(0, 5) for _ in range(60)), reverse=True)
    forbidden = [(i, j) for i in range(60) for j in range(i + 1, 60) if rng.random() < 0.2]
    first = min_cost_line_matching(levels, forbidden)
    assert first == min_cost_line_matching(levels, list(reversed(forbidden)))
    assert matching_cost(levels, first) == oracle_cost(levels, forbidden)
