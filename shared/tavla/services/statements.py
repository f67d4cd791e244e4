"""Bank statements (R3.3), the way pretix treats bank transfers: the organiser uploads the
statement, each credit's reference is searched for a check-in code, and each line ends as
matched / unmatched / duplicate / underpaid / overpaid. A line is stored once by its
identity (the bank's transaction id, else a checksum: tavla.rules.bank), so a statement
imported twice, or a transaction listed twice, adds nothing; a matched line pays the
registration in the same transaction, judged against the fee due on its value date (the
one price, payments.fee_of); a surplus is a refund due, written with it; the payer's name
is kept only while a line is unmatched (R12)."""

from __future__ import annotations

import uuid
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from datetime import date, datetime
from typing import Any

from tavla import events, statement_files
from tavla.caller import Caller
from tavla.errors import Invalid, NoPayment, NotRegistered, StatementNotFound
from tavla.models.common import Money
from tavla.models.payments import CsvHead, Ledger, StatementImport, StatementLineView, StatementUpload
from tavla.rules.bank import StatementLine, checksums, classify, find_code
from tavla.services import payments
from tavla.services.access import require_organiser
from tavla.statements import CsvMapping, CsvPreview, parse_camt053, parse_csv, parse_mt940, preview_csv
from tavla.store import bank as bank_store
from tavla.store import outbox
from tavla.store import registrations as registration_store
from tavla.store.records import (
    Actor,
    BankLineRecord,
    LedgerEntryRecord,
    RegistrationRecord,
    StatementRecord,
    TournamentRecord,
)

EUR = "EUR"


SYNC_LINES = 500  # credit lines imported within the request; a larger statement is queued
CHUNK = 100  # unmatched lines written at once (one transaction's worth)
PROGRESS_EVERY = 1_000  # lines between two progress writes of a background import
WRITERS = 4  # the job's batches of unmatched lines in flight at once


def _mapping(caller: Caller, body: StatementUpload) -> CsvMapping | None:
    """A CSV's mapping: the one sent (saved for next time), else the one saved last time."""
    if body.format != "csv":
        return None
    if body.mapping is not None:
        return body.mapping
    saved = bank_store.mapping(caller.sub)
    if saved is None:
        raise Invalid("mapping: say which CSV column holds the date, amount and reference (it is saved).")
    return CsvMapping.model_validate(saved)


def _credits(body: StatementUpload, mapping: CsvMapping | None) -> list[StatementLine]:
    """The statement's credits in EUR (what can pay an entry fee), in the statement's order."""
    if body.format == "mt940":
        lines = parse_mt940(body.content)
    elif body.format == "camt053":
        lines = parse_camt053(body.content)
    else:
        assert mapping is not None
        lines = parse_csv(body.content, mapping)
    return [line for line in lines if line.amount > 0 and line.currency.upper() == EUR]


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
    """Read the statement (a bad one is refused now, nothing stored); import a small one at
    once, queue a large one for the background job (the request never races its timeout)."""
    tournament = payments.tournament_or_404(tournament_id)
    organiser = require_organiser(tournament, caller)
    mapping = _mapping(caller, body)
    credits = _credits(body, mapping)
    if body.mapping is not None:
        bank_store.save_mapping(caller.sub, body.mapping.model_dump())
    statement = StatementRecord(
        tournament_id=tournament_id,
        id=uuid.uuid4().hex,
        format=body.format,
        state="running",
        total=len(credits),
        done=0,
        counts={},
        created_at=now.isoformat(),
        by_role=organiser.role,
        by_tavla_id=organiser.tavla_id,
        by_sub=organiser.sub,
    )
    if len(credits) > SYNC_LINES:
        upload = body.model_copy(update={"mapping": mapping})
        statement_files.put(
            statement_files.key(tournament_id, statement.id), upload.model_dump_json().encode()
        )
        queued = replace(statement, state="queued")
        started = outbox.Event(
            events.STATEMENT_UPLOADED, {"tournament_id": tournament_id, "statement_id": statement.id}
        )
        bank_store.start_statement(queued, [started])
        return _shown(queued)
    bank_store.start_statement(statement)
    views = list(_import_lines(tournament, organiser, statement, credits, body.account or "", now))
    done = _counted(views)
    bank_store.progress(
        tournament_id, statement.id, "done", len(views), done.counts, finished_at=now.isoformat()
    )
    return done.model_copy(update={"statement_id": statement.id, "state": "done", "total": len(credits)})


def run_import(tournament_id: str, statement_id: str, now: datetime) -> dict[str, Any]:
    """The background job: import a queued statement from the statement store, its progress
    written every thousand lines. Delivered at least once: a job run again after a failure
    goes on from the progress written (a line it stored before counts as it was stored)."""
    statement = bank_store.statement(tournament_id, statement_id)
    if statement is None or statement.state in ("done", "failed"):
        return {"outcome": "ignored"}
    tournament = payments.tournament_or_404(tournament_id)
    name = statement_files.key(tournament_id, statement_id)
    upload = StatementUpload.model_validate_json(statement_files.get(name))
    credits = _credits(upload, upload.mapping)
    organiser = Actor(role=statement.by_role, tavla_id=statement.by_tavla_id, sub=statement.by_sub)
    counts, done = dict(statement.counts), statement.done
    bank_store.progress(tournament_id, statement_id, "running", done, counts)
    lines = _import_lines(tournament, organiser, statement, credits, upload.account or "", now, done, WRITERS)
    for view in lines:
        counts[view.status] = counts.get(view.status, 0) + 1
        done += 1
        if done % PROGRESS_EVERY == 0:
            bank_store.progress(tournament_id, statement_id, "running", done, counts)
    bank_store.progress(tournament_id, statement_id, "done", done, counts, finished_at=now.isoformat())
    statement_files.delete(name)
    return {"outcome": "imported", "lines": done, "counts": counts}


def progress(caller: Caller, tournament_id: str, statement_id: str) -> StatementImport:
    """Where an import stands (its organisers): lines done of the total, what became of them."""
    require_organiser(payments.tournament_or_404(tournament_id), caller)
    statement = bank_store.statement(tournament_id, statement_id)
    if statement is None:
        raise StatementNotFound(f"No statement import {statement_id} in this tournament.")
    return _shown(statement)


def _shown(statement: StatementRecord) -> StatementImport:
    return StatementImport(
        lines=[],
        counts=dict(statement.counts),
        statement_id=statement.id,
        state=statement.state,
        total=statement.total,
        done=statement.done,
    )


Views = list[StatementLineView]


def _import_lines(
    tournament: TournamentRecord,
    organiser: Actor,
    statement: StatementRecord,
    credits: Sequence[StatementLine],
    account: str,
    now: datetime,
    start: int = 0,
    writers: int = 1,
) -> Iterator[StatementLineView]:
    """The one matching: each credit from `start` on, as it ends, in the statement's order
    (so that lines done is a prefix a resumed job skips). A line with a check-in code pays
    its registration in a transaction of its own, judged against the registration's ledger
    read then; the others, most of a club's statement, are stored a hundred at a time, by
    up to `writers` transactions at once (the job; a request writes one at a time). A line
    stored before is a duplicate, unless this import stored it."""
    registrations = {r.checkin_code: r for r in registration_store.all_entries(tournament.id)}
    identities = checksums(credits, account)
    seen = set(identities[:start])
    ahead: deque[Future[Views] | Views] = deque()
    waiting: list[BankLineRecord] = []
    pool = ThreadPoolExecutor(max_workers=writers) if writers > 1 else None

    def flush() -> None:
        batch = list(waiting)
        waiting.clear()
        if pool is None:
            ahead.append(list(_store_unmatched(statement.id, batch)))
        else:
            ahead.append(pool.submit(lambda: list(_store_unmatched(statement.id, batch))))

    try:
        for line, checksum in zip(credits[start:], identities[start:], strict=True):
            record = _record(tournament.id, statement.id, line, checksum, registrations, now)
            if checksum in seen:  # the bank listed one transaction twice in this statement
                ahead.append([_view(record, "duplicate")])
            elif record.code is None:
                seen.add(checksum)
                waiting.append(record)
                if len(waiting) == CHUNK:
                    flush()
            else:
                seen.add(checksum)
                if waiting:
                    flush()
                ahead.append([_store_matched(tournament, organiser, statement.id, line, record, now)])
            yield from _ready(ahead, writers)
        if waiting:
            flush()
        yield from _ready(ahead, 0)
    finally:
        if pool is not None:
            pool.shutdown(wait=True)


def _ready(ahead: deque[Future[Views] | Views], writers: int) -> Iterator[StatementLineView]:
    """The views at the head that are done, in order. A batch still being written holds the
    rest back; it is waited for while `writers` batches are in flight (0: always)."""
    while ahead:
        head = ahead[0]
        if isinstance(head, Future) and not head.done():
            in_flight = sum(1 for f in ahead if isinstance(f, Future) and not f.done())
            if writers and in_flight < writers:
                return
        ahead.popleft()
        yield from head.result() if isinstance(head, Future) else head


def _record(
    tournament_id: str,
    statement_id: str,
    line: StatementLine,
    checksum: str,
    registrations: dict[str, RegistrationRecord],
    now: datetime,
) -> BankLineRecord:
    code = find_code(line.reference, set(registrations))
    return BankLineRecord(
        tournament_id=tournament_id,
        checksum=checksum,
        value_date=line.value_date.isoformat(),
        amount=line.amount,
        currency=EUR,
        status="unmatched",
        imported_at=now.isoformat(),
        tavla_id=registrations[code].tavla_id if code else None,
        code=code,
        text=None if code else line.reference[:500],
        payer=None if code else (line.payer or "")[:200] or None,  # kept only until matched (R12)
        bank_ref=line.bank_ref,
        statement=statement_id,
    )


def _store_unmatched(statement_id: str, records: Sequence[BankLineRecord]) -> Iterator[StatementLineView]:
    there = bank_store.add_unmatched(records)
    for record in records:
        stored = there.get(record.checksum)
        if stored is None:
            yield _view(record, "unmatched")
        else:
            yield _view(stored, stored.status if stored.statement == statement_id else "duplicate")


def _store_matched(
    tournament: TournamentRecord,
    organiser: Actor,
    statement_id: str,
    line: StatementLine,
    record: BankLineRecord,
    now: datetime,
) -> StatementLineView:
    tavla_id = record.tavla_id
    assert tavla_id is not None
    owed = _outstanding(tournament, tavla_id, line.value_date)
    status = classify(line.amount, owed)
    record = replace(record, status=status)
    flags = [status] if status in ("underpaid", "overpaid") else []
    entry = _payment(record, tavla_id, record.code, organiser, flags)
    refund = payments.surplus_refund(tournament, entry, organiser, now, owed)
    changes = [payments.audited(organiser, entry, now, line=record.checksum)]
    changes += [payments.audited(organiser, r, now, status="due", surplus_of=entry.id) for r in refund]
    try:
        bank_store.add_line(record, entry, changes, refund)
    except bank_store.AlreadyImported as there:
        stored = there.stored
        if stored is not None and stored.statement == statement_id:
            return _view(stored, stored.status)
        return _view(record, "duplicate")
    return _view(record, status, owed - line.amount)


def _counted(views: list[StatementLineView]) -> StatementImport:
    counts: dict[str, int] = {}
    for v in views:
        counts[v.status] = counts.get(v.status, 0) + 1
    return StatementImport(lines=views, counts=counts, total=len(views), done=len(views))


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
