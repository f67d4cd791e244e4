"""Entry-fee money rules (R3.3, R3.4, R3.6): early bird by value date in the venue's zone, the ledger."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavla.rules.money import LedgerLine, fee_due, is_early, local_day, side_event_fee, summarise

ATHENS = "Europe/Athens"
TZ = ZoneInfo(ATHENS)
# The early-bird deadline: the last early day is 2026-03-28 in Athens (the day before the
# clocks go from +02:00 to +03:00, at 03:00 local on Sunday 2026-03-29).
DEADLINE = datetime(2026, 3, 28, 12, 0, tzinfo=TZ)


def test_a_transfer_valued_at_23_59_59_on_the_last_day_is_early() -> None:
    """R3.4: 23:59:59 Athens time on the last day is early; 00:00:00 the next day is not."""
    assert is_early(datetime(2026, 3, 28, 23, 59, 59, tzinfo=TZ), DEADLINE, ATHENS)
    assert not is_early(datetime(2026, 3, 29, 0, 0, 0, tzinfo=TZ), DEADLINE, ATHENS)


def test_the_boundary_is_athens_midnight_not_utc_midnight() -> None:
    """R3.4: 21:59:59Z on the last day is 23:59:59 in Athens (+02:00): early; 22:00:00Z is not."""
    assert is_early(datetime(2026, 3, 28, 21, 59, 59, tzinfo=UTC), DEADLINE, ATHENS)
    assert not is_early(datetime(2026, 3, 28, 22, 0, 0, tzinfo=UTC), DEADLINE, ATHENS)


def test_the_boundary_moves_with_daylight_saving() -> None:
    """R3.4 across the DST change: a deadline on 2026-03-29 (the change day) ends at 21:00Z,
    since midnight that night is +03:00; the +02:00 of the day before would give 22:00Z."""
    deadline = datetime(2026, 3, 29, 10, 0, tzinfo=TZ)
    assert is_early(datetime(2026, 3, 29, 20, 59, 59, tzinfo=UTC), deadline, ATHENS)
    assert not is_early(datetime(2026, 3, 29, 21, 0, 0, tzinfo=UTC), deadline, ATHENS)
    autumn = datetime(2026, 10, 25, 10, 0, tzinfo=TZ)  # back to +02:00 at 04:00 local
    assert is_early(datetime(2026, 10, 25, 21, 59, 59, tzinfo=UTC), autumn, ATHENS)
    assert not is_early(datetime(2026, 10, 25, 22, 0, 0, tzinfo=UTC), autumn, ATHENS)


def test_a_bank_value_date_is_a_date() -> None:
    """R3.4: a statement's value date has no time: the last day itself is early, the next is not."""
    assert is_early(date(2026, 3, 28), DEADLINE, ATHENS)
    assert not is_early(date(2026, 3, 29), DEADLINE, ATHENS)


def test_an_instant_without_an_offset_is_refused() -> None:
    with pytest.raises(ValueError, match="UTC offset"):
        local_day(datetime(2026, 3, 28, 23, 0), ATHENS)


@given(st.datetimes(min_value=datetime(2024, 1, 1), max_value=datetime(2030, 12, 31), timezones=st.just(UTC)))
def test_early_means_on_or_before_the_last_day_in_athens(paid: datetime) -> None:
    """R3.4, any instant: early exactly when its Athens calendar date is not after the last day."""
    assert is_early(paid, DEADLINE, ATHENS) == (paid.astimezone(TZ).date() <= date(2026, 3, 28))


@given(st.integers(min_value=0, max_value=86_399))
def test_every_second_of_the_last_day_is_early_and_none_of_the_next(second: int) -> None:
    """R3.4: every local second of the last day (whatever its UTC offset) is early."""
    start = datetime(2026, 3, 28, tzinfo=TZ)
    assert is_early((start + timedelta(seconds=second)).astimezone(UTC), DEADLINE, ATHENS)
    next_day = datetime(2026, 3, 29, tzinfo=TZ).astimezone(UTC) + timedelta(seconds=second)
    if next_day.astimezone(TZ).date() == date(2026, 3, 29):
        assert not is_early(next_day, DEADLINE, ATHENS)


def _paid(amount: int, when: datetime | date) -> LedgerLine:
    return LedgerLine(kind="payment", amount=amount, value=when)


AFTER = date(2026, 3, 30)  # the early bird is over: what was paid early decides


def test_the_early_bird_fee_needs_the_early_payments_to_cover_it() -> None:
    """R3.4: 15.00 early earns the 15.00 fee; 10.00 early + 5.00 late does not (20.00 due)."""
    early, late = date(2026, 3, 27), date(2026, 3, 30)
    assert fee_due(2000, 1500, DEADLINE, ATHENS, [_paid(1500, early)], on=AFTER) == 1500
    assert fee_due(2000, 1500, DEADLINE, ATHENS, [_paid(1000, early), _paid(500, late)], on=AFTER) == 2000
    assert fee_due(2000, 1500, DEADLINE, ATHENS, [], on=AFTER) == 2000
    assert fee_due(2000, None, None, ATHENS, [_paid(1500, early)], on=early) == 2000


def test_a_refund_is_not_an_early_payment() -> None:
    refund = LedgerLine(kind="refund", amount=1500, value=date(2026, 3, 1))
    assert fee_due(2000, 1500, DEADLINE, ATHENS, [refund], on=AFTER) == 2000


def test_side_events_are_free_for_main_players_when_announced_so() -> None:
    """R3.6: free for Main participants when stated, charged for everyone else."""
    assert side_event_fee(1000, True, plays_main=True) == 0
    assert side_event_fee(1000, True, plays_main=False) == 1000
    assert side_event_fee(1000, False, plays_main=True) == 1000


def test_the_ledger_balance_is_integer_cents() -> None:
    """R3.3: paid - refunded - due; a withdrawn entry owes nothing once its refund is counted."""
    lines = [_paid(1500, date(2026, 3, 1)), _paid(500, date(2026, 3, 2))]
    active = summarise(lines, 2000, active=True)
    assert (active.due, active.paid, active.balance, active.outstanding) == (2000, 2000, 0, 0)
    partly = summarise(lines[:1], 2000, active=True)
    assert (partly.balance, partly.outstanding) == (-500, 500)
    refunded = [*lines, LedgerLine(kind="refund", amount=1600, value=date(2026, 3, 3))]
    gone = summarise(refunded, 2000, active=False)
    assert (gone.due, gone.refunded, gone.balance, gone.outstanding) == (400, 1600, 0, 0)


def test_a_withdrawn_entry_shows_its_refund_due_until_it_is_paid_back() -> None:
    """R3.5: a refund recorded but not yet paid back is money the organiser still holds: the
    balance shows it (positive), not 0; once it is paid back the balance is 0."""
    paid = [_paid(2000, date(2026, 3, 1))]
    due = [*paid, LedgerLine(kind="refund", amount=1500, value=date(2026, 3, 3), settled=False)]
    waiting = summarise(due, 2000, active=False)
    assert (waiting.due, waiting.refunded, waiting.refund_due, waiting.balance, waiting.outstanding) == (
        500,
        0,
        1500,
        1500,
        0,
    )
    done = summarise(
        [*paid, LedgerLine(kind="refund", amount=1500, value=date(2026, 3, 3))], 2000, active=False
    )
    assert (done.due, done.refunded, done.refund_due, done.balance) == (500, 1500, 0, 0)


def test_negative_fees_are_refused() -> None:
    with pytest.raises(ValueError):
        fee_due(-1, None, None, ATHENS, [], on=AFTER)


def test_the_fee_due_on_a_day_of_the_early_bird_is_the_early_fee() -> None:
    """R3.4: asked on (or before) the last early day with nothing paid, the early-bird fee is
    due (the player can still pay it); asked the day after, the full fee, unless early
    payments already covered the early fee."""
    assert fee_due(2000, 1500, DEADLINE, ATHENS, [], on=date(2026, 3, 28)) == 1500
    assert fee_due(2000, 1500, DEADLINE, ATHENS, [], on=date(2026, 3, 29)) == 2000
    late = datetime(2026, 3, 28, 22, 0, tzinfo=UTC)  # 00:00 on the 29th in Athens
    assert fee_due(2000, 1500, DEADLINE, ATHENS, [], on=late) == 2000
    paid_early = [_paid(1500, date(2026, 3, 27))]
    assert fee_due(2000, 1500, DEADLINE, ATHENS, paid_early, on=date(2026, 4, 1)) == 1500
    part = [_paid(1000, date(2026, 3, 27))]
    assert fee_due(2000, 1500, DEADLINE, ATHENS, part, on=date(2026, 3, 28)) == 1500
    assert fee_due(2000, 1500, DEADLINE, ATHENS, part, on=date(2026, 3, 29)) == 2000
