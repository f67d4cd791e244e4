"""Bank statements (R3.3), the way pretix treats bank transfers: the organiser uploads the
statement, each credit's reference is searched for a check-in code, and each line ends as
matched / unmatched / duplicate / underpaid / overpaid. A line is stored once by its
identity (the bank's transaction id, else a checksum: tavla.rules.bank), so a statement
imported twice, or a transaction listed twice, adds nothing; a matched line pays the
registration in the same transaction, judged against the fee due on its value date (the
one price, payments.fee_of); a surplus is a refund due, written with it; the payer's name
is kept only while a line is unmatched (R12)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from tavla.caller import Caller
from tavla.errors import Invalid, NoPayment, NotRegistered
from tavla.models.common import Money
from tavla.models.payments import CsvHead, Ledger, StatementImport, StatementLineView, StatementUpload
from tavla.rules.bank import StatementLine, checksums, classify, find_code
from tavla.services import payments
from tavla.services.access import require_organiser
from tavla.statements import CsvMapping, CsvPreview, parse_camt053, parse_csv, parse_mt940, preview_csv
from tavla.store import bank as bank_store
from tavla.store import registrations as registration_store
from tavla.store.records import Actor, BankLineRecord, LedgerEntryRecord, TournamentRecord

EUR = "EUR"


def _read(caller: Caller, body: StatementUpload) -> list[StatementLine]:
    if body.format == "mt940":
        return parse_mt940(body.content)
    if body.format == "camt053":
        return parse_camt053(body.content)
    mapping = body.mapping
    if mapping is None:
        saved = bank_store.mapping(caller.sub)
        if saved is None:
            raise Invalid("mapping: say which CSV column holds the date, amount and reference (it is saved).")
        mapping = CsvMapping.model_validate(saved)
    lines = parse_csv(body.content, mapping)
    if body.mapping is not None:
        bank_store.save_mapping(caller.sub, body.mapping.model_dump())
    return lines


def _payment(
    line: BankLineRecord, tavla_id: str, code: str | None, actor: Actor, flags: Sequence[str]
) -> LedgerEntryRecord:
    """The payment a line makes, linked back to it."""
    return LedgerEntryRecord(
        id=f"bank.{line.checksum}",
        tournament_id=line.tournament_id,
        tavla_id=tavla_id,
        kind=payments.PAYMENT,
        method="bank_transfer",
        amount=line.amount,
        value_date=line.value_date,
        recorded_by=actor.tavla_id or actor.role,
        recorded_at=line.imported_at,
        reference=code,
        flags=tuple(flags),
        statement_line=line.checksum,
    )


def import_statement(
    caller: Caller, tournament_id: str, body: StatementUpload, now: datetime
) -> StatementImport:
    tournament = payments.tournament_or_404(tournament_id)
    organiser = require_organiser(tournament, caller)
    credits = [line for line in _read(caller, body) if line.amount > 0 and line.currency.upper() == EUR]
    registrations = {r.checkin_code: r for r in registration_store.all_entries(tournament_id)}
    views = []
    for line, checksum in zip(credits, checksums(credits, body.account or ""), strict=True):
        code = find_code(line.reference, set(registrations))
        owed = _outstanding(tournament, registrations[code].tavla_id, line.value_date) if code else 0
        status = classify(line.amount, owed) if code else "unmatched"
        record = BankLineRecord(
            tournament_id=tournament_id,
            checksum=checksum,
            value_date=line.value_date.isoformat(),
            amount=line.amount,
            currency=EUR,
            status=status,
            imported_at=now.isoformat(),
            tavla_id=registrations[code].tavla_id if code else None,
            code=code,
            text=None if code else line.reference[:500],
            payer=None if code else (line.payer or "")[:200] or None,  # kept only until matched (R12)
            bank_ref=line.bank_ref,
        )
        entry, changes, refund = None, [], []
        if code:
            flags = [status] if status in ("underpaid", "overpaid") else []
            entry = _payment(record, registrations[code].tavla_id, code, organiser, flags)
            refund = payments.surplus_refund(tournament, entry, organiser, now)
            changes = [payments.audited(organiser, entry, now, line=checksum)]
            changes += [
                payments.audited(organiser, r, now, status="due", surplus_of=entry.id) for r in refund
            ]
        try:
            bank_store.add_line(record, entry, changes, refund)
        except bank_store.AlreadyImported:
            views.append(_view(record, "duplicate"))
            continue
        views.append(_view(record, status, owed - line.amount))
    return _counted(views)


def _counted(views: list[StatementLineView]) -> StatementImport:
    counts: dict[str, int] = {}
    for v in views:
        counts[v.status] = counts.get(v.status, 0) + 1
    return StatementImport(lines=views, counts=counts)


def _outstanding(tournament: TournamentRecord, tavla_id: str, on: date | datetime) -> int:
    """What the registration owes, before a line valued `on`, at the price of that day."""
    return payments.player_ledger(tournament, tavla_id, on).outstanding.amount


def _value_date(text: str) -> date | datetime:
    return datetime.fromisoformat(text) if "T" in text else date.fromisoformat(text)


def _view(line: BankLineRecord, status: str, left: int = 0) -> StatementLineView:
    return StatementLineView(
        checksum=line.checksum,
        value_date=line.value_date,
        amount=Money(amount=line.amount),
        status=status,
        tavla_id=line.tavla_id,
        reference=line.code or line.text,
        payer=line.payer if status == "unmatched" else None,
        owed=Money(amount=left) if status == "underpaid" and left > 0 else None,
    )


def statement_lines(caller: Caller, tournament_id: str) -> StatementImport:
    """Every imported line (unmatched ones first), for the organiser to match by hand."""
    tournament = payments.tournament_or_404(tournament_id)
    require_organiser(tournament, caller)
    found = sorted(bank_store.lines(tournament_id), key=lambda r: (r.status != "unmatched", r.value_date))
    views = [_view(r, r.status) for r in found]
    return _counted(views)


def match_by_hand(caller: Caller, tournament_id: str, checksum: str, tavla_id: str, now: datetime) -> Ledger:
    """The organiser matches an unmatched line to a registration: it pays it; the payer's name goes."""
    tournament = payments.tournament_or_404(tournament_id)
    organiser = require_organiser(tournament, caller)
    line = next((r for r in bank_store.lines(tournament_id) if r.checksum == checksum), None)
    if line is None or line.status != "unmatched":
        raise NoPayment(f"No unmatched statement line {checksum} in this tournament.")
    registration = next(
        (r for r in registration_store.all_entries(tournament_id) if r.tavla_id == tavla_id), None
    )
    if registration is None:
        raise NotRegistered(f"{tavla_id} has no entry in this tournament.")
    status = classify(line.amount, _outstanding(tournament, tavla_id, _value_date(line.value_date)))
    flags = [status, "matched_by_hand"] if status != "matched" else ["matched_by_hand"]
    entry = _payment(line, tavla_id, registration.checkin_code, organiser, flags)
    refund = payments.surplus_refund(tournament, entry, organiser, now)
    changes = [payments.audited(organiser, entry, now, line=checksum, by_hand=True)]
    changes += [payments.audited(organiser, r, now, status="due", surplus_of=entry.id) for r in refund]
    try:
        bank_store.match_line(line, status, entry, changes, refund)
    except bank_store.NotUnmatched as error:
        raise NoPayment(f"No unmatched statement line {checksum} in this tournament.") from error
    return payments.player_ledger(tournament, tavla_id, now)


def csv_columns(caller: Caller, tournament_id: str, body: CsvHead) -> CsvPreview:
    """The columns of an uploaded CSV with example values and the date formats that read them,
    shown as example dates (its organisers): the organiser picks the mapping from the file."""
    require_organiser(payments.tournament_or_404(tournament_id), caller)
    return preview_csv(body.content)
