"""Entry-fee money (R3.3-R3.6): the ledger of a registration, payments at the venue, card checkout."""

from __future__ import annotations

from datetime import datetime
from typing import Literal, Self

from pydantic import Field, model_validator

from tavla.models.common import ApiModel, Instant, Money, ShortText, StrictModel, TavlaId
from tavla.models.money_figures import (
    COLLECTED,
    PAID_OUT,
    POOL,
    REFUNDS_DUE,
    MoneyFigures,
)
from tavla.statements import CsvMapping

PaymentMethod = Literal["card_online", "bank_transfer", "cash", "card_at_venue"]
EntryKind = Literal["payment", "refund", "payout"]


class LedgerEntry(ApiModel):
    """One money movement: a payment in, a refund or a prize payout out (cents, EUR)."""

    id: str
    tavla_id: str
    name: str | None = Field(
        default=None, description="the player's name (an erased player's pseudonym), on the refunds list"
    )
    kind: EntryKind
    method: PaymentMethod | Literal["provider_refund", "bank_refund", "prize"]
    amount: Money
    value_date: str = Field(description="ISO date (bank) or instant (card, venue) the money moved")
    reference: str | None = None
    recorded_by: str = Field(description="who recorded it: a Tavla ID, a role, or `provider`")
    recorded_at: datetime
    receipt: str | None = Field(default=None, description="receipt number of a payment at the venue")
    status: Literal["done", "due"] = "done"
    flags: list[str] = Field(default_factory=list, description="e.g. amount_mismatch: for the organiser")
    expected: Money | None = Field(default=None, description="what the checkout asked, where it differs")
    currency: str = Field(
        default="EUR",
        description="the currency the money moved in; another than EUR is flagged and not counted",
    )
    statement_line: str | None = Field(
        default=None, description="a bank payment: the checksum of the statement line that paid it"
    )


class SideEventCharge(ApiModel):
    """A side event the player plays (fed from the Main by the draw) and its fee (R3.6)."""

    event: str = Field(description="consolation or last_chance")
    name: str
    fee: Money = Field(description="0 when the side event is free for Main players")


class Ledger(ApiModel):
    """A registration's money: due (fee by division and early bird), payments, refunds, balance."""

    tavla_id: str
    name: str | None = Field(
        default=None,
        description="the player's name (an erased player's pseudonym), on the tournament's payments list",
    )
    tournament_id: str
    status: str = Field(description="registered, waitlisted, pending, refused or withdrawn")
    division: str | None = None
    due: Money = Field(description="the entry fee (and side-event fees); withdrawn: what the organiser keeps")
    paid: Money
    refunded: Money = Field(description="refunds paid back")
    refund_due: Money = Field(
        default_factory=lambda: Money(amount=0), description="refunds recorded but not yet paid back (R3.5)"
    )
    balance: int = Field(
        description="paid - refunded - due, in cents: negative while money is owed, positive while "
        "the organiser holds the player's money (a refund still due)"
    )
    outstanding: Money
    early_bird: bool = Field(description="the early-bird fee applies")
    side_events: list[SideEventCharge] = Field(
        default_factory=list, description="side events the player was drawn into and what each costs (R3.6)"
    )
    entries: list[LedgerEntry]


EVENT = (
    "the event whose prize it is: `main` (the highest division's Main, its places and "
    "categories), a lower division's Main (`novice.main`), a side event (`consolation`, or "
    "`novice.consolation` in a tournament of divisions)"
)


class TournamentPayments(ApiModel):
    """Every registration's ledger and the tournament's totals (its staff)."""

    tournament_id: str
    ledgers: list[Ledger]
    collected: Money = Field(description=COLLECTED)
    outstanding: Money = Field(description="entry and side-event fees still owed by entries on the main list")
    refunds_due: Money = Field(default_factory=lambda: Money(amount=0), description=REFUNDS_DUE)
    figures: MoneyFigures


class MyPayments(ApiModel):
    """My ledgers, one per tournament I entered or paid for."""

    ledgers: list[Ledger]


class VenuePayment(StrictModel):
    """Cash or card at the referee table (R3.3), recorded by staff."""

    tavla_id: TavlaId
    method: Literal["cash", "card_at_venue"]
    amount: Money
    receipt: ShortText | None = Field(default=None, description="the receipt number handed over, if any")

    @model_validator(mode="after")
    def _some_money(self) -> Self:
        if self.amount.amount <= 0:
            raise ValueError("amount: a payment moves at least one cent")
        return self


class CheckoutStarted(ApiModel):
    """Where to pay: the provider's checkout page for the amount the ledger says is owed."""

    checkout_url: str
    session_id: str
    amount: Money


class WebhookReceived(ApiModel):
    received: bool = True
    recorded: bool = Field(description="false when the event was already recorded or is not a payment")


class Refunds(ApiModel):
    """The tournament's refunds (R3.5), those still due first: the organiser's list to pay."""

    refunds: list[LedgerEntry]
    due: Money = Field(description="the refunds still to pay, in all")


class PrizeAward(ApiModel):
    """What one player wins from one scope (the main places, or a category prize: women, youth,
    veteran): public, like the results (R12.1); the award is all that is shown of a category."""

    tavla_id: str
    name: str | None = None
    scope: str = Field(description="`main`, a category (women, youth, veteran), or the event's id")
    place: str = Field(description="the place as shown, e.g. '3-4' when shared")
    money: Money
    items: list[str] = Field(default_factory=list, description="cup, medal, item, free entry")
    event: str = Field(default="main", description=EVENT)
    paid_from: str = Field(
        default="main", description="the pool that pays it: `main`, or the event's own (its id)"
    )


class PrizePool(ApiModel):
    """One prize pool and what pays it (R3.6, R11.2): the main pool, or an event's own pool."""

    id: str = Field(description="`main`, or the event whose own fees make this pool")
    collected: Money = Field(
        description="the fees this pool is made of: an own pool, the fees its event kept (its "
        "players' payments beyond their entry fee go to their side events, up to each fee); "
        "the main pool, all the rest of `collected`"
    )
    pool: Money = Field(description="the pool rate of those fees, rounded down to the cent")
    pays: list[str] = Field(
        description="the events whose prizes it pays: `main` pays the tournament's prizes and "
        "every pooled event's; an own pool only its event's"
    )


class UnawardedPrize(ApiModel):
    """An announced prize nobody wins: a place the field did not reach, or a category with too
    few eligible finishers (R11.4; no count is shown: who is eligible is private)."""

    scope: str = Field(description="`main`, a category, or the event's id")
    place: int
    money: Money
    reason: Literal["place_not_reached", "too_few_participants"]


class PrizeTable(ApiModel):
    """The prize list (R11): the pool from the entry fees collected (net of every refund, paid
    or due), split to the cent; shared places share equally; disqualified players win nothing."""

    tournament_id: str
    final: bool = Field(description="true once the tournament is finished and the places are known")
    collected: Money = Field(description=COLLECTED)
    pool: Money = Field(description=POOL)
    awards: list[PrizeAward]
    money_total: Money = Field(
        description="all money prizes; equals the pool when the shares add up to 100 %"
    )
    unawarded: list[UnawardedPrize] = Field(
        default_factory=list, description="announced prizes nobody wins (once final), and why"
    )
    pools: list[PrizePool] = Field(
        default_factory=list,
        description="each pool, what makes it and which prizes it pays: the main pool first, "
        "then each event paid from its own fees (R3.6)",
    )


Category = Literal["women", "youth", "veteran"]


class EntryCategories(StrictModel):
    """The organiser sets an entry's prize categories (R11.4), or with null goes back to what
    the player's profile says (gender, birth year)."""

    categories: list[Category] | None = Field(max_length=3)

    @model_validator(mode="after")
    def _unique(self) -> Self:
        if self.categories is not None and len(set(self.categories)) != len(self.categories):
            raise ValueError("categories: each at most once")
        return self


class CategoryEligibility(ApiModel):
    """One entry's prize categories and where they come from (its organisers only: private)."""

    tavla_id: str
    name: str | None = None
    status: str
    categories: list[Category]
    set_by: Literal["profile", "organiser"]


class Eligibility(ApiModel):
    """Every entry's prize categories (R11.4; its organisers only)."""

    tournament_id: str
    entries: list[CategoryEligibility]


class Payout(StrictModel):
    """The organiser paid a winner (part of) their money prize (R11.5): a prize may be paid
    in several payments, each at most what is left of it."""

    tavla_id: TavlaId
    amount: Money | None = Field(
        default=None,
        description="what was paid, in cents; left out: all that is left of the prize (nothing "
        "left: nothing recorded). More than what is left: 409 over_prize",
    )
    method: Literal["cash", "bank_transfer"] = "cash"
    reference: ShortText | None = None

    @model_validator(mode="after")
    def _some_money(self) -> Self:
        if self.amount is not None and self.amount.amount <= 0:
            raise ValueError("amount: a payout moves at least one cent")
        return self


class WinnerPayouts(ApiModel):
    """One winner's money prize and what has been paid of it (R11.5)."""

    tavla_id: str
    name: str | None = None
    won: Money = Field(description="the winner's money prizes, place and category together")
    paid: Money = Field(description="the payouts recorded so far")
    rest_due: Money = Field(description="won - paid: what is still to pay this winner")
    payouts: list[LedgerEntry]


class PrizePayouts(ApiModel):
    """Every winner's prize, paid and still due (its staff; R11.5). Before the finish, empty."""

    tournament_id: str
    final: bool
    winners: list[WinnerPayouts]
    paid: Money = Field(description=PAID_OUT)
    rest_due: Money = Field(description="all prize money still to pay")


class StatementUpload(StrictModel):
    """A bank statement to import (R3.3): its text, its format, and for CSV the column mapping
    (saved for the organiser; leave it out to use the one saved last time)."""

    format: Literal["csv", "mt940", "camt053"]
    content: str = Field(min_length=1, max_length=2_000_000)
    mapping: CsvMapping | None = None
    account: ShortText | None = Field(
        default=None, description="the account's IBAN or name: part of each line's identity"
    )


class CsvHead(StrictModel):
    """The first lines of a CSV statement (the header first), to choose the mapping from."""

    content: str = Field(min_length=1, max_length=64_000, description="the file's first lines, header first")


class StatementLineView(ApiModel):
    """One line and what became of it; the payer's name only while it is unmatched (R12)."""

    checksum: str
    value_date: str
    amount: Money
    status: Literal["matched", "unmatched", "duplicate", "underpaid", "overpaid"]
    tavla_id: str | None = None
    reference: str | None = Field(
        default=None, description="the check-in code found, or the text while unmatched"
    )
    payer: str | None = None
    owed: Money | None = Field(default=None, description="underpaid: what the registration still owes")


class StatementImport(ApiModel):
    """A statement's import. One of a few hundred credit lines is imported within the request
    (`state` done, every line listed); a larger one is queued and imported in the background:
    `GET .../bank-statements/{statement_id}` shows `done` of `total` lines and their `counts`
    until it is done (then `GET .../bank-statements/lines` lists them)."""

    lines: list[StatementLineView]
    counts: dict[str, int]
    statement_id: str | None = Field(default=None, description="the import, to follow its progress")
    state: Literal["queued", "running", "done", "failed"] = "done"
    total: int = Field(default=0, description="credit lines in EUR the statement holds")
    done: int = Field(default=0, description="credit lines imported so far")


class ManualMatch(StrictModel):
    tavla_id: TavlaId


class PaymentDeadline(StrictModel):
    """When unpaid main-list places go to the waiting list (a notice a day before); null: never."""

    at: Instant | None


class PaymentDeadlineSet(ApiModel):
    payment_deadline: datetime | None
    notice_at: datetime | None = Field(default=None, description="when unpaid players are told")
