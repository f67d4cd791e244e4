"""Late entries in Swiss and lives events (R5.5, R5.7): the start the policy gives, the next
draw pairs them, the standings count their start."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.day import DaySettings, DrawInputs, compute_draw, digest, event_standings
from tavla.rules.entrants import Entrant, MatchRecord
from tavla.rules.late_entries import LateEntry, LateEntryPolicy, LateEntryRefused, late_entry
from tavla.rules.swiss import pair_swiss_round

HALF = LateEntryPolicy(points="half_per_missed_round")


def test_a_late_swiss_player_starts_with_nothing_or_half_a_point_per_missed_round() -> None:
    """R5.5: the policy decides: 0, or a half point for each round drawn before they came."""
    assert late_entry(LateEntryPolicy(), "swiss", "P9", 3, 2).half_points == 0
    assert late_entry(HALF, "swiss", "P9", 3, 2) == LateEntry(player_id="P9", round=3, half_points=2)


def test_a_late_lives_player_gets_the_policys_lives_else_the_events() -> None:
    """R5.7: lives per the late policy, else the event's starting lives."""
    assert late_entry(LateEntryPolicy(lives=1), "lives", "P9", 2, 3).lives == 1
    assert late_entry(LateEntryPolicy(), "lives", "P9", 2, 3).lives == 3


@pytest.mark.parametrize(("fmt", "next_round"), [("single_elimination", 2), ("round_robin", 3), ("swiss", 1)])
def test_other_formats_and_the_first_round_take_no_late_entry(fmt: str, next_round: int) -> None:
    """Only events drawn a round at a time take a player once they have begun."""
    with pytest.raises(LateEntryRefused):
        late_entry(HALF, fmt, "P9", next_round, 2)


def _field(n: int) -> list[Entrant]:
    return [Entrant(player_id=f"P{i}", rating=1600 - i) for i in range(n)]


def _won(round_number: int, home: str, away: str) -> MatchRecord:
    return MatchRecord(round=round_number, home=home, away=away, winner=home, home_points=7, away_points=2)


def test_a_late_players_half_points_place_them_among_the_winners() -> None:
    """R5.5: after two rounds, a late player given a point (two halves) meets a one-win player;
    one entered with nothing meets the player without a win."""
    field = [*_field(4), Entrant(player_id="P9", rating=1000), Entrant(player_id="P8", rating=1000)]
    history = [_won(1, "P0", "P1"), _won(1, "P2", "P3"), _won(2, "P0", "P2"), _won(2, "P3", "P1")]
    paired = pair_swiss_round(field, history, 3, 5, {"P9": 2})
    boards = {frozenset((p.home, p.away)) for p in paired.pairings}
    assert boards == {frozenset(("P0", "P3")), frozenset(("P2", "P9")), frozenset(("P1", "P8"))}


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(4, 12))
def test_without_late_entries_the_swiss_pairs_as_before(seed: int, n: int) -> None:
    """R5.1: counting in halves changes no draw that has no late entry (old draws recompute)."""
    field = _field(n)
    history = [_won(1, f"P{i}", f"P{i + 1}") for i in range(0, n - 1, 2)]
    assert pair_swiss_round(field, history, 2, seed) == pair_swiss_round(field, history, 2, seed, {})


def test_the_draw_pairs_the_late_player_and_its_digest_holds_the_start() -> None:
    """R5.1, R5.5: the late entry is a public input; without one the digest is unchanged."""
    rules = DaySettings(format="swiss", swiss_rounds=4)
    field = (*_field(4), Entrant(player_id="P9"))
    history = (_won(1, "P0", "P1"), _won(1, "P2", "P3"), _won(2, "P0", "P2"), _won(2, "P1", "P3"))
    entry = LateEntry(player_id="P9", round=3, half_points=2)
    inputs = DrawInputs(number=3, round=3, settings=rules, field=field, history=history, late=(entry,))
    drawn = compute_draw(inputs, 11)
    assert any("P9" in (f.home.player, f.away.player) for f in drawn.fixtures)
    plain = inputs.model_copy(update={"late": ()})
    assert digest(inputs) != digest(plain)
    assert '"late"' not in plain.model_dump_json(exclude={"late"})


def test_standings_count_the_late_start() -> None:
    """R5.5, R10.2: the late player's half points count in the table and are shown apart."""
    rules = DaySettings(format="swiss")
    history = [_won(1, "P0", "P1"), _won(2, "P9", "P1")]
    late = [LateEntry(player_id="P9", round=2, half_points=1)]
    rows = event_standings(rules, "main", ["P0", "P1", "P9"], history, late=late)
    first = rows[0]
    assert first.player_id == "P9" and getattr(first, "late_half_points", None) == 1


def test_a_late_lives_player_plays_on_their_own_lives() -> None:
    """R5.7: a late entrant with one life is out after one loss; the others keep theirs."""
    rules = DaySettings(format="lives", lives=2)
    history = [_won(2, "P0", "P9")]
    late = [LateEntry(player_id="P9", round=2, lives=1)]
    rows = event_standings(rules, "main", ["P0", "P1", "P9"], history, late=late)
    assert rows[-1].player_id == "P9"
