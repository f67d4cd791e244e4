"""A match as a sequence of games: cube, Crawford, dead cube, forfeits (R7.2, R7.3, R7.8, R8.1, R8.2)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.errors import RuleViolation
from tavla.rules.match import (
    AwardPenalty,
    CrawfordNoDouble,
    CubeAccessDenied,
    CubeNotInUse,
    DeadCube,
    Double,
    DoublePending,
    Forfeit,
    GameInProgress,
    GameResultKind,
    ImpossibleScore,
    InvalidGameRecord,
    LoseOnTime,
    MatchAction,
    MatchOver,
    MatchRuleViolation,
    MatchState,
    NoDoublePending,
    Pass,
    RecordGame,
    Take,
    UnknownPlayer,
    WinGame,
    WrongPlayer,
    apply_action,
    check_final_score,
    is_possible_final_score,
    max_cube,
    parse_action,
    parse_score,
    replay,
    start_match,
    to_match_record,
    withdraw,
)


def at_score(n: int, a: int, b: int, *, crawford_rule: bool = True) -> MatchState:
    """A match of `n` points brought to a-b by single games, B's first (no penalties, no cube).

    When A ends on match point minus one (and B is not there), the next game is the Crawford game.
    """
    state = start_match(n, crawford_rule=crawford_rule)
    for _ in range(b):
        state = apply_action(state, WinGame(player="B"))
    for _ in range(a):
        state = apply_action(state, WinGame(player="A"))
    return state


# --------------------------------------------------------------------------- cube


def test_a_pass_loses_the_game_at_the_cube_value_before_the_double() -> None:
    """R7.2: a pass loses the game at the current cube value."""
    state = replay(start_match(7), [Double(player="A"), Pass(player="B")])
    assert state.score == (1, 0)
    assert state.games[0].passed and state.games[0].points == 1
    state = replay(state, [Double(player="B"), Take(player="A"), Double(player="A"), Pass(player="B")])
    assert state.score == (3, 0)


def test_taking_gives_the_cube_to_the_taker_at_double_value() -> None:
    """R7.2: a take doubles the stakes and the taker owns the cube."""
    state = replay(start_match(7), [Double(player="A"), Take(player="B")])
    assert state.cube.value == 2 and state.cube.owner == "B"
    state = apply_action(state, WinGame(player="B", result="gammon"))
    assert state.score == (0, 4)
    assert state.cube.is_fresh


def test_gammon_and_backgammon_count_without_a_double_no_jacoby() -> None:
    """R7.2: gammon 2, backgammon 3, with or without a double (no Jacoby rule)."""
    state = apply_action(start_match(7), WinGame(player="A", result="gammon"))
    assert state.score == (2, 0)
    state = apply_action(state, WinGame(player="B", result="backgammon"))
    assert state.score == (2, 3)
    state = replay(state, [Double(player="A"), Take(player="B"), WinGame(player="A", result="backgammon")])
    assert state.score == (8, 3)


def test_only_the_cube_owner_may_redouble() -> None:
    """R7.2: a player may double only when the cube is centred or theirs."""
    state = replay(start_match(9), [Double(player="A"), Take(player="B")])
    with pytest.raises(CubeAccessDenied, match="Player A cannot double: B owns the cube"):
        apply_action(state, Double(player="A"))
    assert state.may_double("B") and not state.may_double("A")


def test_nobody_doubles_twice_in_a_row_or_answers_their_own_double() -> None:
    """R7.2: a double must be answered by the opponent before anything else."""
    state = apply_action(start_match(9), Double(player="A"))
    with pytest.raises(DoublePending, match="A has doubled: B must take or pass first"):
        apply_action(state, Double(player="A"))
    with pytest.raises(DoublePending):
        apply_action(state, Double(player="B"))
    with pytest.raises(WrongPlayer, match="A cannot take their own double"):
        apply_action(state, Take(player="A"))
    with pytest.raises(WrongPlayer):
        apply_action(state, Pass(player="A"))
    with pytest.raises(DoublePending, match="B must take or pass the double before the game can end"):
        apply_action(state, WinGame(player="A"))


def test_there_is_nothing_to_take_or_pass_without_a_double() -> None:
    """R7.2."""
    with pytest.raises(NoDoublePending, match="There is no double to take"):
        apply_action(start_match(5), Take(player="B"))
    with pytest.raises(NoDoublePending, match="There is no double to pass"):
        apply_action(start_match(5), Pass(player="B"))


def test_a_match_without_the_cube_refuses_doubles_but_counts_gammons() -> None:
    """R7.2: the cube is used where the tournament uses it."""
    state = start_match(5, cube_used=False)
    with pytest.raises(CubeNotInUse, match="without the doubling cube"):
        apply_action(state, Double(player="A"))
    with pytest.raises(CubeNotInUse):
        apply_action(state, RecordGame(winner="A", cube=2))
    with pytest.raises(CubeNotInUse):
        apply_action(state, RecordGame(winner="A", passed=True))
    state = apply_action(state, RecordGame(winner="A", result="gammon"))
    assert state.score == (2, 0)
    state = apply_action(state, WinGame(player="A", result="gammon"))
    assert state.score == (4, 0)
    assert not state.is_crawford_game
    assert not state.cube_is_dead


def test_players_must_be_in_the_match() -> None:
    """R7.5: only the two players of a match act in it."""
    with pytest.raises(UnknownPlayer, match="zoe is not playing this match"):
        apply_action(start_match(5, ("nikos", "maria")), Double(player="zoe"))
    with pytest.raises(UnknownPlayer):
        start_match(5, ("nikos", "nikos"))
    with pytest.raises(ValueError, match="two different"):
        MatchState(match_length=5, players=("nikos", ""))
    with pytest.raises(MatchRuleViolation, match="1 to 99 points"):
        start_match(0)
    state = start_match(5, ("nikos", "maria"))
    assert state.opponent("maria") == "nikos"


# --------------------------------------------------------------------------- Crawford


def test_no_doubling_in_the_crawford_game() -> None:
    """R7.2, hbf 5.5, cnb 4.4.4: the first game after a player reaches match point minus one."""
    state = at_score(5, 4, 2)
    assert state.is_crawford_game
    for player in ("A", "B"):
        with pytest.raises(CrawfordNoDouble, match="No doubling in the Crawford game"):
            apply_action(state, Double(player=player))
    state = apply_action(state, WinGame(player="B"))
    assert state.games[-1].crawford
    assert not state.is_crawford_game and state.is_post_crawford
    state = replay(state, [Double(player="B"), Take(player="A")])
    assert state.cube.value == 2


def test_a_gammon_can_jump_to_match_point_and_start_the_crawford_game() -> None:
    """R7.2: reaching N-1 by any route makes the next game the Crawford game."""
    state = apply_action(at_score(7, 4, 0), WinGame(player="A", result="gammon"))
    assert state.score == (6, 0) and state.is_crawford_game


def test_a_one_point_match_is_its_own_crawford_game() -> None:
    """R7.2: in a 1-point match both need one point from the start: no doubling."""
    state = start_match(1)
    assert state.is_crawford_game
    with pytest.raises(CrawfordNoDouble):
        apply_action(state, Double(player="A"))


def test_the_trailer_reaching_match_point_after_crawford_gets_no_second_crawford_game() -> None:
    """R7.2: only the first game at match point minus one is the Crawford game."""
    state = apply_action(at_score(5, 4, 3), WinGame(player="B"))
    assert state.score == (4, 4)
    assert not state.is_crawford_game and state.is_post_crawford


def test_penalty_points_that_reach_match_point_start_the_crawford_game() -> None:
    """R7.2, R7.6: the Crawford game follows penalty points too (cnb: the first game at N-1)."""
    state = apply_action(start_match(3), AwardPenalty(player="B", points=1, reason="late"))
    assert state.score == (0, 1) and not state.is_crawford_game
    state = apply_action(state, AwardPenalty(player="B", points=1, reason="late"))
    assert state.is_crawford_game
    assert state.penalties[-1].before_game == 1


def test_a_cube_turned_by_mistake_in_the_crawford_game_is_void() -> None:
    """R7.2, cnb 4.4.4 (2): the game scores as if the cube was not used."""
    state = apply_action(at_score(5, 4, 2), RecordGame(winner="B", result="gammon", cube=2))
    assert state.score == (4, 4)
    game = state.games[-1]
    assert game.cube_voided and game.crawford and game.cube == 1 and game.points == 2


def test_a_pass_in_the_crawford_game_concedes_a_single_game_only() -> None:
    """R7.2, cnb 4.4.4: with the cube void, a pass counts as conceding one point, whatever the cube."""
    for cube in (1, 2, 4):
        state = apply_action(at_score(7, 6, 1), RecordGame(winner="B", passed=True, cube=cube))
        assert state.score == (6, 2)
        assert state.games[-1].cube_voided


def test_a_void_cube_in_the_last_game_reopens_the_match() -> None:
    """R7.2, cnb 4.4.4 (3): a match 'won' on a void Crawford cube resumes at the corrected score."""
    state = apply_action(at_score(5, 4, 3), RecordGame(winner="B", cube=2))
    assert not state.is_over
    assert state.score == (4, 4)


def test_a_crawford_game_without_a_cube_is_recorded_unchanged() -> None:
    """R7.2: an ordinary Crawford game result stands."""
    state = apply_action(at_score(5, 4, 2), RecordGame(winner="A", result="gammon"))
    assert state.result is not None and state.result.winner == "A"
    assert not state.games[-1].cube_voided


def test_crawford_rule_can_be_switched_off_by_a_special_event() -> None:
    """R7.2 (profile flag)."""
    state = at_score(5, 4, 2, crawford_rule=False)
    assert not state.is_crawford_game
    assert state.may_double("B")


# --------------------------------------------------------------------------- dead cube


def test_the_cube_is_dead_when_the_game_must_end_the_match() -> None:
    """R7.8, hbf 5.6: the game is played out at that level - no further double."""
    state = replay(at_score(5, 3, 3), [Double(player="A"), Take(player="B")])
    assert state.cube.value == 2 and state.cube_is_dead
    with pytest.raises(DeadCube, match="The cube is dead at 2"):
        apply_action(state, Double(player="B"))


def test_double_match_point_has_a_dead_cube() -> None:
    """R7.8: at 4-4 in a 5-point match (post-Crawford) whoever wins the game wins the match."""
    state = apply_action(at_score(5, 4, 3), WinGame(player="B"))
    assert state.cube_is_dead
    with pytest.raises(DeadCube):
        apply_action(state, Double(player="A"))


def test_a_post_crawford_trailer_may_double_the_leader() -> None:
    """R7.2, R7.8: at 4-1 post-Crawford the cube is live for the trailer (needs 4)."""
    state = apply_action(at_score(5, 4, 0), WinGame(player="B"))
    state = replay(state, [Double(player="B"), Take(player="A"), Double(player="A"), Take(player="B")])
    assert state.cube.value == 4 and state.cube_is_dead


def test_max_cube_is_the_first_power_of_two_covering_the_larger_need() -> None:
    """R7.8."""
    assert [max_cube(n) for n in (0, 1, 2, 3, 4, 5, 9, 16, 17)] == [1, 1, 2, 4, 4, 8, 16, 16, 32]


def test_a_reported_game_with_an_impossible_cube_is_refused() -> None:
    """R7.5, R7.8: the scoreboard cannot record a cube no legal play reaches."""
    state = at_score(5, 3, 3)
    with pytest.raises(InvalidGameRecord, match="the cube is dead at 2"):
        apply_action(state, RecordGame(winner="A", cube=4))
    with pytest.raises(InvalidGameRecord, match="a double to 4"):
        apply_action(state, RecordGame(winner="A", cube=2, passed=True))
    with pytest.raises(InvalidGameRecord, match="power of two"):
        apply_action(state, RecordGame(winner="A", cube=3))
    with pytest.raises(InvalidGameRecord, match="never a gammon"):
        apply_action(state, RecordGame(winner="A", result="gammon", passed=True))
    state = apply_action(state, RecordGame(winner="A", passed=True))
    assert state.score == (4, 3)


def test_a_reported_game_scores_kind_times_cube() -> None:
    """R7.2, R7.5."""
    state = apply_action(start_match(11), RecordGame(winner="B", result="backgammon", cube=4))
    assert state.score == (0, 12) and state.result is not None
    assert state.result.score_text == "11-0"


def test_a_game_cannot_be_reported_while_its_cube_is_in_play() -> None:
    """R7.5."""
    state = apply_action(start_match(7), Double(player="A"))
    with pytest.raises(GameInProgress):
        apply_action(state, RecordGame(winner="A"))


# --------------------------------------------------------------------------- match end


def test_match_ends_when_a_player_reaches_the_length_capped_at_the_length() -> None:
    """R7.3, hbf 4.9: the first to reach the length wins; the result records the length."""
    state = apply_action(at_score(5, 0, 3), WinGame(player="B", result="backgammon"))
    assert state.score == (0, 6)
    assert state.result is not None
    assert (state.result.winner, state.result.winner_points, state.result.loser_points) == ("B", 5, 0)
    assert state.result.how == "played" and not state.result.forfeit
    with pytest.raises(MatchOver, match="Match is over: B won 5-0"):
        apply_action(state, Double(player="A"))
    assert not state.may_double("A")
    assert not state.is_crawford_game and not state.is_post_crawford and not state.cube_is_dead


def test_current_score_leader_and_needs_are_exposed() -> None:
    """R7.5: the live score."""
    state = at_score(7, 3, 1)
    assert state.score_text == "3-1" and state.leader == "A"
    assert state.needs("B") == 6 and state.points_of("A") == 3
    assert at_score(7, 2, 2).leader is None
    assert at_score(7, 1, 2).leader == "B"
    assert state.game_number == 5


def test_forfeit_is_recorded_as_length_to_nil_whatever_the_score() -> None:
    """R8.1: the player who does not continue loses, length-0."""
    state = at_score(7, 5, 2)
    state = apply_action(state, Forfeit(player="A", reason="did_not_continue"))
    assert state.result is not None
    assert (state.result.winner, state.result.score_text, state.result.forfeit) == ("B", "7-0", True)


def test_withdrawal_mid_match_is_a_forfeit() -> None:
    """R8.2."""
    state = withdraw(apply_action(start_match(5), Double(player="A")), "B")
    assert state.result is not None
    assert state.result.forfeit_reason == "withdrawal" and state.result.score_text == "5-0"
    assert state.cube.is_fresh


def test_losing_on_time_loses_the_match_keeping_the_loser_points() -> None:
    """R7.4: whoever runs out of time loses the match."""
    state = apply_action(at_score(9, 2, 6), LoseOnTime(player="A"))
    assert state.result is not None
    assert (state.result.winner, state.result.score_text, state.result.how) == ("B", "9-2", "time")


def test_penalty_points_can_win_the_match() -> None:
    """R7.6, R8.4: penalty points are match points."""
    state = apply_action(at_score(5, 0, 4), AwardPenalty(player="B", points=2, reason="slow play"))
    assert state.result is not None and state.result.how == "penalty"
    assert state.result.score_text == "5-0"


def test_penalty_points_wait_for_the_end_of_the_game() -> None:
    """R7.6: penalty points are scored between games."""
    state = apply_action(start_match(5), Double(player="A"))
    with pytest.raises(GameInProgress, match="between games"):
        apply_action(state, AwardPenalty(player="A", points=1))


def test_a_finished_match_becomes_a_match_record_for_the_draw() -> None:
    """R7.5, R8.1: the result feeds standings; forfeits are flagged."""
    state = apply_action(at_score(5, 3, 4), WinGame(player="A", result="gammon"))
    record = to_match_record(state, 2)
    assert (record.home_points, record.away_points, record.winner, record.forfeit) == (5, 4, "A", False)
    record = to_match_record(apply_action(start_match(5), Forfeit(player="A", reason="no_show")), 1)
    assert (record.home_points, record.away_points, record.winner, record.forfeit) == (0, 5, "B", True)
    with pytest.raises(MatchRuleViolation, match="not over"):
        to_match_record(start_match(5), 1)


# --------------------------------------------------------------------------- declared scores


def test_declared_final_scores_are_checked() -> None:
    """R7.5: is "5-3" a possible final score of a 5-point match?"""
    assert is_possible_final_score(5, *parse_score("5-3"))
    assert is_possible_final_score(5, 3, 5)
    assert is_possible_final_score(1, 0, 1)
    with pytest.raises(ImpossibleScore, match="recorded with 5 points"):
        check_final_score(5, 6, 3)
    with pytest.raises(ImpossibleScore, match="only one player"):
        check_final_score(5, 5, 5)
    with pytest.raises(ImpossibleScore, match="ends when a player reaches 5"):
        check_final_score(5, 4, 3)
    with pytest.raises(ImpossibleScore, match="never negative"):
        check_final_score(5, 5, -1)
    with pytest.raises(ImpossibleScore, match="1 to 99"):
        check_final_score(0, 0, 0)


def test_raw_final_scores_follow_the_cube_and_crawford() -> None:
    """R7.2, R7.5, R7.8: points beyond the length are reachable only by legal games."""
    assert is_possible_final_score(5, 7, 2, capped=False)
    assert is_possible_final_score(5, 24, 0, capped=False)
    assert is_possible_final_score(5, 27, 0, capped=False)  # a backgammon on 8 at 3-0
    assert not is_possible_final_score(5, 28, 0, capped=False)
    assert not is_possible_final_score(1, 4, 0, capped=False)
    assert is_possible_final_score(1, 3, 0, capped=False)
    assert not is_possible_final_score(3, 7, 0, capped=False, cube_used=False)
    # 3-point match: at most 13-0 (a backgammon on 4 at 1-0); 14-0 needs a cube at 2-0,
    # which is the Crawford game.
    assert is_possible_final_score(3, 13, 0, capped=False)
    assert not is_possible_final_score(3, 14, 0, capped=False)
    assert is_possible_final_score(3, 14, 0, capped=False, crawford_rule=False)


def test_scores_are_parsed_as_referees_write_them() -> None:
    """R7.5."""
    assert parse_score(" 7 - 4 ") == (7, 4)
    assert parse_score("7:4") == (7, 4)
    with pytest.raises(ImpossibleScore, match="write it as 5-3"):
        parse_score("seven to four")


# --------------------------------------------------------------------------- properties

PLAYERS = st.sampled_from(["A", "B"])
KINDS: list[GameResultKind] = ["single", "single", "single", "gammon", "backgammon"]


def make_action(code: int, variant: int) -> MatchAction:
    """An action from two small numbers, weighted towards ordinary play."""
    player = "AB"[variant % 2]
    kind = KINDS[variant // 2 % len(KINDS)]
    if code < 20:
        return Double(player=player)
    if code < 35:
        return Take(player=player)
    if code < 45:
        return Pass(player=player)
    if code < 75:
        return WinGame(player=player, result=kind)
    if code < 93:
        cube = [1, 1, 2, 4, 8, 16][variant // 10 % 6]
        return RecordGame(winner=player, result=kind, cube=cube, passed=variant % 7 == 0)
    if code < 98:
        return AwardPenalty(player=player, points=1 + variant % 3)
    if variant < 50:
        return Forfeit(player=player)
    return LoseOnTime(player=player)


ANY_ACTIONS = st.lists(
    st.builds(make_action, st.integers(0, 99), st.integers(0, 99)), min_size=40, max_size=150
)


@settings(max_examples=120, deadline=None)
@given(
    length=st.sampled_from([1, 3, 5, 7, 9, 11]),
    cube_used=st.booleans(),
    actions=ANY_ACTIONS,
)
def test_properties_of_any_sequence_of_actions(
    length: int, cube_used: bool, actions: list[MatchAction]
) -> None:
    """R7.2, R7.3, R7.8, R8.1: scores never decrease; the match ends exactly at the length (or by
    forfeit / time); no double is accepted in the Crawford game or on a dead cube; a forfeit is
    always length-0; there is at most one Crawford game; a played result is a possible final score."""
    state = start_match(length, cube_used=cube_used)
    for action in actions:
        if isinstance(action, Double) and (state.is_crawford_game or state.cube_is_dead):
            with pytest.raises(RuleViolation):
                apply_action(state, action)
        try:
            nxt = apply_action(state, action)
        except RuleViolation:
            continue
        assert nxt.score[0] >= state.score[0] and nxt.score[1] >= state.score[1]
        if isinstance(action, Double):
            assert not state.is_crawford_game and not state.cube_is_dead and cube_used
        state = nxt
        reached = max(state.score) >= length
        if state.result is None:
            assert not reached
            continue
        assert state.result.how in ("forfeit", "time") or reached
        if state.result.forfeit:
            assert (state.result.winner_points, state.result.loser_points) == (length, 0)
        assert is_possible_final_score(length, state.result.winner_points, state.result.loser_points)
        if state.result.how == "played" and not state.penalties:
            raw = (state.points_of(state.result.winner), state.points_of(state.result.loser))
            assert is_possible_final_score(length, *raw, cube_used=cube_used, capped=False)
        break
    assert sum(1 for g in state.games if g.crawford) <= 1
    assert sum(g.points for g in state.games) + sum(p.points for p in state.penalties) == sum(state.score)


@settings(max_examples=60, deadline=None)
@given(length=st.sampled_from([1, 3, 5, 7, 9, 11, 13]), games=st.lists(PLAYERS, max_size=40))
def test_the_crawford_game_is_the_first_game_started_at_match_point_minus_one(
    length: int, games: list[str]
) -> None:
    """R7.2: exactly the first game starting with a player on N-1 is marked Crawford."""
    state = start_match(length)
    seen_match_point = False
    for winner in games:
        if state.is_over:
            break
        starts_at_match_point = length - 1 in state.score
        assert state.is_crawford_game == (starts_at_match_point and not seen_match_point)
        seen_match_point = seen_match_point or starts_at_match_point
        state = apply_action(state, WinGame(player=winner))


def test_actions_arrive_as_json_from_the_scoreboard() -> None:
    """R7.5: the live scoreboard sends actions as JSON."""
    assert parse_action({"type": "double", "player": "A"}) == Double(player="A")
    assert parse_action({"type": "record", "winner": "B", "result": "gammon", "cube": 2}) == RecordGame(
        winner="B", result="gammon", cube=2
    )
    with pytest.raises(MatchRuleViolation, match="Not a match action"):
        parse_action({"type": "roll", "player": "A"})
    with pytest.raises(MatchRuleViolation, match="Not a match action"):
        parse_action({"type": "win", "player": "A", "result": "triple"})
