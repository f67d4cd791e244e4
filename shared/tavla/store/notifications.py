"""The in-app notification feed of each player, newest first."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tavla.store import keys
from tavla.store.dynamo import client, deserialize, table_name
from tavla.store.records import NotificationRecord
from tavla.store.schema import MAIN
from tavla.store.transactions import Cancelled, Transaction


def add(tavla_id: str, note_id: str, kind: str, message: str, at: datetime, data: dict[str, Any]) -> bool:
    """Store one notification, once per `note_id`: False when it was given already (the same event
    delivered again, whenever), so that nothing else about it is sent twice either."""
    note = NotificationRecord(
        id=note_id,
        kind=kind,
        message=message,
        created_at=at.isoformat(),
        data={k: str(v) for k, v in data.items()},
    )
    item = {
        "pk": keys.player_pk(tavla_id),
        "sk": f"{keys.NOTE_PREFIX}{note.created_at}#{note_id}",
        **note.to_item(),
    }
    tx = Transaction()
    given = keys.plain(keys.notified(tavla_id, note_id))
    tx.put("once", MAIN, given, condition="attribute_not_exists(pk)")
    tx.put("note", MAIN, item)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("once"):
            return False
        raise
    return True


def latest(tavla_id: str, limit: int) -> list[NotificationRecord]:
    response = client().query(
        TableName=table_name(MAIN),
        KeyConditionExpression="pk = :pk AND begins_with(sk, :note)",
        ExpressionAttributeValues={":pk": {"S": keys.player_pk(tavla_id)}, ":note": {"S": keys.NOTE_PREFIX}},
        ScanIndexForward=False,
        Limit=limit,
    )
    return [NotificationRecord.from_item(deserialize(i)) for i in response.get("Items", [])]
