"""What a player gets back on withdrawal (R3.5): by policy before registration closes, else nothing."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

RefundKind = Literal["full", "percentage", "fixed_deduction", "none"]


def refund_possible(
    kind: RefundKind, *, withdrawn_at: datetime, registration_closes_at: datetime, drawn: bool
) -> bool:
    """Whether the policy gives anything back at all now, whatever was paid (R3.5): when it
    does not, a withdrawal need not read what the player paid."""
    return not drawn and withdrawn_at < registration_closes_at and kind != "none"


def refund_due(
    paid: int,
    kind: RefundKind,
    *,
    withdrawn_at: datetime,
    registration_closes_at: datetime,
    drawn: bool,
    percentage: int | None = None,
    deduction: int | None = None,
) -> int:
    """Minor units to refund. Nothing after the draw or after registration closed (R3.5).

    A percentage refund rounds down to the cent, so the organiser never pays out more
    than the policy says; a fixed deduction never makes the refund negative.
    """
    if paid <= 0 or not refund_possible(
        kind, withdrawn_at=withdrawn_at, registration_closes_at=registration_closes_at, drawn=drawn
    ):
        return 0
    if kind == "full":
        return paid
    if kind == "percentage":
        return paid * (percentage or 0) // 100
    return max(0, paid - (deduction or 0))
