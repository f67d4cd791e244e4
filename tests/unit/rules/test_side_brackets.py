"""Main / Consolation / Last Chance feeds and bye balance (R5.8, seed 001 2.5 and 2.6)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.entrants import Entrant, MatchRecord
from tavla.rules.errors import RuleViolation
from tavla.rules.side_brackets import (
    EntryMismatch,
    OverlappingFeeds,
    SideBracketPlan,
    consolation_field,
    draw_side_bracket,
    last_chance_field,
    losers_lines,
    losers_of_rounds,
    progressive_round,
)
from tavla.rules.single_elimination import (
    bye_holders,
    draw_single_elimination,
    fill_late_arrivals,
    next_round,
    play_out,
    round_pairings,
)


def field(n: int, prefix: str = "p") -> list[Entrant]:
    return [Entrant(player_id=f"{prefix}{i:03d}", rating=2000 - i) for i in range(n)]


def results(lines, rng: random.Random) -> list[MatchRecord]:
    records: list[MatchRecord] = []
    number = 1
    while len(lines) > 1:
        winners = []
        for board in round_pairings(lines):
            if board.away is not None:
                winner = rng.choice([board.home, board.away])
                winners.append(winner)
                records.append(MatchRecord(round=number, home=board.home, away=board.away, winner=winner))
        lines = next_round(lines, winners)
        number += 1
    return records


def test_the_default_plan_feeds_main_rounds_one_and_two_into_the_consolation():
    """R5.8: the seed's arrangement is the default: Main rounds 1-2 to the Consolation, Consolation
    rounds 1-2 to the Last Chance."""
    plan = SideBracketPlan()
    assert plan.consolation_from_main == (1, 2)
    assert plan.last_chance_from_consolation == (1, 2)
    assert plan.last_chance_from_main == ()


def test_consolation_takes_the_losers_of_the_named_main_rounds_in_round_then_bracket_order():
    """R5.8: losers of the Main's early rounds feed the Consolation."""
    out = {"d": 2, "a": 1, "c": 1, "b": 3}
    assert consolation_field(out, SideBracketPlan(), order=["c", "a", "d"]) == ["c", "a", "d"]
    assert losers_of_rounds(out, [3], order=[]) == ["b"]


def test_last_chance_takes_consolation_losers_then_the_named_main_rounds():
    """R5.8: '... and so on': Consolation losers feed the Last Chance; Main rounds may too."""
    plan = SideBracketPlan(consolation_from_main=(1,), last_chance_from_main=(2,))
    main_out = {"a": 1, "b": 1, "c": 2}
    consolation_out = {"a": 1}
    assert last_chance_field(main_out, consolation_out, plan) == ["a", "c"]


def test_a_main_round_feeding_two_side_brackets_is_refused():
    """R5.8: a loser goes to one side bracket, not two."""
    plan = SideBracketPlan(consolation_from_main=(1, 2), last_chance_from_main=(2,))
    with pytest.raises(OverlappingFeeds, match="round"):
        consolation_field({}, plan)


def test_round_zero_is_refused():
    """R5.8: rounds are numbered from one."""
    with pytest.raises(RuleViolation, match="from 1"):
        last_chance_field({}, {}, SideBracketPlan(last_chance_from_consolation=(0,)))


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=2, max_value=40),
    st.integers(min_value=0, max_value=30),
    st.integers(min_value=0, max_value=2**31),
)
def test_a_side_bracket_bye_goes_first_to_players_who_had_none(n, earlier, seed):
    """R5.8 / seed 001 2.5: a Consolation BYE reaches a player who had a Main BYE only when every
    player without one already has a BYE."""
    entrants = field(n)
    had_bye = {e.player_id for e in entrants[: min(earlier, n)]}
    draw = draw_side_bracket(entrants, seed=seed, had_bye=had_bye)
    byes = bye_holders(draw.lines)
    assert len(byes) == draw.size - n
    without = {e.player_id for e in entrants} - had_bye
    if byes & had_bye:
        assert without <= byes
    assert draw == draw_side_bracket(list(reversed(entrants)), seed=seed, had_bye=had_bye)


def test_main_consolation_last_chance_balance_byes_along_the_way():
    """R5.8 worked example: 22 players; the 10 Main BYEs and the Consolation BYEs are not repeated
    while players without one are left."""
    rng = random.Random(7)
    entrants = field(22)
    by_id = {e.player_id: e for e in entrants}
    main = draw_single_elimination(entrants, seed=7)
    main_byes = bye_holders(main.lines)
    assert len(main_byes) == 10
    progress = play_out(main.lines, results(main.lines, rng))
    plan = SideBracketPlan()
    consolation_ids = consolation_field(progress.knocked_out_in, plan, order=main.lines)  # type: ignore[arg-type]
    consolation = draw_side_bracket([by_id[p] for p in consolation_ids], seed=8, had_bye=main_byes)
    consolation_byes = bye_holders(consolation.lines)
    without_main_bye = set(consolation_ids) - main_byes
    assert consolation_byes <= without_main_bye or without_main_bye <= consolation_byes
    c_progress = play_out(consolation.lines, results(consolation.lines, rng))
    last_ids = last_chance_field(progress.knocked_out_in, c_progress.knocked_out_in, plan)
    earlier = main_byes | consolation_byes
    last = draw_side_bracket([by_id[p] for p in last_ids], seed=9, had_bye=earlier)
    last_byes = bye_holders(last.lines)
    fresh = set(last_ids) - earlier
    assert last_byes <= fresh or fresh <= last_byes


def test_late_arrivals_join_a_side_bracket_in_its_free_slots():
    """Seed 001 2.6: late arrivals take the free slots in bracket order."""
    draw = draw_side_bracket(field(6), seed=3, had_bye=set())
    filled = fill_late_arrivals(draw, ["late"])
    first_free = draw.lines.index(None)
    assert filled.lines[first_free] == "late"


def test_round_one_of_a_progressive_consolation_puts_each_loser_on_the_line_of_the_match_lost():
    """R5.8 / seed 001 2.5: Main round-one losers start the Consolation; a Main BYE leaves a free line."""
    lines = ["a", None, "b", "c", "d", "e", "f", "g"]
    assert losers_lines(lines, ["c", "d", "g"]) == (None, "b", "e", "f")


def test_main_round_two_losers_join_in_reverse_order():
    """R5.8: the joining losers meet survivors from the other end of the bracket."""
    assert progressive_round(["s1", "s2", "s3"], ["j1", "j2", "j3"], had_bye=()) == (
        "s1",
        "j3",
        "s2",
        "j2",
        "s3",
        "j1",
    )


def test_a_player_with_a_main_bye_does_not_get_a_consolation_bye_while_another_can():
    """Seed 001 2.5: the Consolation BYE goes to the joining player who had no Main BYE."""
    # reversed order would give j1 (Main BYE) the empty place opposite None
    lines = progressive_round(["s1", "s2", None], ["j1", "j2", "j3"], had_bye={"j1"})
    assert lines[4:] == (None, "j2")
    assert sorted(p for p in lines if p is not None) == ["j1", "j2", "j3", "s1", "s2"]


def test_more_joining_players_than_places_is_refused():
    """R5.8: each joining player needs a place."""
    with pytest.raises(EntryMismatch, match="join"):
        progressive_round(["s1"], ["j1", "j2"], had_bye=())


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.booleans(), min_size=1, max_size=32),
    st.data(),
)
def test_progressive_bye_balance_holds_for_any_field(empty, data):
    """Seed 001 2.5: a joining player with an earlier BYE faces an empty place only when every
    joining player without one already does; nobody is placed twice or lost."""
    survivors = [None if e else f"s{i}" for i, e in enumerate(empty)]
    count = data.draw(st.integers(min_value=0, max_value=len(survivors)))
    joining = [f"j{i}" for i in range(count)]
    had_bye = set(data.draw(st.lists(st.sampled_from(joining), unique=True)) if joining else [])
    lines = progressive_round(survivors, joining, had_bye)
    assert sorted(p for p in lines if p is not None) == sorted(
        [s for s in survivors if s is not None] + joining
    )
    facing_empty = {lines[k + 1] for k in range(0, len(lines), 2) if lines[k] is None} - {None}
    if facing_empty & had_bye:
        fresh_facing_real = [
            lines[k + 1]
            for k in range(0, len(lines), 2)
            if lines[k] is not None and lines[k + 1] is not None and lines[k + 1] not in had_bye
        ]
        assert fresh_facing_real == []


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=5, max_value=60), st.integers(min_value=0, max_value=2**31))
def test_main_progressive_consolation_and_last_chance_play_through(n, seed):
    """R5.8 end to end: Main, progressive Consolation fed by Main rounds 1-2, Last Chance drawn from
    Consolation rounds 1-2 with BYEs balanced against the Main and Consolation BYEs."""
    rng = random.Random(seed)
    entrants = field(n)
    by_id = {e.player_id: e for e in entrants}
    main = draw_single_elimination(entrants, seed=seed)
    main_byes = bye_holders(main.lines)

    def winners_of(lines: Sequence[str | None]) -> list[str]:
        return [rng.choice(b.players) for b in round_pairings(lines) if not b.is_bye]

    main_r1_winners = winners_of(main.lines)
    main_r2 = next_round(main.lines, main_r1_winners)
    consolation_r1 = losers_lines(main.lines, main_r1_winners)
    main_r2_winners = winners_of(main_r2)
    c_r1_winners = winners_of(consolation_r1)
    consolation_r2 = progressive_round(
        next_round(consolation_r1, c_r1_winners), losers_lines(main_r2, main_r2_winners), main_byes
    )
    players = [p for p in consolation_r2 if p is not None]
    assert len(players) == len(set(players))
    c_r2_winners = winners_of(consolation_r2)
    c_byes = bye_holders(consolation_r1) | bye_holders(consolation_r2)
    fresh_joiners = [p for p in losers_lines(main_r2, main_r2_winners) if p not in main_byes]
    if c_byes & main_byes:
        assert set(fresh_joiners) <= c_byes
    c_out = {p: 1 for p in losers_lines(consolation_r1, c_r1_winners) if p is not None}
    c_out |= {p: 2 for p in losers_lines(consolation_r2, c_r2_winners) if p is not None}
    last_ids = last_chance_field({}, c_out, SideBracketPlan())
    if len(last_ids) >= 2:
        last = draw_side_bracket([by_id[p] for p in last_ids], seed=seed, had_bye=main_byes | c_byes)
        fresh = set(last_ids) - main_byes - c_byes
        lc_byes = bye_holders(last.lines)
        assert lc_byes <= fresh or fresh <= lc_byes
