"""Ledger entries (R3.3-R3.5, R11.5): every money movement with its audit record, written once.

An entry's key is chosen by the caller so that the same movement always lands on the same
item: a card payment is keyed by the provider's checkout session, a bank line by its
checksum. Each is written with `attribute_not_exists`, together with its audit record (and,
for a webhook, a marker of the provider's event id) in one transaction, so a replayed or
simultaneous delivery records nothing the second time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from tavla.store import audit, keys
from tavla.store.dynamo import Item, client, deserialize, query_prefix, serialize, table_name
from tavla.store.records import AuditRecord, CheckoutRecord, LedgerEntryRecord
from tavla.store.schema import MAIN
from tavla.store.transactions import Cancelled, Transaction

_NEW = "attribute_not_exists(pk)"


class AlreadyRecorded(Exception):
    """The movement (or the provider event announcing it) is in the ledger already."""


def ledger_item(entry: LedgerEntryRecord) -> Item:
    """A ledger entry as an item, its keys and its gsi1 keys (a payer's entries) added."""
    key = keys.plain(keys.ledger_entry(entry.tournament_id, entry.tavla_id, entry.id))
    item = {**key, **entry.to_item(), "flags": list(entry.flags)}
    item["gsi1pk"] = keys.payer_pk(entry.tavla_id)
    item["gsi1sk"] = f"{entry.tournament_id}#{entry.id}"
    return item


def _from_item(item: Item) -> LedgerEntryRecord:
    record = LedgerEntryRecord.from_item(item)
    return replace(record, flags=tuple(item.get("flags") or ()))


def add(
    entry: LedgerEntryRecord,
    changes: Sequence[AuditRecord],
    *,
    provider_event: tuple[str, str] | None = None,
    follow: Sequence[LedgerEntryRecord] = (),
    not_cancelled: bool = False,
) -> None:
    """Record one movement and its audit records (and `follow`: the refund of its surplus);
    AlreadyRecorded if it (or its event) is there. `not_cancelled`: only while the tournament
    is not cancelled (TournamentWasCancelled otherwise: the caller refunds it instead), so a
    payment and a cancellation's refunds never miss each other."""
    tx = Transaction()
    if not_cancelled:
        tx.check(
            "tournament",
            MAIN,
            keys.tournament(entry.tournament_id),
            "#status <> :cancelled",
            names={"#status": "status"},
            values={"cancelled": "cancelled"},
        )
    put_entry(tx, entry, name="entry")
    for other in follow:
        put_entry(tx, other)
    if provider_event is not None:
        provider, event_id = provider_event
        marker = keys.plain(keys.provider_event(entry.tournament_id, provider, event_id))
        tx.put(
            "event",
            MAIN,
            {**marker, "entry": entry.id, "tavla_id": entry.tavla_id, "at": entry.recorded_at},
            condition=_NEW,
        )
    for change in changes:
        audit.record(tx, entry.tournament_id, change)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("entry") or cancelled.failed("event"):
            raise AlreadyRecorded(entry.id) from cancelled
        if cancelled.failed("tournament"):
            raise TournamentWasCancelled(entry.tournament_id) from cancelled
        raise


class TournamentWasCancelled(Exception):
    """The tournament was cancelled after it was read: the payment is to be refunded."""


class OverPaid(Exception):
    """A payout would pay a winner more than their prize (another payout came first)."""


def add_payout(entry: LedgerEntryRecord, change: AuditRecord, *, won: int, paid_before: int) -> None:
    """Record a prize payout (R11.5) and raise the winner's paid-out total in one transaction,
    on condition that the total stays within `won`: two payouts at once cannot together pay
    more than the prize. `paid_before` (from the ledger) seeds the total the first time.
    OverPaid when the prize would be exceeded; AlreadyRecorded when the entry is there."""
    tx = Transaction()
    put_entry(tx, entry, name="entry")
    tx.update(
        "paid_out",
        MAIN,
        keys.paid_out(entry.tournament_id, entry.tavla_id),
        "SET paid = if_not_exists(paid, :before) + :amount",
        condition="attribute_not_exists(paid) OR paid <= :room",
        values={"before": paid_before, "amount": entry.amount, "room": won - entry.amount},
    )
    audit.record(tx, entry.tournament_id, change)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("paid_out"):
            raise OverPaid(entry.tavla_id) from cancelled
        if cancelled.failed("entry"):
            raise AlreadyRecorded(entry.id) from cancelled
        raise


def add_checkout(checkout: CheckoutRecord) -> None:
    """A checkout the platform started, so that its webhook can be checked against it."""
    item = {**keys.plain(keys.checkout(checkout.provider, checkout.session_id)), **checkout.to_item()}
    client().put_item(TableName=table_name(MAIN), Item=serialize(item))


def checkout(provider: str, session_id: str) -> CheckoutRecord | None:
    """The checkout the platform started with this session id, or None."""
    found = (
        client()
        .get_item(TableName=table_name(MAIN), Key=keys.checkout(provider, session_id), ConsistentRead=True)
        .get("Item")
    )
    return CheckoutRecord.from_item(deserialize(found)) if found else None


def put_entry(tx: Transaction, entry: LedgerEntryRecord, name: str | None = None) -> None:
    """One new movement as an item of `tx` (a refund written with the withdrawal it follows)."""
    tx.put(name or f"entry {entry.id}", MAIN, ledger_item(entry), condition=_NEW)


def put_withdrawn(tx: Transaction, tournament_id: str, tavla_id: str, at: str) -> None:
    """Mark an entry withdrawn, in the withdrawal's transaction (its ledger stays listed)."""
    item = {**keys.plain(keys.withdrawn(tournament_id, tavla_id)), "tavla_id": tavla_id, "at": at}
    tx.put(f"withdrawn {tavla_id}", MAIN, item)


def withdrawn(tournament_id: str) -> set[str]:
    """The players whose entry in the tournament was withdrawn (they may have entered again)."""
    items = query_prefix(
        MAIN,
        keys.tournament_pk(tournament_id),
        keys.WITHDRAWN_PREFIX,
        ProjectionExpression="tavla_id",
        ConsistentRead=True,
    )
    return {str(i["tavla_id"]) for i in items}


def _query(request: dict[str, Any]) -> list[LedgerEntryRecord]:
    found: list[LedgerEntryRecord] = []
    while True:
        response = client().query(**request)
        found.extend(_from_item(deserialize(i)) for i in response.get("Items", []))
        if "LastEvaluatedKey" not in response:
            return sorted(found, key=lambda e: (e.recorded_at, e.id))
        request["ExclusiveStartKey"] = response["LastEvaluatedKey"]


def entries(tournament_id: str, tavla_id: str | None = None) -> list[LedgerEntryRecord]:
    """A tournament's ledger entries (or one player's there), oldest first, strongly consistent."""
    return _query(
        {
            "TableName": table_name(MAIN),
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :ledger)",
            "ExpressionAttributeValues": {
                ":pk": {"S": keys.tournament_pk(tournament_id)},
                ":ledger": {"S": keys.ledger_prefix(tavla_id)},
            },
            "ConsistentRead": True,
        }
    )


def of_payer(tavla_id: str) -> list[LedgerEntryRecord]:
    """A player's ledger entries in every tournament (gsi1), oldest first."""
    return _query(
        {
            "TableName": table_name(MAIN),
            "IndexName": MAIN.index("gsi1").name,
            "KeyConditionExpression": "gsi1pk = :payer",
            "ExpressionAttributeValues": {":payer": {"S": keys.payer_pk(tavla_id)}},
        }
    )


def settle(entry: LedgerEntryRecord, receipt: str | None, change: AuditRecord) -> bool:
    """Mark a refund (or payout) that was due as done, with its receipt (the provider's refund
    id, a bank transfer's reference); False when it was done already."""
    tx = Transaction()
    tx.update(
        "entry",
        MAIN,
        keys.ledger_entry(entry.tournament_id, entry.tavla_id, entry.id),
        "SET #status = :done, receipt = :receipt",
        condition="#status = :due",
        names={"#status": "status"},
        values={"done": "done", "due": "due", "receipt": receipt or "-"},
    )
    audit.record(tx, entry.tournament_id, change)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("entry"):
            return False
        raise
    return True


def set_payment_deadline(tournament_id: str, at: str | None) -> None:
    """The tournament's payment deadline (a setting), while it is open."""
    expression = "SET payment_deadline = :at" if at else "REMOVE payment_deadline"
    values: dict[str, Any] = {":open": {"S": "open"}}
    if at:
        values[":at"] = {"S": at}
    client().update_item(
        TableName=table_name(MAIN),
        Key=keys.tournament(tournament_id),
        UpdateExpression=expression,
        ConditionExpression="#status = :open",
        ExpressionAttributeNames={"#status": "status"},
        ExpressionAttributeValues=values,
    )
