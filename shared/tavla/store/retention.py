"""What the retention purge reads and deletes (R12): contacts, notices, payers' names, audit details.

The contacts table is small (one item per player and one per phone number) and is scanned
whole. The main table is scanned once per purge, its filter keeping only the three kinds of
item that can be due; everything else stays on DynamoDB's side of the scan.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tavla.frozen import Frozen
from tavla.store import keys
from tavla.store import players as player_store
from tavla.store.dynamo import Item, batch_write, client, deserialize, table_name
from tavla.store.records import ContactsRecord
from tavla.store.schema import CONTACTS, MAIN
from tavla.store.transactions import Cancelled, Transaction

_CONTACTS_PREFIX = "CONTACTS#"


def _scan(**request: Any) -> Iterator[Item]:
    while True:
        response = client().scan(**request)
        yield from (deserialize(i) for i in response.get("Items", []))
        if "LastEvaluatedKey" not in response:
            return
        request["ExclusiveStartKey"] = response["LastEvaluatedKey"]


def every_contacts() -> Iterator[ContactsRecord]:
    """Every player's contacts item (phone claims are left out)."""
    found = _scan(
        TableName=table_name(CONTACTS),
        FilterExpression="begins_with(pk, :c)",
        ExpressionAttributeValues={":c": {"S": _CONTACTS_PREFIX}},
    )
    return (ContactsRecord.from_item(i) for i in found)


def last_entry_start(tavla_id: str) -> str | None:
    """The start of the latest tournament the player is entered in (its gsi1 sort key), if any."""
    response = client().query(
        TableName=table_name(MAIN),
        IndexName=MAIN.index("gsi1").name,
        KeyConditionExpression="gsi1pk = :p",
        ExpressionAttributeValues={":p": {"S": keys.player_pk(tavla_id)}},
        ScanIndexForward=False,
        Limit=1,
    )
    items = response.get("Items", [])
    return str(deserialize(items[0])["gsi1sk"]).split("#", 1)[0] if items else None


def created_at(tavla_id: str) -> str | None:
    found = (
        client()
        .get_item(TableName=table_name(MAIN), Key=keys.profile(tavla_id), ProjectionExpression="created_at")
        .get("Item")
    )
    return str(deserialize(found)["created_at"]) if found else None


def delete_contacts(contacts: ContactsRecord) -> bool:
    """Delete a player's contacts and phone claim, provided the phone is still the one read (a
    player who changed it meanwhile is active); False when it changed."""
    tx = Transaction()
    phone = contacts.phone
    tx.delete(
        "contacts",
        CONTACTS,
        keys.contacts(contacts.tavla_id),
        condition="attribute_not_exists(phone)" if phone is None else "phone = :phone",
        values=None if phone is None else {"phone": phone},
    )
    if phone:
        player_store.forget_claim(tx, phone, contacts.tavla_id)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.any_failed:
            return False
        raise
    return True


@dataclass(frozen=True, eq=False, repr=False)
class Due(Frozen):
    """Items of the main table the purge found due, by kind."""

    notices: list[dict[str, Any]]
    payers: list[dict[str, Any]]
    audits: list[dict[str, Any]]


def due(notified_before: str, matched_before: str, audited_before: str) -> Due:
    """One scan of the main table for the notices, matched statement lines that still name a
    payer, and audit records with details or a sign-in, older than their cut-offs."""
    notice = "(begins_with(sk, :note) AND created_at < :notified)"
    payer = (
        "(begins_with(sk, :line) AND attribute_exists(tavla_id) AND #status <> :unmatched "
        "AND imported_at < :matched AND (attribute_exists(payer) OR attribute_exists(#text)))"
    )
    audit = (
        "(begins_with(sk, :audit) AND #at < :audited "
        "AND (size(details) > :none OR attribute_exists(actor.#sub)))"
    )
    found = Due([], [], [])
    for item in _scan(
        TableName=table_name(MAIN),
        FilterExpression=f"{notice} OR {payer} OR {audit}",
        ProjectionExpression="pk, sk",
        ExpressionAttributeNames={"#status": "status", "#text": "text", "#at": "at", "#sub": "sub"},
        ExpressionAttributeValues={
            ":note": {"S": keys.NOTE_PREFIX},
            ":notified": {"S": notified_before},
            ":line": {"S": keys.BANKLINE_PREFIX},
            ":unmatched": {"S": "unmatched"},
            ":matched": {"S": matched_before},
            ":audit": {"S": keys.AUDIT_PREFIX},
            ":audited": {"S": audited_before},
            ":none": {"N": "0"},
        },
    ):
        key = {"pk": {"S": item["pk"]}, "sk": {"S": item["sk"]}}
        sort = str(item["sk"])
        kind = found.notices if sort.startswith(keys.NOTE_PREFIX) else found.payers
        (found.audits if sort.startswith(keys.AUDIT_PREFIX) else kind).append(key)
    return found


def delete_notices(notices: list[dict[str, Any]]) -> None:
    batch_write(MAIN, [], notices)


def strip_audit(key: dict[str, Any]) -> None:
    """An old audit record keeps who (role, Tavla ID) did what and when; its details and the
    sign-in that made it go."""
    client().update_item(
        TableName=table_name(MAIN),
        Key=key,
        UpdateExpression="SET details = :none REMOVE actor.#sub",
        ConditionExpression="attribute_exists(pk)",
        ExpressionAttributeNames={"#sub": "sub"},
        ExpressionAttributeValues={":none": {"M": {}}},
    )
