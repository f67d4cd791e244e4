"""Domain events written as outbox items in the transaction of the change they describe.

A change and its events are saved together or not at all: the service never puts an event on
the bus itself (a bus refusing after the commit would lose it, or fail a request whose change
was saved). The table's stream carries each new outbox item to one publisher
(`services.publisher`), which puts it on the bus and deletes the item. Delivery is at least
once: every event carries its id (`event_id` in the detail) so that consumers can tell a
repeat.

    tx = Transaction()
    ... the change's items ...
    outbox.add(tx, [outbox.Event(events.MATCHES_CALLED, {...})])
    tx.run()
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tavla.frozen import Frozen
from tavla.store import keys
from tavla.store.dynamo import Item, batch_get, batch_write, client, deserialize, table_name
from tavla.store.schema import MAIN
from tavla.store.transactions import Transaction

# uuid5 namespace of event ids: the same change names the same event, whoever writes it
_NAMESPACE = uuid.UUID("6f1f8a52-3c2e-4d0e-9b7a-2f5c0d6e7a41")
ID_FIELD = "event_id"  # the detail field that carries the event's id on the bus


@dataclass(frozen=True, eq=False, repr=False)
class Event(Frozen):
    """One domain event. `key` names the change it describes; without one the detail itself
    does, so a retried identical change writes the same event (the same item), never a second."""

    detail_type: str
    detail: Mapping[str, Any]
    key: str | None = field(default=None)

    @property
    def id(self) -> str:
        name = self.key if self.key is not None else json.dumps(self.detail, sort_keys=True, default=str)
        return str(uuid.uuid5(_NAMESPACE, f"{self.detail_type}\n{name}"))


def _item(event: Event) -> Item:
    return {
        **keys.plain(keys.outbox(event.id)),
        "event_id": event.id,
        "detail_type": event.detail_type,
        # as JSON text: the detail reaches the bus exactly as the service built it
        "detail": json.dumps(event.detail, sort_keys=True, default=str),
    }


def add(tx: Transaction, events: Iterable[Event]) -> None:
    """Add the events to the change's transaction (one item each; an event named twice once).

    The put is unconditional: the same event written again by a retried change overwrites its
    own pending item (the stream filter passes inserts only, so it is published once)."""
    seen: set[str] = set()
    for event in events:
        if event.id in seen:
            continue
        seen.add(event.id)
        tx.put(f"event {event.id}", MAIN, _item(event))


def write(events: Iterable[Event]) -> None:
    """Events that are the whole change (nothing else is written): one transaction of them."""
    tx = Transaction()
    add(tx, events)
    tx.run()


@dataclass(frozen=True, eq=False, repr=False)
class Pending(Frozen):
    """An event as its outbox item holds it: what the publisher puts on the bus."""

    event_id: str
    detail_type: str
    detail: Mapping[str, Any]

    def on_the_bus(self) -> dict[str, Any]:
        return {**self.detail, ID_FIELD: self.event_id}


def from_image(image: Mapping[str, Any]) -> Pending | None:
    """The event an outbox item holds (a stream record's new image, plain values), or None."""
    if not str(image.get("pk", "")).startswith(keys.OUTBOX_PREFIX):
        return None
    return Pending(str(image["event_id"]), str(image["detail_type"]), json.loads(str(image["detail"])))


def pending(event_ids: Sequence[str]) -> set[str]:
    """Those of the events still in the outbox: not yet published (and deleted) by an earlier
    delivery. One consistent BatchGetItem per 100."""
    found = batch_get(MAIN, [keys.outbox(e) for e in dict.fromkeys(event_ids)], consistent=True)
    return {str(item["event_id"]) for item in found}


def remove(event_ids: Sequence[str]) -> None:
    """The events are on the bus: their outbox items go (BatchWriteItem, 25 to a call)."""
    batch_write(MAIN, [], [keys.outbox(e) for e in dict.fromkeys(event_ids)])


def waiting(limit: int = 100) -> list[Pending]:
    """Events still in the outbox (a scan: for operators and tests, never on a request's path)."""
    items: list[Pending] = []
    request: dict[str, Any] = {
        "TableName": table_name(MAIN),
        "FilterExpression": "begins_with(pk, :outbox)",
        "ExpressionAttributeValues": {":outbox": {"S": keys.OUTBOX_PREFIX}},
    }
    while len(items) < limit:
        response = client().scan(**request)
        for raw in response.get("Items", []):
            event = from_image(deserialize(raw))
            if event is not None:
                items.append(event)
        if "LastEvaluatedKey" not in response:
            break
        request["ExclusiveStartKey"] = response["LastEvaluatedKey"]
    return items[:limit]
