"""Refund on withdrawal (R3.5)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tavla.rules as rules
from tavla.rules.refunds import RefundKind, refund_due

CLOSE = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
BEFORE, AFTER = CLOSE - timedelta(hours=1), CLOSE + timedelta(minutes=1)


def test_full_refund_before_close() -> None:
    assert refund_due(2000, "full", withdrawn_at=BEFORE, registration_closes_at=CLOSE, drawn=False) == 2000


def test_percentage_refund_rounds_down_to_the_cent() -> None:
    """A 75% refund of 19.99 is 14.99, never 15.00: the organiser never pays more than the policy."""
    assert (
        refund_due(
            1999, "percentage", percentage=75, withdrawn_at=BEFORE, registration_closes_at=CLOSE, drawn=False
        )
        == 1499
    )


def test_fixed_deduction_never_goes_negative() -> None:
    for paid, expected in ((2000, 1500), (300, 0)):
        refund = refund_due(
            paid,
            "fixed_deduction",
            deduction=500,
            withdrawn_at=BEFORE,
            registration_closes_at=CLOSE,
            drawn=False,
        )
        assert refund == expected


@pytest.mark.parametrize("kind", ["full", "percentage", "fixed_deduction", "none"])
def test_no_refund_after_close_or_after_the_draw(kind: RefundKind) -> None:
    """R3.5: no refund for withdrawal after the draw (or once registration has closed)."""
    assert (
        refund_due(
            2000,
            kind,
            percentage=50,
            deduction=100,
            withdrawn_at=AFTER,
            registration_closes_at=CLOSE,
            drawn=False,
        )
        == 0
    )
    assert (
        refund_due(
            2000,
            kind,
            percentage=50,
            deduction=100,
            withdrawn_at=BEFORE,
            registration_closes_at=CLOSE,
            drawn=True,
        )
        == 0
    )


@given(
    paid=st.integers(0, 10**7),
    pct=st.integers(0, 100),
    deduction=st.integers(0, 10**7),
    kind=st.sampled_from(["full", "percentage", "fixed_deduction", "none"]),
)
def test_refund_is_never_more_than_was_paid_and_never_negative(
    paid: int, pct: int, deduction: int, kind: RefundKind
) -> None:
    refund = refund_due(
        paid,
        kind,
        percentage=pct,
        deduction=deduction,
        withdrawn_at=BEFORE,
        registration_closes_at=CLOSE,
        drawn=False,
    )
    assert 0 <= refund <= paid
    assert isinstance(refund, int)


def test_public_surface_resolves_every_name() -> None:
    """The package's __init__ lists the public entry points; each one must exist."""
    for name in rules.__all__:
        assert getattr(rules, name) is not None
    assert "seed_order" in dir(rules)
    with pytest.raises(AttributeError):
        _ = rules.no_such_rule
