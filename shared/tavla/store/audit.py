"""Audit records (who did what, when) written inside the transaction of the change itself."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from tavla.store import keys
from tavla.store.dynamo import client, deserialize, serialize, table_name
from tavla.store.schema import MAIN


def audit_put(tournament_id: str, actor: str, action: str, at: datetime, **details: Any) -> dict[str, Any]:
    """A TransactWriteItems `Put` of one audit record for a tournament."""
    stamp = at.isoformat()
    item = {
        "pk": keys.tournament_pk(tournament_id),
        "sk": f"{keys.AUDIT_PREFIX}{stamp}#{uuid.uuid4().hex[:12]}",
        "actor": actor,
        "action": action,
        "at": stamp,
        "details": {k: v for k, v in details.items() if v is not None},
    }
    return {"Put": {"TableName": table_name(MAIN), "Item": serialize(item)}}


def records(tournament_id: str, limit: int) -> list[dict[str, Any]]:
    """A tournament's audit trail, newest first."""
    response = client().query(
        TableName=table_name(MAIN),
        KeyConditionExpression="pk = :pk AND begins_with(sk, :audit)",
        ExpressionAttributeValues={
            ":pk": {"S": keys.tournament_pk(tournament_id)},
            ":audit": {"S": keys.AUDIT_PREFIX},
        },
        ScanIndexForward=False,
        Limit=limit,
    )
    return [
        {k: v for k, v in deserialize(i).items() if k not in ("pk", "sk")} for i in response.get("Items", [])
    ]
