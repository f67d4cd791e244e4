"""FIBS rating with the platform's experience boost (R10.3) and merge replays (R1.1)."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.entrants import MatchRecord
from tavla.rules.rating import (
    START_RATING,
    HistoryEntry,
    RatedResult,
    RatingError,
    RatingState,
    display_rating,
    experience_boost,
    match_rating_changes,
    rate_match,
    rated_result,
    replay_history,
    replay_player,
    upset_probability,
)

VETERAN = 100  # rated matches: K = 1

ratings = st.floats(min_value=0, max_value=3000, allow_nan=False)
lengths = st.integers(min_value=1, max_value=25)
experience = st.integers(min_value=0, max_value=60)


def test_fibs_worked_example_favourite_wins() -> None:
    """R10.3: 1850 vs 1750, 5 points, both K = 1: the favourite wins +-3.90."""
    gain, loss = match_rating_changes(
        RatingState(rating=1850, rated_matches=VETERAN), RatingState(rating=1750, rated_matches=VETERAN), 5
    )
    assert display_rating(gain) == "3.90" and display_rating(loss) == "-3.90"


def test_fibs_worked_example_underdog_wins() -> None:
    """R10.3: 1850 vs 1750, 5 points, both K = 1: the underdog wins +-5.04."""
    gain, loss = match_rating_changes(
        RatingState(rating=1750, rated_matches=VETERAN), RatingState(rating=1850, rated_matches=VETERAN), 5
    )
    assert display_rating(gain) == "5.04" and display_rating(loss) == "-5.04"


def test_new_players_start_at_1500_and_move_five_times_faster() -> None:
    """R10.3: two newcomers, 1 point match: P = 1/2, K = 5: +-10."""
    a, b = RatingState(), RatingState()
    assert a.rating == START_RATING == 1500.0 and a.provisional
    new_a, new_b = rate_match(a, b, 1)
    assert new_a.rating == 1510.0 and new_b.rating == 1490.0
    assert new_a.rated_matches == new_b.rated_matches == 1


def test_boost_falls_from_five_to_one_over_the_first_thirty_matches() -> None:
    """R10.3: K = max(1, 5 - 4*m/30)."""
    assert experience_boost(0) == 5.0
    assert experience_boost(15) == 3.0
    assert experience_boost(29) == pytest.approx(5 - 4 * 29 / 30)
    assert experience_boost(30) == 1.0 and experience_boost(500) == 1.0
    assert not RatingState(rated_matches=30).provisional
    with pytest.raises(RatingError):
        experience_boost(-1)


def test_provisional_player_moves_more_than_the_established_opponent() -> None:
    """R10.3: each player moves by their own K."""
    gain, loss = match_rating_changes(RatingState(), RatingState(rated_matches=VETERAN), 7)
    assert gain == pytest.approx(-5 * loss)


def test_longer_matches_move_ratings_more_between_equal_players() -> None:
    """R10.3: the change grows with sqrt(match length)."""
    g1, _ = match_rating_changes(RatingState(), RatingState(), 1)
    g9, _ = match_rating_changes(RatingState(), RatingState(), 9)
    assert g9 == pytest.approx(3 * g1)


def test_zero_point_match_is_refused() -> None:
    """R10.3: a match is at least one point long."""
    with pytest.raises(RatingError, match="at least 1 point"):
        upset_probability(1500, 1500, 0)


def test_forfeits_and_byes_are_not_rated() -> None:
    """R10.3: forfeits are not rated; a BYE has nothing to rate."""
    forfeit = MatchRecord(round=1, home="a", away="b", home_points=5, winner="a", forfeit=True)
    result = rated_result(forfeit, 5)
    assert result is not None and result.forfeit
    assert replay_history([result]) == {}
    assert rated_result(MatchRecord(round=1, home="a", winner="a"), 5) is None
    played = rated_result(MatchRecord(round=1, home="a", away="b", away_points=5, winner="b"), 5)
    assert played == RatedResult(winner="b", loser="a", match_length=5)


def test_replay_history_applies_matches_in_order() -> None:
    """R10.3: replaying gives the same as applying the matches one by one."""
    results = [
        RatedResult(winner="a", loser="b", match_length=5),
        RatedResult(winner="c", loser="a", match_length=7),
    ]
    states = replay_history(results)
    a1, b1 = rate_match(RatingState(), RatingState(), 5)
    c2, a2 = rate_match(RatingState(), a1, 7)
    assert states == {"a": a2, "b": b1, "c": c2}
    with pytest.raises(RatingError, match="against themselves"):
        replay_history([RatedResult(winner="a", loser="a", match_length=3)])


T0 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)


def entry(i: int, opp: str, opp_rating: float, won: bool, length: int = 5, **kw: object) -> HistoryEntry:
    return HistoryEntry.model_validate(
        {
            "match_id": f"m{i:03d}",
            "played_at": T0 + timedelta(hours=i),
            "opponent_id": opp,
            "opponent_rating": opp_rating,
            "match_length": length,
            "won": won,
            **kw,
        }
    )


def test_merged_accounts_are_replayed_in_time_order_without_their_mutual_matches() -> None:
    """R1.1: after a merge the rating is recomputed from the merged history; the duplicate
    accounts' matches against each other and forfeits are not rated; others are untouched."""
    main = [entry(0, "x", 1600, True), entry(3, "y", 1450, False)]
    dup = [
        entry(1, "z", 1500, True),
        entry(2, "main", 1500, False),  # the person against themselves
        entry(4, "w", 1700, True, forfeit=True),
    ]
    merged = replay_player(dup + main, own_ids={"main", "dup"})
    assert [s.match_id for s in merged.steps] == ["m000", "m001", "m003"]
    assert merged.state.rated_matches == 3
    expected = RatingState()
    for opp, won in ((1600, True), (1500, True), (1450, False)):
        o = RatingState(rating=opp)
        change = match_rating_changes(expected, o, 5)[0] if won else match_rating_changes(o, expected, 5)[1]
        expected = RatingState(rating=expected.rating + change, rated_matches=expected.rated_matches + 1)
    assert merged.state == expected
    assert merged.steps[0].boost == 5.0 and merged.steps[-1].rating_after == expected.rating


def test_the_same_match_twice_in_a_history_is_refused() -> None:
    """R1.1: a merged history holds each match once."""
    with pytest.raises(RatingError, match="appears twice"):
        replay_player([entry(1, "x", 1500, True), entry(1, "x", 1500, True)])


@settings(max_examples=200, deadline=None)
@given(r1=ratings, r2=ratings, n=lengths, m=experience)
def test_equal_boosts_make_a_zero_sum_exchange(r1: float, r2: float, n: int, m: int) -> None:
    """R10.3: with equal K the winner gains exactly what the loser loses."""
    gain, loss = match_rating_changes(
        RatingState(rating=r1, rated_matches=m), RatingState(rating=r2, rated_matches=m), n
    )
    assert gain >= 0 and gain == -loss


@settings(max_examples=200, deadline=None)
@given(r1=ratings, r2=ratings, n=lengths, m1=experience, m2=experience)
def test_an_upset_always_pays_more_than_the_expected_result(
    r1: float, r2: float, n: int, m1: int, m2: int
) -> None:
    """R10.3: beating a stronger player earns more than beating a weaker one; the winner's
    gain never exceeds 4*K*sqrt(n)."""
    a, b = RatingState(rating=r1, rated_matches=m1), RatingState(rating=r2, rated_matches=m2)
    gain_a, _ = match_rating_changes(a, b, n)
    gain_b, _ = match_rating_changes(b, a, n)
    assert gain_a <= 4 * experience_boost(m1) * math.sqrt(n) + 1e-9
    if r1 < r2:  # ratings a hair apart pay the same, up to the last bit of the division
        assert gain_a / experience_boost(m1) >= gain_b / experience_boost(m2) - 1e-9
    # P(upset) + P(favourite) = 1, so the two possible gains (K = 1) add to 4*sqrt(n)
    assert gain_a / experience_boost(m1) + gain_b / experience_boost(m2) == pytest.approx(4 * math.sqrt(n))


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from("abcd"), st.sampled_from("abcd"), lengths, st.booleans()).filter(
            lambda t: t[0] != t[1]
        ),
        max_size=40,
    )
)
def test_replay_conserves_rating_among_established_players(games: list[tuple[str, str, int, bool]]) -> None:
    """R10.3: among players with equal K (all past the provisional period), the total rating
    is conserved; forfeits change nothing."""
    initial = {p: RatingState(rating=1500 + 10 * i, rated_matches=VETERAN) for i, p in enumerate("abcd")}
    results = [RatedResult(winner=w, loser=lo, match_length=n, forfeit=f) for w, lo, n, f in games]
    states = replay_history(results, initial)
    total = sum(s.rating for s in states.values())
    assert total == pytest.approx(sum(s.rating for s in initial.values()), abs=1e-6)
    assert sum(s.rated_matches - VETERAN for s in states.values()) == 2 * sum(1 for g in games if not g[3])


def test_extreme_rating_gap_does_not_overflow() -> None:
    """R10.3: the formula stays finite for any rating gap."""
    assert upset_probability(1e9, 0, 25) == pytest.approx(0.0)
