"""Entry-fee money (R3.3-R3.6): what a registration owes, early bird by value date, its ledger.

Pure: amounts are integer minor units (cents), dates come in as arguments.

* Early bird (R3.4): a payment counts as early when its **value date, in the tournament's
  time zone**, is on or before the early-bird deadline's date there. A bank transfer valued
  at 23:59:59 local on the last day is early, one at 00:00:00 the next day is not, whatever
  the UTC offset of that day (daylight saving included). A bank statement gives a date
  only; a card payment gives an instant, turned into the local date.
* The fee due on a value date: the early-bird fee while that date is an early day, or when
  the payments valued early cover it; else the full fee (a partial early payment does not
  earn the discount once the early bird is over: the rest is at the full price).
* A division may have its own fees; otherwise the tournament's apply.
* Side events (R3.6): free for Main players when the organiser says so, else their own fee.
* The ledger of one registration: due, paid, refunded (money actually given back), refund
  due (a refund recorded but not yet paid back), balance = paid - refunded - due (negative:
  still owed; positive: the organiser holds money of the player's, e.g. a refund still to
  pay). A withdrawn entry owes nothing more: what the refund policy lets the organiser keep
  is its due, so its balance is the refund still due, and 0 once that is paid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from tavla.frozen import Frozen

__all__ = [
    "LedgerLine",
    "LedgerSummary",
    "fee_due",
    "is_early",
    "local_day",
    "side_event_fee",
    "summarise",
]


def local_day(value: datetime | date, time_zone: str) -> date:
    """The calendar date of a value date in the tournament's time zone (a date stays as it is)."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError("a value date with a time needs its UTC offset")
        return value.astimezone(ZoneInfo(time_zone)).date()
    return value


def is_early(value: datetime | date, deadline: datetime, time_zone: str) -> bool:
    """R3.4: valued on or before the early-bird deadline's date, both in the tournament's zone."""
    return local_day(value, time_zone) <= local_day(deadline, time_zone)


@dataclass(frozen=True, eq=False, repr=False)
class LedgerLine(Frozen):
    """One money movement of a registration: a payment (in) or a refund (out), in cents."""

    kind: str  # "payment" | "refund"
    amount: int
    value: datetime | date
    settled: bool = True  # a refund recorded as due is not settled until it is paid back


def fee_due(
    entry_fee: int,
    early_bird_fee: int | None,
    early_bird_deadline: datetime | None,
    time_zone: str,
    payments: Sequence[LedgerLine],
    *,
    on: datetime | date,
) -> int:
    """The fee this registration owes on the value date `on` (R3.4): the early-bird fee when
    the early payments cover it, or while `on` is still an early day (what is left can still
    be paid early); else the full fee. The page, the checkout and the bank matcher all ask
    this, each with its own value date (now, or the transfer's)."""
    if entry_fee < 0 or (early_bird_fee is not None and early_bird_fee < 0):
        raise ValueError("a fee cannot be negative")
    if early_bird_fee is None or early_bird_deadline is None:
        return entry_fee
    if is_early(on, early_bird_deadline, time_zone):
        return early_bird_fee
    early = sum(
        p.amount
        for p in payments
        if p.kind == "payment" and is_early(p.value, early_bird_deadline, time_zone)
    )
    return early_bird_fee if early >= early_bird_fee else entry_fee


def side_event_fee(fee: int, free_for_main_players: bool, plays_main: bool) -> int:
    """R3.6: a side event free for Main participants costs them nothing; others pay its fee."""
    return 0 if free_for_main_players and plays_main else fee


@dataclass(frozen=True, eq=False, repr=False)
class LedgerSummary(Frozen):
    due: int
    paid: int
    refunded: int
    refund_due: int = 0

    @property
    def balance(self) -> int:
        """paid - refunded - due: negative while money is owed, positive when paid too much."""
        return self.paid - self.refunded - self.due

    @property
    def outstanding(self) -> int:
        """What the player still has to pay (never negative)."""
        return max(0, -self.balance)


def summarise(lines: Sequence[LedgerLine], fee: int, *, active: bool) -> LedgerSummary:
    """The ledger's totals. `fee` is what the entry owes while `active` (on a list); a
    withdrawn entry's due is what it leaves with the organiser after its refunds, paid back
    or still due (so its balance is the refund still due)."""
    paid = sum(line.amount for line in lines if line.kind == "payment")
    refunded = sum(line.amount for line in lines if line.kind == "refund" and line.settled)
    refund_due = sum(line.amount for line in lines if line.kind == "refund" and not line.settled)
    return LedgerSummary(
        due=fee if active else paid - refunded - refund_due,
        paid=paid,
        refunded=refunded,
        refund_due=refund_due,
    )
