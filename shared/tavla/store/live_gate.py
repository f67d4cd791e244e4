"""The tournament channel's gate: one item per tournament, LIVE#<tid> / GATE, saying when the
next hint may go out (`next_at`, epoch seconds) and which hint waits for then (`held_type`,
`held_version`). Both moves are single conditional writes, so two live functions at once cannot
both open the window, and a held hint is never lost: it stays until `release` posts it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from tavla.store.dynamo import client, deserialize, error_code, table_name, values
from tavla.store.schema import MAIN


@dataclass(frozen=True)
class Held:
    type: str
    version: int | str


def _key(tournament_id: str) -> dict[str, object]:
    return {"pk": {"S": f"LIVE#{tournament_id}"}, "sk": {"S": "GATE"}}


def _epoch(at: datetime) -> int:
    return int(at.timestamp())


def admit(tournament_id: str, now: datetime, window: timedelta, held: Held) -> datetime | None:
    """None when the window is open (it closes now for `window`): post the hint. Otherwise the
    hint is kept as the one held (the latest wins: a screen refetches everything anyway) and
    the moment the window opens is returned, for the one-off schedule that posts it."""
    try:
        client().update_item(
            TableName=table_name(MAIN),
            Key=_key(tournament_id),
            UpdateExpression="SET next_at = :next",
            ConditionExpression="attribute_not_exists(next_at) OR next_at <= :now",
            ExpressionAttributeValues=values(next=_epoch(now + window), now=_epoch(now)),
        )
        return None
    except Exception as refused:
        if error_code(refused) != "ConditionalCheckFailedException":
            raise
    answer = client().update_item(
        TableName=table_name(MAIN),
        Key=_key(tournament_id),
        UpdateExpression="SET held_type = :type, held_version = :version",
        ExpressionAttributeValues=values(type=held.type, version=held.version),
        ReturnValues="ALL_NEW",
    )
    return datetime.fromtimestamp(int(deserialize(answer["Attributes"])["next_at"]), now.tzinfo)


def release(tournament_id: str, now: datetime, window: timedelta) -> Held | None:
    """The held hint, taken (the window starts again now, as its post is this window's one);
    None when nothing is held (a repeated schedule, or taken already)."""
    try:
        answer = client().update_item(
            TableName=table_name(MAIN),
            Key=_key(tournament_id),
            UpdateExpression="SET next_at = :next REMOVE held_type, held_version",
            ConditionExpression="attribute_exists(held_type)",
            ExpressionAttributeValues=values(next=_epoch(now + window)),
            ReturnValues="ALL_OLD",
        )
    except Exception as refused:
        if error_code(refused) != "ConditionalCheckFailedException":
            raise
        return None
    old = deserialize(answer["Attributes"])
    return Held(str(old["held_type"]), old["held_version"])
