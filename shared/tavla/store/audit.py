"""Audit records (who did what, when) written inside the transaction of the change itself."""

from __future__ import annotations

import base64
import json
import uuid
from typing import Any

from tavla.errors import InvalidCursor
from tavla.rules.model import audit_entry
from tavla.store import keys
from tavla.store.dynamo import client, deserialize, table_name
from tavla.store.records import Actor, AuditRecord
from tavla.store.schema import MAIN
from tavla.store.transactions import Transaction

entry = audit_entry  # an audit record to write with a change (the day's model builds them)


def record(tx: Transaction, tournament_id: str, audit: AuditRecord) -> None:
    """Add one audit record of a tournament to the transaction that makes the change."""
    _put(tx, keys.tournament_pk(tournament_id), audit)


def record_federation(tx: Transaction, audit: AuditRecord) -> None:
    """Add one audit record of the federation's own acts (roles, clubs, erasures) to the change."""
    _put(tx, keys.FEDERATION_AUDIT, audit)


def _put(tx: Transaction, pk: str, audit: AuditRecord) -> None:
    unique = uuid.uuid4().hex[:12]
    item = {
        "pk": pk,
        # records written together share `at`: their place in the transaction keeps their order
        "sk": f"{keys.AUDIT_PREFIX}{audit.at}#{len(tx):03d}{unique}",
        "actor": {k: v for k, v in vars(audit.actor).items() if v is not None},
        "action": audit.action,
        "at": audit.at,
        "details": dict(audit.details),
    }
    tx.put(f"audit {unique}", MAIN, item)


_STALE = "This page cursor is out of date or not from this audit trail: start again from the first page."


def _cursor(tournament_id: str, sort_key: str) -> str:
    """An opaque page cursor: the trail it belongs to and the last record's sort key."""
    payload = json.dumps({"t": tournament_id, "k": sort_key}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(payload).decode().rstrip("=")


def _start_key(tournament_id: str, cursor: str) -> dict[str, Any]:
    """The ExclusiveStartKey a cursor stands for; InvalidCursor unless this trail handed it out."""
    try:
        payload = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        sort_key = payload["k"] if payload["t"] == tournament_id else None
    except (ValueError, TypeError, KeyError) as error:
        raise InvalidCursor(_STALE) from error
    if not isinstance(sort_key, str) or not sort_key.startswith(keys.AUDIT_PREFIX):
        raise InvalidCursor(_STALE)
    return {"pk": {"S": keys.tournament_pk(tournament_id)}, "sk": {"S": sort_key}}


def records(tournament_id: str, limit: int, after: str | None = None) -> tuple[list[AuditRecord], str | None]:
    """A page of a tournament's audit trail, newest first, and the cursor of the next page
    (None on the last); `after` is the cursor the previous page returned."""
    query: dict[str, Any] = {
        "TableName": table_name(MAIN),
        "KeyConditionExpression": "pk = :pk AND begins_with(sk, :audit)",
        "ExpressionAttributeValues": {
            ":pk": {"S": keys.tournament_pk(tournament_id)},
            ":audit": {"S": keys.AUDIT_PREFIX},
        },
        "ScanIndexForward": False,
        "Limit": limit,
    }
    if after:
        query["ExclusiveStartKey"] = _start_key(tournament_id, after)
    response = client().query(**query)
    found = [_from_item(deserialize(i)) for i in response.get("Items", [])]
    last = response.get("LastEvaluatedKey")
    return found, (_cursor(tournament_id, last["sk"]["S"]) if last else None)


def _from_item(item: dict[str, Any]) -> AuditRecord:
    return AuditRecord(
        at=item["at"], action=item["action"], actor=Actor(**item["actor"]), details=item.get("details") or {}
    )


def every_record(tournament_id: str) -> list[AuditRecord]:
    """A tournament's whole audit trail, oldest first (the federation report, R2.3)."""
    query: dict[str, Any] = {
        "TableName": table_name(MAIN),
        "KeyConditionExpression": "pk = :pk AND begins_with(sk, :audit)",
        "ExpressionAttributeValues": {
            ":pk": {"S": keys.tournament_pk(tournament_id)},
            ":audit": {"S": keys.AUDIT_PREFIX},
        },
    }
    found: list[AuditRecord] = []
    while True:
        response = client().query(**query)
        found.extend(_from_item(deserialize(i)) for i in response.get("Items", []))
        if "LastEvaluatedKey" not in response:
            return found
        query["ExclusiveStartKey"] = response["LastEvaluatedKey"]
