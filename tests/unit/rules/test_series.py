"""A best-of-three series of 7-point matches (cnb 2.2.2): its legs, its result, its breaks."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.errors import BreakNotBetweenLegs, BreakRefused, ImpossibleFinalScore
from tavla.rules import match_breaks as mb
from tavla.rules import operations as ops
from tavla.rules import profiles
from tavla.rules.breaks import CNB_BREAKS, SERIES_BREAKS_PER_GAP, series_break_decision
from tavla.rules.lateness import CNB_LATENESS
from tavla.rules.match import AwardPenalty, LoseOnTime, RecordGame
from tavla.rules.model import SYSTEM, Actor, Day, FixtureRecord
from tavla.rules.play_settings import PlaySettings
from tavla.rules.series import (
    SeriesError,
    SeriesState,
    apply_to_series,
    check_legs,
    check_series_score,
    possible_series_scores,
    start_series,
)
from tavla.rules.states import State
from tests.unit.rules.test_model import NOW, _apply, _drawn

CNB_SERIES = PlaySettings(rule_profile="cnb", best_of=3, lengths={"default": 7})
REF = Actor(role="referee", tavla_id="REF")
CODE = "main.R1.1"
PLAYERS = ("A", "B")

# --------------------------------------------------------------------------- the series itself

game = st.builds(
    RecordGame,
    winner=st.sampled_from(PLAYERS),
    result=st.sampled_from(["single", "gammon", "backgammon"]),
    cube=st.sampled_from([1, 2, 4]),
)
action = st.one_of(
    game,
    game,
    game,
    st.builds(AwardPenalty, player=st.sampled_from(PLAYERS), points=st.integers(1, 3), reason=st.just("x")),
    st.builds(LoseOnTime, player=st.sampled_from(PLAYERS)),
)


def _play(actions: list[object]) -> list[SeriesState]:
    """The series after each action it accepts (a refused one, e.g. a cube the leg forbids,
    is skipped as the service would refuse it)."""
    from tavla.rules.match import MatchRuleViolation

    state = start_series(PLAYERS)
    seen = [state]
    for act in actions:
        if state.is_over:
            break
        try:
            state = apply_to_series(state, act)  # type: ignore[arg-type]
        except MatchRuleViolation:
            continue
        seen.append(state)
    return seen


@settings(max_examples=200, deadline=None)
@given(st.lists(action, max_size=80))
def test_legs_accumulate_and_the_series_ends_exactly_at_two_legs_won(actions: list[object]) -> None:
    states = _play(actions)
    for before, after in pairwise(states):
        assert after.legs[: len(before.legs)] == before.legs  # legs only accumulate
        assert len(after.legs) - len(before.legs) in (0, 1)
    last = states[-1]
    for home, away in last.legs:  # each leg in the official form of a 7-point match
        assert max(home, away) == 7 and min(home, away) < 7
    won = last.legs_won
    assert last.is_over == (max(won) == 2)
    assert len(last.legs) <= 3
    if last.result is not None:
        assert (last.result.winner_points, last.result.loser_points) in {(2, 0), (2, 1)}
        assert last.result.winner == PLAYERS[0 if won[0] == 2 else 1]
    else:
        assert max(won) < 2 and last.between_legs == last.current.is_over


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 3), st.integers(0, 3))
def test_only_two_to_nil_or_two_to_one_either_way_is_a_series_result(home: int, away: int) -> None:
    ok = (home, away) in {(2, 0), (2, 1), (0, 2), (1, 2)}
    assert ((home, away) in possible_series_scores(3)) == ok
    if ok:
        check_series_score(3, (home, away))
    else:
        with pytest.raises(SeriesError):
            check_series_score(3, (home, away))


@settings(max_examples=200, deadline=None)
@given(between_legs=st.booleans(), taken=st.integers(0, 3), count=st.integers(1, 4))
def test_a_series_break_only_between_legs_and_one_each_between_two_legs(
    between_legs: bool, taken: int, count: int
) -> None:
    decision = series_break_decision(CNB_BREAKS, between_legs=between_legs, taken_in_gap=taken, count=count)
    assert decision.allowed == (between_legs and taken + count <= SERIES_BREAKS_PER_GAP)
    if decision.allowed:
        assert decision.duration == timedelta(minutes=5) * count
    else:
        assert decision.duration == timedelta(0)


def test_only_the_cnb_profile_has_series_of_seven_point_matches() -> None:
    rules = profiles.resolve("cnb", {"series": True})
    assert rules.series and (
        rules.match_length(),
        rules.match_length("semi_final"),
        rules.match_length("final"),
    ) == (7, 7, 7)
    for name in ("hbf", "platform"):
        with pytest.raises(profiles.SeriesNotAvailable, match="only the cnb"):
            profiles.resolve(name, {"series": True})
    with pytest.raises(profiles.InvalidSetting, match="cannot be \\[9\\]"):
        profiles.resolve("cnb", {"series": True, "final_length": 9})
    assert profiles.resolve("cnb", {"series": True, "match_length": 7}).series


# --------------------------------------------------------------------------- on the day


def _series() -> Day:
    day = _drawn(4, 2)
    match = replace(day.matches[CODE], length=7, best_of=3)
    return replace(day, matches={**day.matches, CODE: match})


def _m(day: Day) -> FixtureRecord:
    return day.matches[CODE]


def _game(day: Day, side: str, result: str = "single", cube: int = 1) -> Day:
    match = _m(day)
    player = match.home if side == "home" else match.away
    assert player
    record = ops.Record(
        ops.EntryAsked("game", player, result=result, cube=cube), CNB_SERIES, SYSTEM, NOW, match.version
    )
    return _apply(day, day.apply(CODE, record, NOW))


def _start(day: Day, sides: tuple[ops.Side, ...] = ("home",)) -> Day:
    return _apply(day, day.apply(CODE, mb.Start(sides, 1, CNB_BREAKS, REF, NOW), NOW))


def test_worked_example_a_cnb_series_breaks_only_between_one_match_and_the_next() -> None:
    """cnb 2.2.2: "Quando si disputa una serie al meglio delle tre partite ai sette punti, le
    pause sono consentite solo tra una partita e l'altra."

    Home wins the first match 7-3, away the second 7-0, home the third 7-0: the series is 2-1
    to home. Between games of a match the
    break is refused with its own code; between the first and the second match each player has
    one, and both may join theirs."""
    day = _game(_series(), "home")  # 1-0 in the first match
    with pytest.raises(BreakNotBetweenLegs, match="only between one match and the next"):
        _start(day)  # between games of a leg: a single 7-point match would refuse too, a series says why
    day = _game(day, "away", "gammon")  # 1-2
    day = _game(day, "away")  # 1-3
    day = _game(day, "home", "gammon", cube=2)  # 5-3
    assert mb.allowed_now(_m(day)) is False
    day = _game(day, "home", "single", cube=2)  # 7-3: the first match is over, the series is not
    assert _m(day).legs == ((7, 3),) and _m(day).state == State.PLAYING
    assert mb.allowed_now(_m(day)) and mb.left(CNB_BREAKS, _m(day)) == {"home": 1, "away": 1}
    day = _start(day, ("home", "away"))  # both join theirs: five minutes
    brk = mb.running(_m(day))
    assert brk is not None and brk["ends_at"] == (NOW + timedelta(minutes=5)).isoformat()
    day = _apply(day, day.apply(CODE, mb.Back("home", CNB_LATENESS, CNB_SERIES, REF, NOW), NOW))
    day = _apply(day, day.apply(CODE, mb.Back("away", CNB_LATENESS, CNB_SERIES, REF, NOW), NOW))
    with pytest.raises(BreakRefused, match="taken their break between these matches"):
        _start(day)
    day = _game(day, "away", "backgammon", cube=2)  # the second match starts at 0-0: 0-6
    assert _m(day).score == (0, 6) and _m(day).legs == ((7, 3),)
    with pytest.raises(BreakNotBetweenLegs):
        _start(day)
    day = _game(day, "away")  # 0-7: one match each
    assert _m(day).legs == ((7, 3), (0, 7)) and mb.left(CNB_BREAKS, _m(day)) == {"home": 1, "away": 1}
    day = _start(day, ("away",))  # a new break between the second and the third match
    for _ in range(7):
        day = _game(day, "home")
    match = _m(day)
    assert match.legs == ((7, 3), (0, 7), (7, 0)) and match.state == State.FINISHED
    assert ops.final_of(match, ops.live_state(CNB_SERIES, match)) == (2, 1)
    with pytest.raises(ImpossibleFinalScore):
        ops.check_final(match, (7, 0))  # a series is reported in matches won
    confirmed = ops.decided_result(CNB_SERIES, match, None)
    assert (confirmed.winner, confirmed.points, confirmed.how) == (match.home, (2, 1), "score")


def test_an_overrun_between_legs_costs_points_in_the_next_match() -> None:
    day = _series()
    for _ in range(7):
        day = _game(day, "home")
    day = _start(day)
    brk = mb.running(_m(day))
    assert brk is not None
    first = mb.overrun_steps(CNB_LATENESS, _m(day), brk)[0]
    step = mb.Overrun(brk["started_at"], CNB_LATENESS, CNB_SERIES, SYSTEM, first)
    day = _apply(day, day.apply(CODE, step, first))
    match = _m(day)
    assert match.legs == ((7, 0),) and match.score == (0, 1)  # the second match starts 0-1
    assert match.state == State.PLAYING and not mb.allowed_now(match)


def test_a_forfeit_of_a_series_is_two_matches_to_nil() -> None:
    match = _m(_series())
    assert match.home and match.won_at == 2
    from tavla.rules.model import forfeit_result

    assert forfeit_result(match, match.home, "noshow").points == (0, 2)


def test_a_series_declared_as_matches_won_agrees_with_the_live_score() -> None:
    day = _series()
    for _ in range(7):
        day = _game(day, "home")
    for _ in range(7):
        day = _game(day, "home")
    match = _m(day)
    assert match.state == State.FINISHED and match.legs == ((7, 0), (7, 0))
    declare = ops.Declare("home", (2, 0), CNB_SERIES, SYSTEM, NOW)
    day = _apply(day, day.apply(CODE, declare, NOW))
    declare = ops.Declare("away", (2, 0), CNB_SERIES, SYSTEM, NOW)
    day = _apply(day, day.apply(CODE, declare, NOW))
    assert ops.LIVE_SCORE_DIFFERS not in _m(day).flags
    with pytest.raises(ImpossibleFinalScore):
        day.apply(CODE, ops.Declare("home", (7, 0), CNB_SERIES, SYSTEM, NOW), NOW)


leg = st.tuples(st.integers(0, 8), st.integers(0, 8))


@settings(max_examples=200, deadline=None)
@given(st.lists(leg, max_size=4), st.sampled_from(sorted(possible_series_scores(3))))
def test_legs_are_accepted_exactly_when_they_make_the_series_result(
    legs: list[tuple[int, int]], score: tuple[int, int]
) -> None:
    finals = all(max(h, a) == 7 and min(h, a) < 7 for h, a in legs)
    won = (sum(h > a for h, a in legs), sum(a > h for h, a in legs))
    decided_early = any(
        max(sum(h > a for h, a in legs[:i]), sum(a > h for h, a in legs[:i])) == 2 for i in range(len(legs))
    )
    ok = finals and won == score and not decided_early
    try:
        check_legs(3, 7, score, tuple(legs))
    except SeriesError:
        assert not ok
    else:
        assert ok


def test_a_series_declared_with_its_matches_without_a_live_score() -> None:
    """Players who kept no live score declare 2-1 with the three matches' scores; the referee
    confirms and the matches are on the official result."""
    day = _series()
    legs = ((7, 3), (5, 7), (7, 6))
    for side in ("home", "away"):
        declare = ops.Declare(side, (2, 1), CNB_SERIES, SYSTEM, NOW, legs)
        day = _apply(day, day.apply(CODE, declare, NOW))
    assert _m(day).state == State.FINISHED
    day = _apply(day, day.apply(CODE, ops.Confirm(None, CNB_SERIES, REF, NOW), NOW))
    match = _m(day)
    assert match.result is not None and match.result.points == (2, 1) and match.legs == legs
    with pytest.raises(ImpossibleFinalScore, match="give 2-0"):
        day.apply(CODE, ops.Confirm((2, 1), CNB_SERIES, REF, NOW, ((7, 3), (7, 5))), NOW)
    with pytest.raises(ImpossibleFinalScore, match="Match 2"):
        ops.check_legs(match, (2, 0), ((7, 3), (8, 5)))
    single = replace(match, best_of=1)
    with pytest.raises(ImpossibleFinalScore, match="single match"):
        ops.check_legs(single, (7, 3), ((7, 3),))


def test_declarations_whose_matches_differ_are_a_dispute() -> None:
    day = _series()
    home = ops.Declare("home", (2, 1), CNB_SERIES, SYSTEM, NOW, ((7, 3), (5, 7), (7, 6)))
    away = ops.Declare("away", (2, 1), CNB_SERIES, SYSTEM, NOW, ((7, 3), (6, 7), (7, 6)))
    day = _apply(day, day.apply(CODE, home, NOW))
    day = _apply(day, day.apply(CODE, away, NOW))
    assert _m(day).state == State.DISPUTED and ops.REPORTS_DIFFER in _m(day).flags
