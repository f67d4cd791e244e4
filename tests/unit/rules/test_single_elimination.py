"""Single elimination draws and their progress (R5.1, R5.2, R5.3, R10.1, seed 001 2.6)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.entrants import Entrant, MatchRecord
from tavla.rules.errors import RuleViolation
from tavla.rules.single_elimination import (
    DuplicatePlayer,
    NoFreeSlot,
    NotEnoughPlayers,
    ResultMissing,
    SingleEliminationDraw,
    WinnerNotInMatch,
    bracket_size,
    bye_holders,
    draw_single_elimination,
    fill_late_arrivals,
    next_round,
    play_out,
    round_pairings,
    seed_positions,
)

CLUBS = [None, "Thessaloniki", "Athens", "Patras", "Volos"]


def field(n: int, clubs: list[str | None] | None = None) -> list[Entrant]:
    return [
        Entrant(player_id=f"p{i:03d}", rating=2000 - 7 * i, club=None if clubs is None else clubs[i])
        for i in range(n)
    ]


fields = st.integers(min_value=2, max_value=70).flatmap(
    lambda n: st.lists(st.sampled_from(CLUBS), min_size=n, max_size=n).map(lambda c: field(len(c), c))
)
seeds = st.integers(min_value=0, max_value=2**32)


def simulate(lines, rng: random.Random):
    """Play a bracket with random winners; return MatchRecords."""
    records: list[MatchRecord] = []
    number = 1
    while len(lines) > 1:
        winners = []
        for board in round_pairings(lines):
            if board.away is None:
                continue
            winner = rng.choice([board.home, board.away])
            winners.append(winner)
            records.append(MatchRecord(round=number, home=board.home, away=board.away, winner=winner))
        lines = next_round(lines, winners)
        number += 1
    return records


def test_sixteen_player_bracket_follows_the_standard_seed_order():
    """R5.3: for 16 the lines read 1-16, 8-9, 4-13, 5-12, 2-15, 7-10, 3-14, 6-11."""
    assert seed_positions(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)


@given(st.integers(min_value=0, max_value=10))
def test_top_seeds_meet_as_late_as_possible(power):
    """R5.3: seeds 1 and 2 only in the final, seeds 1-4 only from the semis, and so on."""
    size = 1 << power
    lines = seed_positions(size)
    assert sorted(lines) == list(range(1, size + 1))
    block = size
    top = 1
    while block >= 1:
        # the best `top` seeds sit in different blocks of `block` lines
        holders = [i // block for i, s in enumerate(lines) if s <= top]
        assert len(set(holders)) == len(holders)
        block //= 2
        top *= 2


def test_bracket_size_is_the_next_power_of_two():
    """R5.3: 5 players play in an 8 bracket, 8 in 8, 9 in 16."""
    assert [bracket_size(n) for n in (2, 3, 5, 8, 9, 4096)] == [2, 4, 8, 8, 16, 4096]


def test_a_bracket_of_one_is_refused():
    """R5.3: an elimination needs two players."""
    with pytest.raises(NotEnoughPlayers, match="at least 2"):
        draw_single_elimination(field(1), seed=1)


def test_a_non_power_of_two_bracket_is_refused():
    """R5.3: bracket sizes are powers of two."""
    with pytest.raises(RuleViolation, match="power of two"):
        seed_positions(12)


def test_a_player_entered_twice_is_refused():
    """R5.1: nobody is placed twice."""
    twice = [*field(3), Entrant(player_id="p000")]
    with pytest.raises(DuplicatePlayer, match="p000"):
        draw_single_elimination(twice, seed=1)


@settings(max_examples=60, deadline=None)
@given(fields, seeds, st.booleans(), st.sampled_from(["rating", "random"]))
def test_every_player_is_placed_once_and_the_top_seeds_get_the_byes(entrants, seed, protect, mode):
    """R5.3: all players on one line each; the BYEs go to the top seeds, club protection or not."""
    draw = draw_single_elimination(entrants, seed=seed, mode=mode, club_protection=protect)
    placed = [p for p in draw.lines if p is not None]
    assert sorted(placed) == sorted(e.player_id for e in entrants)
    assert draw.size == bracket_size(len(entrants)) == len(draw.lines)
    byes = draw.size - len(entrants)
    assert bye_holders(draw.lines) == set(draw.seed_list[:byes])
    assert sum(1 for b in draw.first_round() if b.is_bye) == byes
    assert draw.seed == seed


@settings(max_examples=40, deadline=None)
@given(fields, seeds, st.booleans(), st.randoms(use_true_random=False))
def test_the_same_input_and_seed_always_give_the_same_draw(entrants, seed, protect, rng):
    """R5.1: anyone can recompute the draw from the published seed, whatever the entry order."""
    shuffled = entrants[:]
    rng.shuffle(shuffled)
    first = draw_single_elimination(entrants, seed=seed, mode="random", club_protection=protect)
    again = draw_single_elimination(shuffled, seed=first.seed, mode="random", club_protection=protect)
    assert first == again


def _clubmates_in_round_one(
    draw: SingleEliminationDraw, clubs: dict[str, str | None]
) -> list[tuple[str, str]]:
    return [
        (b.home, b.away)
        for b in draw.first_round()
        if b.away is not None and clubs[b.home] is not None and clubs[b.home] == clubs[b.away]
    ]


@settings(max_examples=60, deadline=None)
@given(fields, seeds)
def test_club_protection_leaves_only_unavoidable_clashes_and_names_them(entrants, seed):
    """R5.2: clubmates meet in round one only when the numbers force it, and the draw says which."""
    clubs = {e.player_id: e.club for e in entrants}
    plain = draw_single_elimination(entrants, seed=seed)
    draw = draw_single_elimination(entrants, seed=seed, club_protection=True)
    clashes = _clubmates_in_round_one(draw, clubs)
    assert sorted(clashes) == sorted((c.home, c.away) for c in draw.club_clashes)
    assert all(clubs[c.home] == c.club for c in draw.club_clashes)
    # the fewest possible: only a club with more players than round-one matches must clash
    size, n = draw.size, len(entrants)
    order = draw.seed_list
    top = Counter(clubs[p] for p in order[size - n : size // 2])
    bottom = Counter(clubs[p] for p in order[size // 2 : n])
    matches = n - size // 2
    forced = max([0] + [top[c] + bottom[c] - matches for c in set(top) | set(bottom) if c is not None])
    assert len(clashes) == forced
    assert len(clashes) <= len(_clubmates_in_round_one(plain, clubs))
    # the seeding structure holds: only the bottom seed band moved
    seat = seed_positions(size)
    for line, player in enumerate(draw.lines):
        if seat[line] <= size // 2:
            assert player == plain.lines[line]
        elif player is not None:
            assert order.index(player) >= size // 2


def test_clubmates_seeded_one_and_sixteen_are_kept_apart():
    """R5.2 worked example: seed 1 and seed 16 of the same club do not meet in round one."""
    clubs: list[str | None] = [None] * 16
    clubs[0] = clubs[15] = "Athens"
    draw = draw_single_elimination(field(16, clubs), seed=5, club_protection=True)
    assert draw.lines[0] == "p000"
    assert draw.lines[1] != "p015"
    assert draw.club_clashes == ()


def test_a_club_with_most_of_the_field_reports_the_clashes_it_cannot_avoid():
    """R5.2: 12 players, the 4 top seeds with BYEs, the other 8 all of one club: 4 clashes."""
    clubs: list[str | None] = ["Patras", "Athens", None, None] + ["Volos"] * 8
    draw = draw_single_elimination(field(12, clubs), seed=2, club_protection=True)
    assert len(draw.club_clashes) == 4
    assert {c.club for c in draw.club_clashes} == {"Volos"}


def test_late_arrivals_fill_the_free_slots_in_bracket_order():
    """Seed 001 2.6: late arrivals take the free slots in the order of the bracket's numbering."""
    draw = draw_single_elimination(field(5), seed=1)  # 8 lines, 3 free
    free = [i for i, p in enumerate(draw.lines) if p is None]
    filled = fill_late_arrivals(draw, ["late1", "late2"])
    assert filled.lines[free[0]] == "late1"
    assert filled.lines[free[1]] == "late2"
    assert filled.lines[free[2]] is None
    assert filled.late_arrivals == ("late1", "late2")
    again = fill_late_arrivals(filled, ["late3"])
    assert None not in again.lines


def test_the_director_can_keep_more_slots_free_for_late_arrivals():
    """Seed 001 2.6: the director decides how many late-arrival slots to keep."""
    draw = draw_single_elimination(field(8), seed=1, late_slots=2)
    assert draw.size == 16
    assert bye_holders(draw.lines) == set(draw.seed_list[:8])
    filled = fill_late_arrivals(draw, ["late1", "late2"])
    assert {"late1", "late2"} <= set(filled.lines)
    with pytest.raises(RuleViolation, match="negative"):
        draw_single_elimination(field(8), seed=1, late_slots=-1)


def test_a_late_arrival_with_no_free_slot_is_refused():
    """Seed 001 2.6: a full bracket has no slot for a late arrival."""
    with pytest.raises(NoFreeSlot, match="free slots"):
        fill_late_arrivals(draw_single_elimination(field(8), seed=1), ["late"])


def test_a_late_arrival_already_in_the_draw_is_refused():
    """Seed 001 2.6: a player cannot be placed twice."""
    with pytest.raises(DuplicatePlayer):
        fill_late_arrivals(draw_single_elimination(field(5), seed=1), ["p001"])


def test_a_bye_advances_without_a_result():
    """R5.3: the player facing a BYE is in round two."""
    assert next_round(["a", None, "b", "c"], ["c"]) == ("a", "c")


def test_an_empty_pair_stays_empty():
    """An unused pair of free slots yields a free slot in the next round."""
    assert next_round([None, None, "b", "c"], ["b"]) == (None, "b")
    assert round_pairings([None, None, "b", "c"]) == round_pairings(["b", "c"])


def test_a_round_with_a_missing_result_does_not_advance():
    """R5.3: the next round is drawn only from finished matches."""
    with pytest.raises(ResultMissing, match="a - b"):
        next_round(["a", "b", "c", "d"], ["c"])


def test_two_winners_of_one_match_are_refused():
    """R5.3: a match has one winner."""
    with pytest.raises(WinnerNotInMatch, match="both win"):
        next_round(["a", "b"], ["a", "b"])


def test_a_winner_from_outside_the_round_is_refused():
    """R5.3: only players of the round can win in it."""
    with pytest.raises(WinnerNotInMatch, match="zed"):
        next_round(["a", "b"], ["a", "zed"])


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=64), seeds)
def test_play_out_crowns_one_champion_and_knocks_everyone_else_out_once(n, seed):
    """R5.3, R10.1: the loser is out; players out in the same round share that round."""
    draw = draw_single_elimination(field(n), seed=seed, mode="random")
    records = simulate(draw.lines, random.Random(seed))
    progress = play_out(draw.lines, records)
    assert progress.champion is not None
    assert len(progress.rounds) == draw.rounds + 1
    out = progress.knocked_out_in
    assert set(out) | {progress.champion} == {e.player_id for e in field(n)}
    assert progress.champion not in out
    per_round = Counter(out.values())
    assert per_round[draw.rounds] == 1  # the runner-up
    assert all(per_round[r] == sum(1 for m in records if m.round == r) for r in per_round)


def test_play_out_stops_at_an_unfinished_round():
    """R5.3: a round is drawn only when the previous one is complete."""
    lines = ["a", "b", "c", "d"]
    records = [
        MatchRecord(round=1, home="a", away="b", winner="a"),
        MatchRecord(round=1, home="c", away=None, winner="c"),  # a BYE record is ignored
    ]
    progress = play_out(lines, records)
    assert progress.rounds == (tuple(lines),)
    assert progress.champion is None
    assert progress.knocked_out_in == {}


def test_play_out_refuses_a_result_between_players_not_paired():
    """R5.3: a result must belong to a drawn match."""
    with pytest.raises(WinnerNotInMatch, match="not paired"):
        play_out(["a", "b", "c", "d"], [MatchRecord(round=1, home="a", away="c", winner="a")])


def test_play_out_refuses_a_winner_who_did_not_play():
    """R5.3: the winner is one of the two players."""
    with pytest.raises(WinnerNotInMatch, match="did not play"):
        play_out(["a", "b", "c", "d"], [MatchRecord(round=1, home="a", away="b", winner="c")])
