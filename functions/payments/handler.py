"""Entry-fee money (R3.3-R3.6): ledgers, payments at the venue, card checkout, the CSV export."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, TypeAlias, TypeVar

from aws_lambda_powertools.event_handler import Response
from pydantic import BaseModel

from tavla import clock, params
from tavla.contract import errors
from tavla.errors import (
    IdempotencyKeyReused,
    Invalid,
    NoPayment,
    NoPrize,
    NotFinished,
    NothingToPay,
    NotOrganiser,
    NotRegistered,
    NotStaff,
    OverPrize,
    ProfileMissing,
    ProviderUnavailable,
    RegistrationClosed,
    RequestInProgress,
    StatementNotFound,
    TournamentNotFound,
    TournamentOver,
)
from tavla.http import SIGNED_IN, cached, caller, make_resolver
from tavla.idempotency import IdempotencyKey, once
from tavla.models.payments import (
    CategoryEligibility,
    CheckoutStarted,
    CsvHead,
    Eligibility,
    EntryCategories,
    Ledger,
    LedgerEntry,
    ManualMatch,
    MyPayments,
    PaymentDeadline,
    PaymentDeadlineSet,
    Payout,
    PrizePayouts,
    PrizeTable,
    Refunds,
    StatementImport,
    StatementUpload,
    TournamentPayments,
    VenuePayment,
)
from tavla.observability import entry
from tavla.services import payments  # prizes, statements, unpaid: imported by their routes (0033)
from tavla.statements import CsvPreview

app = make_resolver()
R = TypeVar("R", bound=BaseModel)

TournamentId: TypeAlias = "Annotated[str, params.Path(max_length=64)]"
StatementId: TypeAlias = "Annotated[str, params.Path(max_length=64)]"

EXPORT_RESPONSES = errors(TournamentNotFound, NotOrganiser)
EXPORT_RESPONSES[200] = {
    "description": "All money in and out, one CSV line per movement (refunds and payouts negative)",
    "content": {"text/csv": {"schema": {"type": "string"}}},
}

STATEMENT_RESPONSES = errors(TournamentNotFound, NotOrganiser)
STATEMENT_RESPONSES[202] = {
    "description": "A large statement, queued: its import goes on in the background",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/StatementImport"}}},
}


@app.get(
    "/tournaments/<tournament_id>/payments",
    security=SIGNED_IN,
    tags=["payments"],
    responses=errors(TournamentNotFound, NotStaff),
)
def tournament_payments(tournament_id: TournamentId) -> TournamentPayments:
    """Every registration's ledger.

    Amount due (fee by division and early bird), payments, refunds and balance in cents,
    and the totals collected and outstanding (R3.3-R3.5; its referees and organisers).
    """
    return payments.tournament_payments(caller(app), tournament_id, clock.now())


@app.post(
    "/tournaments/<tournament_id>/payments",
    security=SIGNED_IN,
    tags=["payments"],
    status_code=201,
    responses=errors(TournamentNotFound, NotStaff, NotRegistered, RequestInProgress, IdempotencyKeyReused),
)
def venue_payment(
    tournament_id: TournamentId, body: VenuePayment, idempotency_key: IdempotencyKey = None
) -> tuple[Ledger, int]:
    """Record cash or card at the venue.

    Its referees and organisers record what the player paid at the referee table; the
    receipt number is in the ledger (R3.3). Answers the player's ledger. With an
    `Idempotency-Key` header a resent request records nothing more and answers the same.
    """
    who = caller(app)
    return _once(
        "venue_payment",
        who.sub,
        idempotency_key,
        {"tournament_id": tournament_id, "body": body.model_dump(mode="json")},
        lambda: payments.record_venue_payment(who, tournament_id, body, clock.now()),
        Ledger,
    ), 201


@app.post(
    "/tournaments/<tournament_id>/payments/checkout",
    security=SIGNED_IN,
    tags=["payments"],
    status_code=201,
    responses=errors(TournamentNotFound, ProfileMissing, NotRegistered, NothingToPay, ProviderUnavailable),
)
def checkout(tournament_id: TournamentId) -> tuple[CheckoutStarted, int]:
    """Start a card payment online.

    A checkout with the payment provider for what my ledger says I owe, never an amount
    from the client; the payment is recorded when the provider's signed webhook arrives
    (R3.3).
    """
    return payments.start_checkout(caller(app), tournament_id, clock.now()), 201


@app.get(
    "/tournaments/<tournament_id>/payments/export",
    security=SIGNED_IN,
    tags=["payments"],
    responses=EXPORT_RESPONSES,
)
def export(tournament_id: TournamentId) -> Response[str]:
    """Export the money (CSV).

    Every payment, refund and payout with method, amount in cents, value date, reference,
    receipt and who recorded it: for the treasurer (its organisers).
    """
    body = payments.export_csv(caller(app), tournament_id)
    return Response(
        status_code=200,
        content_type="text/csv; charset=utf-8",
        body=body,
        headers={"Content-Disposition": f'attachment; filename="payments-{tournament_id}.csv"'},
    )


EntryId: TypeAlias = 'Annotated[str, params.Path(max_length=128, pattern=r"^[A-Za-z0-9_.-]+$")]'


@app.get(
    "/tournaments/<tournament_id>/refunds",
    security=SIGNED_IN,
    tags=["payments"],
    responses=errors(TournamentNotFound, NotOrganiser),
)
def refunds(tournament_id: TournamentId) -> Refunds:
    """The refunds to pay.

    Refunds for withdrawals before registration closed, by the organiser's policy (R3.5),
    those still due first: card ones go back through the provider, bank ones are paid by
    the organiser and marked paid (its organisers).
    """
    return payments.refunds(caller(app), tournament_id)


@app.post(
    "/tournaments/<tournament_id>/refunds/<entry_id>/paid",
    security=SIGNED_IN,
    tags=["payments"],
    responses=errors(
        TournamentNotFound,
        NotOrganiser,
        NoPayment,
        ProviderUnavailable,
        RequestInProgress,
        IdempotencyKeyReused,
    ),
)
def pay_refund(
    tournament_id: TournamentId, entry_id: EntryId, idempotency_key: IdempotencyKey = None
) -> LedgerEntry:
    """Pay a refund.

    A card refund goes back through the payment provider (once, however often this is
    sent); a bank refund is marked paid. Paying a refund already paid changes nothing (its
    organisers, R3.5).
    """
    who = caller(app)
    return _once(
        "pay_refund",
        who.sub,
        idempotency_key,
        {"tournament_id": tournament_id, "entry_id": entry_id},
        lambda: payments.pay_refund(who, tournament_id, entry_id, clock.now()),
        LedgerEntry,
    )


@app.get(
    "/tournaments/<tournament_id>/prizes",
    tags=["payments"],
    middlewares=cached(max_age=5),
    responses=errors(TournamentNotFound),
)
def prize_table(tournament_id: TournamentId) -> PrizeTable:
    """The prize list.

    The pool from the entry fees actually collected, net of refunds; money prizes split to
    the cent, shared places sharing equally, disqualified players winning nothing (R11,
    R8.3). `final` once the tournament is finished; before, the pool so far and no awards.
    """
    from tavla.services import prizes  # the prize routes' own: the day's standings and models

    return prizes.prize_table(tournament_id)


@app.post(
    "/tournaments/<tournament_id>/prizes/payouts",
    security=SIGNED_IN,
    tags=["payments"],
    status_code=201,
    responses=errors(
        TournamentNotFound,
        NotOrganiser,
        NotFinished,
        NoPrize,
        OverPrize,
        RequestInProgress,
        IdempotencyKeyReused,
    ),
)
def payout(
    tournament_id: TournamentId, body: Payout, idempotency_key: IdempotencyKey = None
) -> tuple[Ledger, int]:
    """Record a prize paid out.

    Its organisers record that they paid a winner (part of) their money prize: the amount in
    cents, or all that is left of it; a prize may be paid in several payments. More than
    what is left is refused (409 `over_prize`, nothing recorded), also when two payouts
    arrive at once. In the winner's ledger and the audit trail (R11.5). With an
    `Idempotency-Key` header a resent request records nothing more and answers the same.
    """
    from tavla.services import prizes  # the prize routes' own: the day's standings and models

    who = caller(app)
    return _once(
        "payout",
        who.sub,
        idempotency_key,
        {"tournament_id": tournament_id, "body": body.model_dump(mode="json")},
        lambda: prizes.record_payout(who, tournament_id, body, clock.now()),
        Ledger,
    ), 201


@app.get(
    "/tournaments/<tournament_id>/prizes/payouts",
    security=SIGNED_IN,
    tags=["payments"],
    responses=errors(TournamentNotFound, NotStaff),
)
def payouts(tournament_id: TournamentId) -> PrizePayouts:
    """The prize payouts.

    Each winner's money prize (place and category together), the payouts recorded and the
    rest due, and the totals (its referees and organisers, R11.5).
    """
    from tavla.services import prizes  # the prize routes' own: the day's standings and models

    return prizes.payouts(caller(app), tournament_id)


# --- R11.4: category prizes: who is eligible (private to the organisers)
EntryTavlaId: TypeAlias = (
    """Annotated[str, params.Path(pattern=r"^[A-Za-z0-9]{7}$", description="the player's Tavla ID")]"""
)


@app.get(
    "/tournaments/<tournament_id>/prizes/eligibility",
    security=SIGNED_IN,
    tags=["payments"],
    responses=errors(TournamentNotFound, NotOrganiser),
)
def prize_eligibility(tournament_id: TournamentId) -> Eligibility:
    """Who is eligible for the category prizes.

    Each entry's categories (women, youth, veteran) and where they come from: the player's
    profile (gender, birth year, private) or the organiser's setting (R11.4). Its
    organisers only: eligibility is personal data (R12); only the award is public.
    """
    from tavla.services import prizes  # the prize routes' own: the day's standings and models

    return prizes.eligibility(caller(app), tournament_id)


@app.put(
    "/tournaments/<tournament_id>/prizes/eligibility/<tavla_id>",
    security=SIGNED_IN,
    tags=["payments"],
    responses=errors(TournamentNotFound, NotOrganiser, NotRegistered, TournamentOver),
)
def set_prize_categories(
    tournament_id: TournamentId, tavla_id: EntryTavlaId, body: EntryCategories
) -> CategoryEligibility:
    """Set an entry's prize categories.

    Its organisers set or correct the categories an entry competes in for the category
    prizes (R11.4), or clear them (null: the player's profile decides again); recorded in
    the audit trail. Refused once the tournament is finished: its prize list stands.
    """
    from tavla.services import prizes  # the prize routes' own: the day's standings and models

    return prizes.set_categories(caller(app), tournament_id, tavla_id, body, clock.now())


@app.post(
    "/tournaments/<tournament_id>/bank-statements",
    security=SIGNED_IN,
    tags=["payments"],
    responses=STATEMENT_RESPONSES,
)
def import_statement(tournament_id: TournamentId, body: StatementUpload) -> tuple[StatementImport, int]:
    """Import a bank statement.

    CSV (by a column mapping, saved for next time), MT940 or camt.053. Each credit's
    reference is searched for a check-in code (case, spaces, dashes ignored) and each line
    ends matched, unmatched, duplicate (imported before: nothing added), underpaid or
    overpaid; matched lines pay the registration (R3.3; its organisers). The payer's name
    is kept only while a line is unmatched (R12). A statement that cannot be read is
    refused at once, nothing stored. Up to 500 credit lines are imported within the
    request (200, every line listed); a larger statement is stored and imported in the
    background (202, `state` queued): follow it at `GET .../bank-statements/{statement_id}`.
    """
    from tavla.services import statements  # the bank statements' routes' own

    done = statements.import_statement(caller(app), tournament_id, body, clock.now())
    return done, 200 if done.state == "done" else 202


@app.post(
    "/tournaments/<tournament_id>/bank-statements/csv-columns",
    security=SIGNED_IN,
    tags=["payments"],
    responses=errors(TournamentNotFound, NotOrganiser, Invalid),
)
def csv_columns(tournament_id: TournamentId, body: CsvHead) -> CsvPreview:
    """Read a CSV statement's columns.

    From the file's first lines (the header first): each column with example values, the
    date formats that read all its values shown as example dates ("31/12/2026", with what
    its first value reads as, so 04/03 is told from 03/04), whether it holds amounts, the
    delimiter and decimal comma, and a suggested column per role. The organiser picks the
    mapping from these; the import takes the chosen example as `date_format` (its organisers).
    Nothing is stored.
    """
    from tavla.services import statements  # the bank statements' routes' own

    return statements.csv_columns(caller(app), tournament_id, body)


@app.get(
    "/tournaments/<tournament_id>/bank-statements/lines",
    security=SIGNED_IN,
    tags=["payments"],
    responses=errors(TournamentNotFound, NotOrganiser),
)
def statement_lines(tournament_id: TournamentId) -> StatementImport:
    """The imported statement lines.

    Unmatched ones first, with the payer's name and text for matching by hand (its
    organisers, R3.3).
    """
    from tavla.services import statements  # the bank statements' routes' own

    return statements.statement_lines(caller(app), tournament_id)


Checksum: TypeAlias = 'Annotated[str, params.Path(pattern=r"^[0-9a-f]{32}$")]'


@app.get(
    "/tournaments/<tournament_id>/bank-statements/<statement_id>",
    security=SIGNED_IN,
    tags=["payments"],
    responses=errors(TournamentNotFound, NotOrganiser, StatementNotFound),
)
def statement_progress(tournament_id: TournamentId, statement_id: StatementId) -> StatementImport:
    """A statement import's progress.

    Its organisers follow a statement imported in the background: `state` (queued,
    running, done, failed), `done` of `total` credit lines, and what became of them
    (`counts`). The lines themselves are at `GET .../bank-statements/lines`.
    """
    from tavla.services import statements  # the bank statements' routes' own

    return statements.progress(caller(app), tournament_id, statement_id)


@app.post(
    "/tournaments/<tournament_id>/bank-statements/lines/<checksum>/match",
    security=SIGNED_IN,
    tags=["payments"],
    responses=errors(
        TournamentNotFound, NotOrganiser, NoPayment, NotRegistered, RequestInProgress, IdempotencyKeyReused
    ),
)
def match_line(
    tournament_id: TournamentId, checksum: Checksum, body: ManualMatch, idempotency_key: IdempotencyKey = None
) -> Ledger:
    """Match a statement line by hand.

    An unmatched line pays the registration named; the payer's name is then removed (R3.3,
    R12; its organisers). Answers the player's ledger.
    """
    from tavla.services import statements  # the bank statements' routes' own

    who = caller(app)
    return _once(
        "match_line",
        who.sub,
        idempotency_key,
        {"tournament_id": tournament_id, "checksum": checksum, "tavla_id": body.tavla_id},
        lambda: statements.match_by_hand(who, tournament_id, checksum, body.tavla_id, clock.now()),
        Ledger,
    )


@app.put(
    "/tournaments/<tournament_id>/payments/deadline",
    security=SIGNED_IN,
    tags=["payments"],
    responses=errors(TournamentNotFound, NotOrganiser, RegistrationClosed, Invalid),
)
def payment_deadline(tournament_id: TournamentId, body: PaymentDeadline) -> PaymentDeadlineSet:
    """Set the payment deadline.

    After it, a main-list entry that still owes its fee is released to the waiting list,
    whose first player is promoted and told; unpaid players get a notice a day before. Runs
    as schedules, idempotently; `null` lifts it (its organisers, R3.2, R3.3).
    """
    from tavla.services import unpaid  # its reminders and schedules: a deadline set's own

    return unpaid.set_deadline(caller(app), tournament_id, body, clock.now())


@app.get("/me/payments", security=SIGNED_IN, tags=["payments"], responses=errors(ProfileMissing))
def my_payments() -> MyPayments:
    """My payments.

    My ledger in every tournament I entered or paid for: what is due, paid, refunded.
    """
    return payments.my_payments(caller(app), clock.now())


def _once(
    action: str, sub: str, key: str | None, request: dict[str, object], run: Callable[[], R], result: type[R]
) -> R:
    """A money write once per Idempotency-Key: a resent request answers the first answer."""
    return once(action, sub, key, request, run, result, app.lambda_context)


handler = entry(app)
