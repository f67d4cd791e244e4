"""A tournament's money figures, each in the one word every money response uses (R3.3-R3.6, R11).

Its own module: the board and the federation report answer these figures, and importing them
from the payments' models would load those 27 models (and the bank statements' parsers) into
the board's and finish's init (docs/decisions/0033)."""

from __future__ import annotations

from pydantic import Field

from tavla.models.common import ApiModel, Money

# One word per figure: each defined here once and used so by every money response (the
# payments page, the prize list, the payouts, the federation report): a treasurer reading
# "collected" anywhere reads the same number.
RECEIVED = "every payment in from players (EUR; money in another currency is flagged and not counted)"
REFUNDED = "refunds paid back to players"
REFUNDS_DUE = "refunds recorded (a withdrawal's, a surplus') but not yet paid back"
COLLECTED = (
    "the entry fees the tournament keeps: received - refunded - refunds due (a refund owed is "
    "not the tournament's money, paid back yet or not)"
)
POOL = (
    "the prize pool: the part of `collected` the money prizes share (R11.2); in all, the main "
    "pool and each event's own pool (`pools`)"
)
PAID_OUT = "prize payouts recorded (R11.5)"
HELD = "money the organiser should hold now: received - refunded - paid out"


class MoneyFigures(ApiModel):
    """A tournament's money in the words every money response uses, each defined once."""

    received: Money = Field(description=RECEIVED)
    refunded: Money = Field(description=REFUNDED)
    refunds_due: Money = Field(description=REFUNDS_DUE)
    collected: Money = Field(description=COLLECTED)
    pool: Money = Field(description=POOL)
    paid_out: Money = Field(description=PAID_OUT)
    held: Money = Field(description=HELD)
