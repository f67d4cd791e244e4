"""The rating ledger (R10.3, R1.1): one replay for the incremental path and the rebuild."""

from __future__ import annotations

from tavla.rules.rating import RatedResult, RatingState, rate_match, replay_history
from tavla.rules.rating_ledger import LedgerEntry, cascade, ledger_key, replay


def _e(n: int, winner: str, loser: str, length: int = 5, forfeit: bool = False) -> LedgerEntry:
    return LedgerEntry(
        key=f"2026-01-01T10:{n:02d}:00+00:00#m{n}",
        match_id=f"m{n}",
        tournament_id="t",
        winner=winner,
        loser=loser,
        length=length,
        forfeit=forfeit,
        winner_points=length,
    )


def test_the_ledger_orders_by_the_moment_in_utc_then_the_match() -> None:
    """Offsets do not change the order: 12:00+02:00 comes before 11:00+00:00."""
    assert ledger_key("2026-05-01T12:00:00+02:00", "x") < ledger_key("2026-05-01T11:00:00+00:00", "a")


def test_a_full_replay_equals_the_formula_in_order_and_skips_forfeits() -> None:
    """R10.3: the same as replaying with the rating rules; a forfeit is a step, not rated."""
    entries = [_e(1, "A", "B"), _e(2, "B", "C", 7), _e(3, "C", "A", forfeit=True), _e(4, "A", "C", 9)]
    steps, states = replay(entries, {}, dict.fromkeys("ABC", ""))
    expected = replay_history(
        RatedResult(winner=e.winner, loser=e.loser, match_length=e.length, forfeit=e.forfeit) for e in entries
    )
    assert states == expected
    forfeit = [s for s in steps if s.match_id == "m3"]
    assert [(s.rated, s.boost, s.before == s.after) for s in forfeit] == [(False, 0.0, True)] * 2


def test_a_late_result_moves_its_players_and_every_later_opponent_only() -> None:
    """Out of order: the cascade starts at the late entry and follows who met whom after it."""
    entries = [_e(1, "A", "B"), _e(2, "C", "D"), _e(3, "B", "C"), _e(4, "E", "F")]
    assert cascade(entries[1:], {"C", "D"}) == {"C": entries[1].key, "D": entries[1].key, "B": entries[2].key}
    start = {"B": rate_match(RatingState(), RatingState(), 5)[1]}
    steps, states = replay(entries, start, cascade(entries[1:], {"C", "D"}))
    assert {s.match_id for s in steps} == {"m2", "m3"}
    assert set(states) == {"B", "C", "D"}
    _, everyone = replay(entries, {}, dict.fromkeys("ABCDEF", ""))
    assert all(everyone[p] == states[p] for p in states)


def test_a_removed_entry_restarts_its_players_from_the_given_key() -> None:
    """An appeal moved the entry: the seeds change from the old key, even with no entry there."""
    entries = [_e(5, "A", "B")]
    assert cascade(entries, {"A", "B"}, since="2026-01-01T10:01") == dict.fromkeys("AB", "2026-01-01T10:01")
    assert cascade([], {"A"}) == {"A": ""}


def test_two_merged_accounts_that_met_are_not_rated() -> None:
    """R1.1: a person against themselves is left out."""
    steps, states = replay([_e(1, "A", "A")], {}, {"A": ""})
    assert steps == [] and states == {}
