"""The in-app notification feed of each player, newest first."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tavla.store import keys
from tavla.store.dynamo import client, deserialize, serialize, table_name
from tavla.store.records import NotificationRecord
from tavla.store.schema import MAIN


def add(tavla_id: str, note_id: str, kind: str, message: str, at: datetime, data: dict[str, Any]) -> None:
    """Store one notification; the same event (same time and id) delivered twice stores it once."""
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
    client().put_item(TableName=table_name(MAIN), Item=serialize(item))


def latest(tavla_id: str, limit: int) -> list[NotificationRecord]:
    response = client().query(
        TableName=table_name(MAIN),
        KeyConditionExpression="pk = :pk AND begins_with(sk, :note)",
        ExpressionAttributeValues={":pk": {"S": keys.player_pk(tavla_id)}, ":note": {"S": keys.NOTE_PREFIX}},
        ScanIndexForward=False,
        Limit=limit,
    )
    return [NotificationRecord.from_item(deserialize(i)) for i in response.get("Items", [])]
