"""Bank statement lines (R3.3): each stored once by its checksum, with the ledger entry it
pays and its audit record in the same transaction; a manual match removes the payer's name."""

from __future__ import annotations

from collections.abc import Sequence

from tavla.store import audit, keys, outbox
from tavla.store.dynamo import Item, client, deserialize, query_prefix, table_name, values
from tavla.store.payments import ledger_item, put_entry
from tavla.store.records import AuditRecord, BankLineRecord, LedgerEntryRecord, StatementRecord
from tavla.store.schema import MAIN
from tavla.store.transactions import Cancelled, Transaction

_NEW = "attribute_not_exists(pk)"


class AlreadyImported(Exception):
    """The line is stored already; `stored` is it as stored (when DynamoDB said)."""

    def __init__(self, checksum: str, stored: BankLineRecord | None = None) -> None:
        super().__init__(checksum)
        self.stored = stored


class NotUnmatched(Exception):
    pass


def add_line(
    line: BankLineRecord,
    entry: LedgerEntryRecord | None,
    changes: list[AuditRecord],
    follow: Sequence[LedgerEntryRecord] = (),
) -> None:
    """Store a line (and the payment it makes, and `follow`: the refund of its surplus);
    AlreadyImported when its checksum is there."""
    tx = Transaction()
    tx.put(
        "line",
        MAIN,
        {**keys.plain(keys.bank_line(line.tournament_id, line.checksum)), **line.to_item()},
        condition=_NEW,
        return_old=True,
    )
    if entry is not None:
        tx.put("entry", MAIN, ledger_item(entry), condition=_NEW)
    for other in follow:
        put_entry(tx, other)
    for change in changes:
        audit.record(tx, line.tournament_id, change)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("line") or cancelled.failed("entry"):
            old = cancelled.old("line")
            raise AlreadyImported(
                line.checksum, BankLineRecord.from_item(old) if old else None
            ) from cancelled
        raise


def match_line(
    line: BankLineRecord,
    status: str,
    entry: LedgerEntryRecord,
    changes: Sequence[AuditRecord],
    follow: Sequence[LedgerEntryRecord] = (),
) -> None:
    """A person matched an unmatched line: it pays `entry`; the payer's name and text go (R12)."""
    tx = Transaction()
    tx.update(
        "line",
        MAIN,
        keys.bank_line(line.tournament_id, line.checksum),
        "SET #status = :status, tavla_id = :tavla_id REMOVE payer, #text",
        condition="#status = :unmatched",
        names={"#status": "status", "#text": "text"},
        values={"status": status, "tavla_id": entry.tavla_id, "unmatched": "unmatched"},
    )
    tx.put("entry", MAIN, ledger_item(entry), condition=_NEW)
    for other in follow:
        put_entry(tx, other)
    for change in changes:
        audit.record(tx, line.tournament_id, change)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.any_failed:
            raise NotUnmatched(line.checksum) from cancelled
        raise


def lines(tournament_id: str) -> list[BankLineRecord]:
    items = query_prefix(MAIN, keys.tournament_pk(tournament_id), keys.BANKLINE_PREFIX, ConsistentRead=True)
    found = [BankLineRecord.from_item(i) for i in items]
    return sorted(found, key=lambda r: (r.value_date, r.imported_at, r.checksum))


def save_mapping(sub: str, mapping: Item) -> None:
    client().put_item(
        TableName=table_name(MAIN),
        Item={**{k: v for k, v in keys.statement_mapping(sub).items()}, "mapping": {"S": _json(mapping)}},
    )


def mapping(sub: str) -> Item | None:
    import json

    found = client().get_item(TableName=table_name(MAIN), Key=keys.statement_mapping(sub)).get("Item")
    return dict(json.loads(found["mapping"]["S"])) if found else None


def _json(value: Item) -> str:
    import json

    return json.dumps(value, sort_keys=True)


def add_unmatched(lines: Sequence[BankLineRecord]) -> dict[str, BankLineRecord]:
    """Store lines that pay nothing, up to a transaction's worth at once (a large statement is
    mostly other money: one write per hundred lines, not one per line). Each is new or left
    as it is: returns the lines that were there already, as stored, by checksum."""
    there: dict[str, BankLineRecord] = {}
    pending = list(lines)
    while pending:
        tx = Transaction()
        for line in pending:
            tx.put(
                line.checksum,
                MAIN,
                {**keys.plain(keys.bank_line(line.tournament_id, line.checksum)), **line.to_item()},
                condition=_NEW,
                return_old=True,
            )
        try:
            tx.run()
            return there
        except Cancelled as cancelled:
            if not cancelled.any_failed:
                raise
            for line in pending:
                if cancelled.failed(line.checksum):
                    old = cancelled.old(line.checksum)
                    there[line.checksum] = BankLineRecord.from_item(old) if old else line
            pending = [line for line in pending if line.checksum not in there]
    return there


# --- a statement's import


def start_statement(statement: StatementRecord, events: Sequence[outbox.Event] = ()) -> None:
    """The import's record, with the event that starts its job (queued ones)."""
    tx = Transaction()
    tx.put(
        "statement",
        MAIN,
        {**keys.plain(keys.statement(statement.tournament_id, statement.id)), **statement.to_item()},
        condition=_NEW,
    )
    outbox.add(tx, events)
    tx.run()


def statement(tournament_id: str, statement_id: str) -> StatementRecord | None:
    key = keys.statement(tournament_id, statement_id)
    found = client().get_item(TableName=table_name(MAIN), Key=key, ConsistentRead=True).get("Item")
    return StatementRecord.from_item(deserialize(found)) if found else None


def progress(
    tournament_id: str, statement_id: str, state: str, done: int, counts: dict[str, int], **more: str
) -> None:
    """Where the import stands: lines done and what became of them (the organiser polls it)."""
    sets = ", ".join(f"#{k} = :{k}" for k in ("state", "done", "counts", *more))
    names = {f"#{k}": k for k in ("state", "done", "counts", *more)}
    client().update_item(
        TableName=table_name(MAIN),
        Key=keys.statement(tournament_id, statement_id),
        UpdateExpression=f"SET {sets}",
        ConditionExpression="attribute_exists(pk)",
        ExpressionAttributeNames=names,
        ExpressionAttributeValues=values(state=state, done=done, counts=counts, **more),
    )
