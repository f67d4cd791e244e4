"""The operations on a match without AWS: what each match state allows, refuses and becomes
(record, declare, confirm, appeal, no-show, presence, penalty), each one change (R6-R9)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from tavla.errors import (
    AppealExhausted,
    AppealOpen,
    AppealWindowClosed,
    DecisionNeeded,
    DomainError,
    ImpossibleFinalScore,
    MatchNotInPlay,
    ResultLocked,
    TooLateToArrive,
)
from tavla.rules import operations as ops
from tavla.rules.errors import RuleViolation
from tavla.rules.lateness import lateness_policy
from tavla.rules.model import SYSTEM, Actor, Day, FixtureRecord, MovesOn
from tavla.rules.play_settings import PlaySettings
from tavla.rules.results import Result
from tavla.rules.score_entries import PenaltyPoints
from tavla.rules.states import State
from tests.unit.rules.test_model import NOW, _apply, _drawn, _won

STAFF = Actor(role="organiser", tavla_id="REF")
PLATFORM = PlaySettings()
CNB = PlaySettings(rule_profile="cnb")
PLATFORM_WINDOW = ops.Window(timedelta(minutes=15), committee=False)


def _refused(error: type[DomainError], status: int, code: str) -> None:
    """The API's answer to the refusal (the HTTP layer maps the error to its status and code)."""
    assert (error.status, error.code) == (status, code)


def _semi(length: int = 3) -> tuple[Day, FixtureRecord]:
    """A 4-player single elimination on 2 tables: R1.1 called, `length` points."""
    day = _drawn(4, 2)
    match = replace(day.matches["main.R1.1"], length=length)
    day = replace(day, matches={**day.matches, match.code: match})
    assert match.state == State.CALLED
    return day, match


def _run(day: Day, code: str, operation: ops.Operation) -> Day:
    return _apply(day, day.apply(code, operation, NOW))


def _game(winner: str, result: str = "single", cube: int = 1) -> ops.EntryAsked:
    return ops.EntryAsked("game", winner, result=result, cube=cube)


def _declare(
    day: Day, code: str, side: ops.Side, score: tuple[int, int], play: PlaySettings = PLATFORM
) -> Day:
    match = day.matches[code]
    player = ops.player_of(match, side)
    return _run(day, code, ops.Declare(side, score, play, Actor("player", player), NOW))


# --------------------------------------------------------------------------- the live score


def test_a_game_stays_on_the_match_and_the_last_one_moves_the_day_on() -> None:
    """R7.2, R6: a game is a change of the match alone (playing); the one that completes it
    finishes the match, which frees its table: on the match alone that is `MovesOn`."""
    day, match = _semi()
    assert match.home and match.away
    first = ops.Record(_game(match.home), PLATFORM, SYSTEM, NOW, match.version)
    change = Day.of_match(match).apply(match.code, first, NOW)
    after = change.after(match.code)
    assert after is not None and (after.state, after.score) == (State.PLAYING, (1, 0))
    assert [a.action for a in change.audit] == ["game_recorded"] and change.tables is None
    last = ops.Record(_game(match.home, "gammon"), PLATFORM, SYSTEM, NOW, after.version)
    with pytest.raises(MovesOn):
        Day.of_match(after).apply(match.code, last, NOW)
    finished = day.apply(match.code, first, NOW)
    assert finished.after(match.code) is not None


def test_a_tournament_without_the_cube_refuses_a_doubled_game() -> None:
    """R7.2: the cube only where the tournament uses it (409 rule_violation); nothing changes."""
    day, match = _semi()
    assert match.home
    no_cube = PlaySettings(cube_used=False)
    with pytest.raises(RuleViolation):
        day.apply(match.code, ops.Record(_game(match.home, cube=2), no_cube, SYSTEM, NOW, match.version), NOW)
    assert day.apply(match.code, ops.Record(_game(match.home), no_cube, SYSTEM, NOW, 1), NOW).matches


def test_an_open_appeal_freezes_the_match() -> None:
    """R9.2: while an appeal is open, nothing is scored, declared or confirmed (409 appeal_open)."""
    day, match = _semi()
    assert match.home
    frozen = replace(match, appeal="appeal-1")
    day = replace(day, matches={**day.matches, match.code: frozen})
    for operation in (
        ops.Record(_game(match.home), PLATFORM, SYSTEM, NOW, frozen.version),
        ops.Declare("home", (3, 0), PLATFORM, SYSTEM, NOW),
        ops.Confirm((3, 0), PLATFORM, STAFF, NOW),
    ):
        with pytest.raises(AppealOpen):
            day.apply(match.code, operation, NOW)
    _refused(AppealOpen, 409, "appeal_open")


# --------------------------------------------------------------------------- reports and confirmation


def test_an_impossible_final_score_is_refused() -> None:
    """R7.3: the winner has exactly the match length: declared or confirmed, 422 impossible_score."""
    day, match = _semi()
    with pytest.raises(ImpossibleFinalScore):
        _declare(day, match.code, "home", (2, 1))
    with pytest.raises(ImpossibleFinalScore):
        day.apply(match.code, ops.Confirm((5, 3), PLATFORM, STAFF, NOW), NOW)
    _refused(ImpossibleFinalScore, 422, "impossible_score")


def test_reports_that_differ_are_disputed_and_the_referee_decides() -> None:
    """R7.5 (platform): reports differ -> disputed, flagged; no record prevails (409
    decision_needed); the referee's score is a decision and clears the flag."""
    day, match = _semi()
    day = _declare(day, match.code, "home", (3, 1))
    day = _declare(day, match.code, "away", (1, 3))
    disputed = day.matches[match.code]
    assert (disputed.state, disputed.flags) == (State.DISPUTED, ("reports_differ",))
    assert sorted(disputed.reports) == ["away", "home"]
    with pytest.raises(DecisionNeeded):
        day.apply(match.code, ops.Confirm(None, PLATFORM, STAFF, NOW), NOW)
    _refused(DecisionNeeded, 409, "decision_needed")
    day = _run(day, match.code, ops.Confirm((3, 2), PLATFORM, STAFF, NOW))
    decided = day.matches[match.code]
    assert decided.result is not None and (decided.result.how, decided.result.winner) == (
        "decision",
        match.home,
    )
    assert decided.flags == () and decided.state == State.OFFICIAL


def test_cnb_the_trailing_players_report_prevails_without_a_complete_record() -> None:
    """R7.5, cnb 4.7: live 1-0 (not complete), reports differ: the trailing (away) player's report wins."""
    day, match = _semi()
    assert match.home and match.away
    day = _run(day, match.code, ops.Record(_game(match.home), CNB, SYSTEM, NOW, match.version))
    day = _declare(day, match.code, "home", (3, 1), CNB)
    day = _declare(day, match.code, "away", (2, 3), CNB)
    day = _run(day, match.code, ops.Confirm(None, CNB, STAFF, NOW))
    assert day.matches[match.code].result == Result(match.away, 2, 3, "score")


def test_cnb_the_complete_live_score_prevails_over_both_reports() -> None:
    """R7.5, cnb 4.7: the table scorer's record (the complete live score) settles a dispute."""
    day, match = _semi()
    assert match.home and match.away
    for winner, result in ((match.away, "single"), (match.home, "gammon"), (match.home, "single")):
        version = day.matches[match.code].version
        day = _run(day, match.code, ops.Record(_game(winner, result), CNB, SYSTEM, NOW, version))
    assert day.matches[match.code].state == State.FINISHED  # 3-1
    day = _declare(day, match.code, "home", (3, 0), CNB)
    day = _declare(day, match.code, "away", (1, 3), CNB)
    day = _run(day, match.code, ops.Confirm(None, CNB, STAFF, NOW))
    settled = day.matches[match.code].result
    assert settled is not None and settled.points == (3, 1)


def test_the_tournament_may_make_agreed_results_official_at_once() -> None:
    """R7.5 setting: the first report changes nothing else; agreement -> official without staff,
    and the day moves on from it (ResultConfirmed)."""
    day, match = _semi()
    at_once = PlaySettings(results_official_without_referee=True)
    day = _declare(day, match.code, "home", (3, 2), at_once)
    assert day.matches[match.code].state == State.CALLED
    player = Actor("player", match.away)
    change = day.apply(match.code, ops.Declare("away", (3, 2), at_once, player, NOW), NOW)
    official = change.after(match.code)
    assert official is not None and official.state == State.OFFICIAL
    assert official.result is not None and official.result.winner == match.home
    assert [r.code for r in change.confirmed] == [match.code]


def test_confirming_the_same_result_again_is_unchanged() -> None:
    """R7.5: a double tap: the official result as asked (or no score at all) writes nothing."""
    day, match = _semi()
    day = _run(day, match.code, ops.Confirm((3, 0), PLATFORM, STAFF, NOW))
    for given in (None, (3, 0)):
        with pytest.raises(ops.Unchanged):
            day.apply(match.code, ops.Confirm(given, PLATFORM, STAFF, NOW), NOW)


# --------------------------------------------------------------------------- appeals


def _final_started() -> Day:
    """Both semi-finals official, the final started (R9.4 locks the semi-finals)."""
    day = _drawn(4, 2)
    for code in ("main.R1.1", "main.R1.2"):
        day = _apply(day, day.settle(code, _won(day, code), NOW))
    final = day.matches["main.R2.1"]
    assert final.state == State.CALLED
    return replace(day, matches={**day.matches, final.code: replace(final, state=State.PLAYING)})


def test_an_appeal_after_the_window_is_refused() -> None:
    """R9.1 (platform): 14 minutes after the end an appeal holds the match; 16 minutes after it
    is too late (409 appeal_window_closed)."""
    day = _drawn(4, 2)
    day = _apply(day, day.settle("main.R1.1", _won(day, "main.R1.1"), NOW))
    loser = day.matches["main.R1.1"].away
    assert loser
    late = ops.Lodge("A1", loser, PLATFORM_WINDOW, NOW + timedelta(minutes=16))
    with pytest.raises(AppealWindowClosed):
        day.apply("main.R1.1", late, NOW)
    _refused(AppealWindowClosed, 409, "appeal_window_closed")
    held = day.apply("main.R1.1", ops.Lodge("A1", loser, PLATFORM_WINDOW, NOW + timedelta(minutes=14)), NOW)
    assert (held.after("main.R1.1") or day.matches["main.R1.1"]).appeal == "A1"


@pytest.mark.parametrize(("committee", "allowed"), [(True, False), (False, True)])
def test_under_a_committee_the_window_closes_when_a_dependent_match_starts(
    committee: bool, allowed: bool
) -> None:
    """R9.1 (hbf 6.3, cnb 5.2), R9.4: once the final has started, 5 minutes after the semi-final,
    the semi-final can no longer be appealed where a committee hears appeals (hbf, cnb); under
    platform rules the 15 minutes still run."""
    day = _final_started()
    loser = day.matches["main.R1.1"].away
    assert loser
    lodge = ops.Lodge("A1", loser, ops.Window(timedelta(minutes=15), committee), NOW + timedelta(minutes=5))
    if allowed:
        assert day.apply("main.R1.1", lodge, NOW).after("main.R1.1") is not None
    else:
        with pytest.raises(AppealWindowClosed):
            day.apply("main.R1.1", lodge, NOW)


def test_a_decision_cannot_change_a_result_a_started_match_depends_on() -> None:
    """R9.4: the final started before the decision: a new result for the semi-final is refused
    (409 result_locked)."""
    day = _final_started()
    semi = day.matches["main.R1.1"]
    assert semi.home and semi.away
    day = replace(day, matches={**day.matches, semi.code: replace(semi, appeal="A1")})
    new = Result.awarded(semi.home, semi.away, semi.length, semi.away)
    with pytest.raises(ResultLocked):
        day.apply(semi.code, ops.Decide("A1", semi.away, new, NOW), NOW)
    _refused(ResultLocked, 409, "result_locked")


def _appealed(day: Day, code: str, appellant: str) -> Day:
    return _run(day, code, ops.Lodge("A1", appellant, PLATFORM_WINDOW, NOW))


def test_the_same_side_cannot_appeal_a_dismissed_result_again() -> None:
    """R9.3, R9.5: a decided appeal ends the appellant's grievance (409 appeal_exhausted, nothing
    changes); the other side, who has not been heard, may still appeal."""
    day = _drawn(4, 2)
    day = _apply(day, day.settle("main.R1.1", _won(day, "main.R1.1"), NOW))
    match = day.matches["main.R1.1"]
    assert match.home and match.away
    day = _appealed(day, match.code, match.away)
    day = _run(day, match.code, ops.Decide("A1", match.away, None, NOW))
    assert day.matches[match.code].appeal is None and day.matches[match.code].result == match.result
    with pytest.raises(AppealExhausted):
        day.apply(match.code, ops.Lodge("A2", match.away, PLATFORM_WINDOW, NOW), NOW)
    _refused(AppealExhausted, 409, "appeal_exhausted")
    assert _appealed(day, match.code, match.home).matches[match.code].appeal == "A1"


def test_a_result_set_on_appeal_is_final_for_both_sides() -> None:
    """R9.3, R9.5: the appeal is upheld and the result flips: that decision is the last step, so
    neither the appellant nor the new loser may appeal it."""
    day = _drawn(4, 2)
    day = _apply(day, day.settle("main.R1.1", _won(day, "main.R1.1"), NOW))
    match = day.matches["main.R1.1"]
    assert match.home and match.away
    day = _appealed(day, match.code, match.away)
    flipped = Result.awarded(match.home, match.away, match.length, match.away)
    day = _run(day, match.code, ops.Decide("A1", match.away, flipped, NOW))
    assert day.matches[match.code].result == flipped
    for player in (match.home, match.away):
        with pytest.raises(AppealExhausted):
            day.apply(match.code, ops.Lodge("A2", player, PLATFORM_WINDOW, NOW), NOW)


# --------------------------------------------------------------------------- no-shows and presence


def test_the_deadline_forfeits_only_a_match_still_awaiting_that_side() -> None:
    """R6.1, R6.3: the absent side forfeits (length to nil, once); a step fired again after the
    forfeit, after the referee excused the player, or once the match started changes nothing."""
    day, match = _semi()
    assert match.home and match.away
    here = replace(match, present={"home": NOW.isoformat()})
    day = replace(day, matches={**day.matches, match.code: here})
    forfeit = ops.NoShow("away", 0, SYSTEM, NOW)
    day = _run(day, match.code, forfeit)
    assert day.matches[match.code].result == Result.forfeited(match.home, match.away, 3, match.away, "noshow")
    with pytest.raises(ops.Unchanged):  # fired twice
        day.apply(match.code, forfeit, NOW)
    for other in (replace(here, excused={"away": NOW.isoformat()}), replace(here, state=State.PLAYING)):
        assert not ops.awaited(other) or other.state != State.CALLED
        with pytest.raises(ops.Unchanged):
            Day.of_match(other).apply(match.code, forfeit, NOW)


def test_presence_once_and_in_time() -> None:
    """R6.1-R6.3: marked present once (again: unchanged); excusing clears the flag of a match
    nobody came to; a player late past the deadline is marked present only by staff (409
    too_late); a match not awaiting its players is refused (409 match_not_in_play)."""
    _, match = _semi()
    policy = lateness_policy("platform")
    flagged = replace(match, flags=(ops.BOTH_ABSENT,))
    excuse = ops.Presence("away", False, True, policy, STAFF, NOW)
    excused = Day.of_match(flagged).apply(match.code, excuse, NOW).after(match.code)
    assert excused is not None and excused.flags == () and "away" in excused.excused
    with pytest.raises(ops.Unchanged):
        Day.of_match(excused).apply(match.code, excuse, NOW)
    late = NOW + timedelta(minutes=11)
    player = ops.Presence("home", True, False, policy, Actor("player", match.home), late)
    with pytest.raises(TooLateToArrive):
        Day.of_match(match).apply(match.code, player, late)
    staff = ops.Presence("home", True, True, policy, STAFF, late)
    assert Day.of_match(match).apply(match.code, staff, late).matches
    with pytest.raises(MatchNotInPlay):
        Day.of_match(replace(match, state=State.PLAYING)).apply(match.code, staff, late)


# --------------------------------------------------------------------------- conduct


def test_the_loss_of_a_game_scores_one_point_for_the_opponent() -> None:
    """R8.4: a game penalty: the opponent scores one game at cube 1 in the match being played,
    recorded with the score in the audit trail."""
    day, match = _semi()
    assert match.home and match.away
    penalty = ops.Penalty(match.home, "game", "Repeated illegal moves", PLATFORM, STAFF, NOW)
    change = day.apply(match.code, penalty, NOW)
    after = change.after(match.code)
    assert after is not None and after.score == (0, 1) and after.state == State.CALLED
    assert [(a.action, a.details["score"]) for a in change.audit] == [("penalty", [0, 1])]
    entry = after.games[-1]
    assert isinstance(entry, PenaltyPoints) and (entry.winner, entry.points) == (match.away, 1)
