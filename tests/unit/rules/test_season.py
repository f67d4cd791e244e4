"""Season points, the season table, Super Final invitations and final lives (R10.4, R10.5, R5.7)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from tavla.rules.season import (
    FinalLivesRule,
    LivesTier,
    PlacePoints,
    SeasonError,
    SeasonPlace,
    SeasonSettings,
    SeasonStandings,
    TournamentLevel,
    TournamentResult,
    add_tournament,
    final_starting_lives,
    merge_players,
    super_final_invitations,
    tournament_points,
)
from tavla.rules.standings import Standing, StandingsError


def knockout16() -> list[Standing]:
    """Standings of a 16-player bracket: 1, 2, 3-4, 5-8, 9-16."""
    rows = [Standing(player_id="p01", place=1, place_to=1), Standing(player_id="p02", place=2, place_to=2)]
    for lo, hi in ((3, 4), (5, 8), (9, 16)):
        rows += [Standing(player_id=f"p{i:02d}", place=lo, place_to=hi) for i in range(lo, hi + 1)]
    return rows


def flat(n: int) -> list[Standing]:
    return [Standing(player_id=f"q{i:03d}", place=i, place_to=i) for i in range(1, n + 1)]


def test_default_points_follow_the_stated_table_times_the_level() -> None:
    """R10.4: base 100/70/50/30/15/8/3 x coefficient Local 1, Regional 2, National 3, Major 4."""
    local = tournament_points(knockout16(), TournamentLevel.LOCAL)
    assert local["p01"] == 100 and local["p02"] == 70
    assert local["p03"] == local["p04"] == 50
    assert {local[f"p{i:02d}"] for i in range(5, 9)} == {30}
    assert {local[f"p{i:02d}"] for i in range(9, 17)} == {15}
    major = tournament_points(knockout16(), TournamentLevel.MAJOR)
    assert major == {p: 4 * v for p, v in local.items()}
    assert tournament_points(flat(40), TournamentLevel.REGIONAL)["q040"] == 6  # participation 3 x 2


def test_shared_places_get_the_average_of_their_places_rounded_half_up() -> None:
    """R10.4: players sharing 2-3 get (70 + 50) / 2 = 60; sharing 1-2 of a x3 event: (100+70)/2*3 = 255;
    an average of x.5 is rounded up."""
    rows = [
        Standing(player_id="a", place=1, place_to=1),
        Standing(player_id="b", place=2, place_to=3),
        Standing(player_id="c", place=2, place_to=3),
    ]
    assert tournament_points(rows, TournamentLevel.LOCAL) == {"a": 100, "b": 60, "c": 60}
    rows = [Standing(player_id=p, place=1, place_to=2) for p in "ab"]
    assert tournament_points(rows, TournamentLevel.NATIONAL) == {"a": 255, "b": 255}
    odd = SeasonSettings(
        base_points=(PlacePoints(up_to_place=1, points=5), PlacePoints(up_to_place=2, points=2)),
        participation_points=0,
    )
    rows = [Standing(player_id=p, place=1, place_to=2) for p in "ab"]
    assert tournament_points(rows, TournamentLevel.LOCAL, odd) == {"a": 4, "b": 4}  # 3.5 -> 4


def test_fractional_coefficients_are_exact() -> None:
    """R10.4: a federation may set e.g. Regional 1.5; points stay whole numbers."""
    cfg = SeasonSettings(coefficients={lv: Decimal("1.5") for lv in TournamentLevel})
    pts = tournament_points(knockout16(), TournamentLevel.REGIONAL, cfg)
    assert pts["p01"] == 150 and pts["p09"] == 23  # 22.5 rounds up


def test_disqualified_player_gets_no_season_points_and_places_close_up() -> None:
    """R8.3: no ranking points for a disqualified player; the others move up."""
    pts = tournament_points(knockout16(), TournamentLevel.LOCAL, disqualified={"p01"})
    assert "p01" not in pts and pts["p02"] == 100


def test_adding_a_tournament_updates_only_its_players_and_is_idempotent() -> None:
    """R10.5: incremental roll-up; a second run for the same tournament changes nothing."""
    t1 = TournamentResult(tournament_id="t1", level=TournamentLevel.LOCAL, standings=tuple(knockout16()))
    t2 = TournamentResult(tournament_id="t2", level=TournamentLevel.MAJOR, standings=tuple(flat(3)))
    season = add_tournament(SeasonStandings(), t1)
    season = add_tournament(season, t2)
    assert add_tournament(season, t1) is season
    assert season.entries["p01"].points == 100 and season.entries["q001"].points == 400
    assert season.counted == {"t1", "t2"}
    assert season.entries["p01"].counted("t1") and not season.entries["p01"].counted("t2")


def ranking(*groups: tuple[int, list[str]]) -> list[SeasonPlace]:
    """A season table from (points, players) groups, best first; each group shares its place."""
    out: list[SeasonPlace] = []
    for points, players in groups:
        start = len(out) + 1
        out += [
            SeasonPlace(
                player_id=p,
                place=start,
                place_to=start + len(players) - 1,
                points=points,
                best=points,
                tournaments=1,
            )
            for p in players
        ]
    return out


def test_super_final_invites_the_top_n() -> None:
    """R10.4: the top 16 (default) are invited, in season order."""
    table = ranking(*[(100 - i, [f"s{i:02d}"]) for i in range(20)])
    inv = super_final_invitations(table, seed=1)
    assert inv.invited == tuple(f"s{i:02d}" for i in range(16)) and inv.tied_at_cut == ()


def test_a_tie_across_the_cut_is_settled_by_a_recorded_draw() -> None:
    """R10.4, R5.1: 3 players share 3-5 with 4 seats: 2 are sure, 2 of the 3 tied are drawn
    reproducibly from the seed."""
    cfg = SeasonSettings(super_final_size=4)
    table = ranking((90, ["a"]), (80, ["b"]), (70, ["c", "d", "e"]), (0, ["z"]))
    first = super_final_invitations(table, seed=42, settings=cfg)
    again = super_final_invitations(table, seed=42, settings=cfg)
    assert first == again and first.seed == 42
    assert first.invited[:2] == ("a", "b") and len(first.invited) == 4
    assert set(first.drawn_at_cut) <= {"c", "d", "e"} and len(first.drawn_at_cut) == 2
    assert first.tied_at_cut == ("c", "d", "e")
    everyone = super_final_invitations(
        table, seed=42, settings=cfg.model_copy(update={"cut_ties": "invite_all"})
    )
    assert everyone.invited == ("a", "b", "c", "d", "e")


def test_players_without_season_points_are_not_invited() -> None:
    """R10.4: a short season invites only players who scored."""
    table = ranking((10, ["a"]), (0, ["b", "c"]))
    assert super_final_invitations(table, seed=0).invited == ("a",)


def test_season_leaders_start_the_final_with_more_lives() -> None:
    """R5.7: default 1-4: 4 lives, 5-8: 3, others 2; a tie across a tier gets the better tier."""
    table = ranking(*[(100 - i, [f"s{i:02d}"]) for i in range(3)], (50, ["t1", "t2"]), (40, ["u"]))
    lives = final_starting_lives(table, [r.player_id for r in table])
    assert lives == {"s00": 4, "s01": 4, "s02": 4, "t1": 4, "t2": 4, "u": 3}
    rule = FinalLivesRule(tiers=(LivesTier(up_to_place=1, lives=5),), other_lives=1)
    lives = final_starting_lives(table, ["s00", "u"], SeasonSettings(final_lives=rule))
    assert lives == {"s00": 5, "u": 1}
    assert SeasonSettings().final_lives.lives_for(20) == 2
    with pytest.raises(SeasonError, match="not in the season ranking: nobody"):
        final_starting_lives(table, ["nobody"])


def test_merging_accounts_moves_season_points_without_double_counting() -> None:
    """R1.1: the duplicate's points move to the surviving id; one tournament counts once."""
    season = SeasonStandings()
    t1 = TournamentResult(
        tournament_id="t1",
        level=TournamentLevel.LOCAL,
        standings=(
            Standing(player_id="main", place=1, place_to=1),
            Standing(player_id="dup", place=2, place_to=2),
        ),
    )
    t2 = TournamentResult(
        tournament_id="t2",
        level=TournamentLevel.LOCAL,
        standings=(Standing(player_id="dup", place=1, place_to=1),),
    )
    season = add_tournament(add_tournament(season, t1), t2)
    merged = merge_players(season, "main", "dup")
    assert set(merged.entries) == {"main"}
    assert merged.entries["main"].points == 200  # t1: 100 (not 100 + 70), t2: 100
    assert merge_players(merged, "main", "dup") is merged
    with pytest.raises(SeasonError, match="into itself"):
        merge_players(season, "main", "main")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"base_points": (PlacePoints(up_to_place=2, points=10), PlacePoints(up_to_place=1, points=20))},
        {"base_points": (PlacePoints(up_to_place=1, points=10), PlacePoints(up_to_place=2, points=20))},
        {"coefficients": {TournamentLevel.LOCAL: Decimal(1)}},
        {"coefficients": {lv: Decimal(-1) for lv in TournamentLevel}},
        {"final_lives": {"tiers": ({"up_to_place": 8, "lives": 3}, {"up_to_place": 4, "lives": 4})}},
    ],
)
def test_impossible_season_settings_are_refused(kwargs: dict[str, object]) -> None:
    """R10.4: a base table must rise in places and never reward a worse place more; every level
    needs a coefficient."""
    with pytest.raises(ValidationError):
        SeasonSettings.model_validate(kwargs)


def test_malformed_tournament_standings_are_refused() -> None:
    """R10.4: season points are only computed from a clean ranking."""
    with pytest.raises(StandingsError):
        tournament_points([Standing(player_id="a", place=2, place_to=2)], TournamentLevel.LOCAL)


@st.composite
def standings_lists(draw: st.DrawFn) -> list[Standing]:
    sizes = draw(st.lists(st.integers(min_value=1, max_value=5), min_size=1, max_size=12))
    rows: list[Standing] = []
    for size in sizes:
        start = len(rows) + 1
        rows += [
            Standing(player_id=f"x{len(rows) + k}", place=start, place_to=start + size - 1)
            for k in range(size)
        ]
    return rows


@settings(max_examples=100, deadline=None)
@given(rows=standings_lists(), level=st.sampled_from(list(TournamentLevel)), data=st.data())
def test_ties_never_inflate_the_points_a_tournament_hands_out(rows, level, data) -> None:
    """R10.4, R8.3: every non-disqualified finisher is awarded; a better place never earns less;
    ties hand out the same total as a decided order, up to rounding (half a point per player)."""
    ids = [r.player_id for r in rows]
    dq = data.draw(st.sets(st.sampled_from(ids), max_size=len(ids) - 1))
    pts = tournament_points(rows, level, disqualified=dq)
    assert set(pts) == set(ids) - dq
    cfg = SeasonSettings()
    coef = cfg.coefficients[level]
    kept = len(ids) - len(dq)
    decided = sum((cfg.base_for(p) * coef for p in range(1, kept + 1)), Decimal(0))
    assert abs(sum(pts.values()) - decided) <= Decimal(kept) / 2
    order = [r.player_id for r in rows if r.player_id not in dq]
    assert [pts[p] for p in order] == sorted((pts[p] for p in order), reverse=True)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(standings_lists(), st.sampled_from(list(TournamentLevel))), max_size=6))
def test_season_totals_are_the_sum_of_tournament_awards_in_any_order(events) -> None:
    """R10.5: the incremental table equals the sum of each tournament's points, whatever the
    order the tournaments finish in."""
    results = [
        TournamentResult(tournament_id=f"t{i}", level=lv, standings=tuple(rows))
        for i, (rows, lv) in enumerate(events)
    ]
    forward = SeasonStandings()
    for r in results:
        forward = add_tournament(forward, r)
    backward = SeasonStandings()
    for r in reversed(results):
        backward = add_tournament(backward, r)
    expected: dict[str, int] = {}
    for r in results:
        for p, v in tournament_points(r.standings, r.level).items():
            expected[p] = expected.get(p, 0) + v
    assert {p: e.points for p, e in forward.entries.items()} == expected
    assert {p: e.points for p, e in backward.entries.items()} == expected
    assert forward.counted == backward.counted
