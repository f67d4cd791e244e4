"""Appeal finality (R9.3, R9.5): who may still appeal a match's result."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tavla.rules.grievances import fingerprint, heard_after, may_appeal
from tavla.rules.results import Result

RESULT = Result("A", 1, 0, "score")
FLIPPED = Result("B", 0, 1, "decision")


def test_a_dismissed_appeal_ends_the_appellants_grievance_only() -> None:
    """R9.3: B's appeal is dismissed: B may not appeal 1-0 again, A (not heard) may."""
    heard = heard_after({}, "B", ("A", "B"), RESULT, changed=False)
    assert not may_appeal("B", RESULT, heard)
    assert may_appeal("A", RESULT, heard)


def test_a_result_set_on_appeal_is_final_for_both() -> None:
    """R9.3, R9.5: the decision that set a new result is the last step: nobody appeals it."""
    heard = heard_after({}, "B", ("A", "B"), FLIPPED, changed=True)
    assert not may_appeal("A", FLIPPED, heard) and not may_appeal("B", FLIPPED, heard)


def test_a_pairing_appeal_before_play_leaves_the_result_open_to_appeal() -> None:
    """R9.1, R9.3: a grievance about the pairing (no result yet) is not one about the score."""
    heard = heard_after({}, "B", ("A", "B"), None, changed=False)
    assert not may_appeal("B", None, heard)
    assert may_appeal("B", RESULT, heard)


@given(
    winner=st.sampled_from(["A", "B"]),
    home=st.integers(0, 25),
    away=st.integers(0, 25),
    forfeit=st.booleans(),
    how=st.sampled_from(["score", "decision", "noshow"]),
)
def test_results_that_differ_have_different_fingerprints(
    winner: str, home: int, away: int, forfeit: bool, how: Any
) -> None:
    """R9.3: "the same result" means every figure of it: any change makes it a new decision."""
    result = Result(winner, home, away, how, forfeit)
    assert fingerprint(result) == fingerprint(Result.from_json(result.as_json()))
    changes: list[dict[str, Any]] = [
        {"winner": "C"},
        {"home_points": home + 1},
        {"forfeit": not forfeit},
        {"how": "penalty"},
    ]
    for change in changes:
        assert fingerprint(result) != fingerprint(replace(result, **change))
    assert fingerprint(result) != fingerprint(None)
