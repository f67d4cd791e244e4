"""A tournament's public live channel: its delta counter, one item per tournament, LIVE#<tid> /
GATE. One `UpdateItem` counts the delta (`ADD seq`), remembers the event it was for
(`last_event`), the rounds already announced (`rounds`, a string set) and the fingerprints of
the standings rows the screens were last told (`standings`, JSON: no names), and returns what
was there before: the new `seq` is the old one plus one, with no gap even when two functions
count at once.

A redelivered event (the same event id as the last counted one) is refused by the condition and
gets the same `seq` back, so no second number is spent on one change."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tavla.frozen import Frozen
from tavla.store import keys
from tavla.store.dynamo import client, deserialize, error_code, table_name, value
from tavla.store.schema import MAIN


@dataclass(frozen=True, eq=False, repr=False)
class Counted(Frozen):
    seq: int
    repeat: bool = False  # the event was counted before: its delta went out with this seq
    rounds: frozenset[str] = frozenset()  # the rounds announced before this delta
    standings: dict[str, dict[str, str]] = field(default_factory=dict)  # the rows' fingerprints told before


def _key(tournament_id: str) -> dict[str, object]:
    return keys.live_gate(tournament_id)


def count(
    tournament_id: str,
    event_id: str,
    *,
    rounds: Iterable[str] = (),
    standings: Mapping[str, Any] | None = None,
) -> Counted:
    """The next delta's number for the tournament, and what the item held before it."""
    adds = ["seq :one"]
    sets = ["last_event = :event"]
    names: dict[str, Any] = {":one": value(1), ":event": value(event_id)}
    if rounds := sorted(set(rounds)):
        adds.append("rounds :rounds")
        names[":rounds"] = {"SS": rounds}
    if standings is not None:
        sets.append("standings = :standings")
        names[":standings"] = value(json.dumps(standings, separators=(",", ":")))
    try:
        answer = client().update_item(
            TableName=table_name(MAIN),
            Key=_key(tournament_id),
            UpdateExpression=f"ADD {', '.join(adds)} SET {', '.join(sets)}",
            ConditionExpression="attribute_not_exists(last_event) OR last_event <> :event",
            ExpressionAttributeValues=names,
            ReturnValues="ALL_OLD",
        )
    except Exception as refused:
        if error_code(refused) != "ConditionalCheckFailedException":
            raise
        item = client().get_item(TableName=table_name(MAIN), Key=_key(tournament_id), ConsistentRead=True)
        return Counted(seq=int(deserialize(item["Item"])["seq"]), repeat=True)
    old = deserialize(answer.get("Attributes") or {})
    return Counted(
        seq=int(old.get("seq", 0)) + 1,
        rounds=frozenset(old.get("rounds") or ()),
        standings=json.loads(old["standings"]) if old.get("standings") else {},
    )
