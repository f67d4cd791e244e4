"""Bank statement lines (R3.3): each stored once by its checksum, with the ledger entry it
pays and its audit record in the same transaction; a manual match removes the payer's name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tavla.store import audit, keys
from tavla.store.dynamo import Item, client, deserialize, table_name
from tavla.store.payments import ledger_item, put_entry
from tavla.store.records import AuditRecord, BankLineRecord, LedgerEntryRecord
from tavla.store.schema import MAIN
from tavla.store.transactions import Cancelled, Transaction

_NEW = "attribute_not_exists(pk)"


class AlreadyImported(Exception):
    pass


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
            raise AlreadyImported(line.checksum) from cancelled
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
    request: dict[str, Any] = {
        "TableName": table_name(MAIN),
        "KeyConditionExpression": "pk = :pk AND begins_with(sk, :line)",
        "ExpressionAttributeValues": {
            ":pk": {"S": keys.tournament_pk(tournament_id)},
            ":line": {"S": keys.BANKLINE_PREFIX},
        },
        "ConsistentRead": True,
    }
    found: list[BankLineRecord] = []
    while True:
        response = client().query(**request)
        found.extend(BankLineRecord.from_item(deserialize(i)) for i in response.get("Items", []))
        if "LastEvaluatedKey" not in response:
            return sorted(found, key=lambda r: (r.value_date, r.imported_at, r.checksum))
        request["ExclusiveStartKey"] = response["LastEvaluatedKey"]


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
