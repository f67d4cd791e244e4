"""Browsers' Web Push subscriptions (private: the contacts table).

One item per subscription, named by a digest of its endpoint (a browser has one endpoint per
site), holding the endpoint, its keys and its owner; the owner's contacts item lists the ids
in the string set `push_subs`. Saving the same subscription again changes nothing; a browser
that another player signs in on moves to that player (the item says whose it is, so an id
still listed by the first player is ignored).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tavla.store import keys
from tavla.store.dynamo import batch_get
from tavla.store.records import _Record
from tavla.store.schema import CONTACTS
from tavla.store.transactions import Cancelled, Transaction

SUBSCRIPTIONS = "push_subs"  # the contacts item's string set of subscription ids


@dataclass(frozen=True, eq=False, repr=False)
class PushSubscriptionRecord(_Record):
    id: str
    tavla_id: str
    endpoint: str
    p256dh: str
    auth: str
    saved_at: str


class NotYours(Exception):
    """The subscription belongs to another player."""


class TooMany(Exception):
    """The player has as many subscriptions as a player may."""


def subscription_id(endpoint: str) -> str:
    """The same endpoint, the same id: saving twice writes one item."""
    return hashlib.sha256(endpoint.encode()).hexdigest()[:32]


def save(record: PushSubscriptionRecord, most: int) -> None:
    """The subscription and its id in the owner's list, together (idempotent); TooMany when the
    list holds `most` others already (a condition, so two at once cannot pass it)."""
    tx = Transaction()
    tx.put("subscription", CONTACTS, {**keys.plain(keys.push_subscription(record.id)), **record.to_item()})
    tx.update(
        "owner",
        CONTACTS,
        keys.contacts(record.tavla_id),
        f"ADD {SUBSCRIPTIONS} :ids",
        condition=f"attribute_not_exists({SUBSCRIPTIONS}) OR size({SUBSCRIPTIONS}) < :most "
        f"OR contains({SUBSCRIPTIONS}, :id)",
        values={"ids": {record.id}, "id": record.id, "most": most},
    )
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("owner"):
            raise TooMany(record.tavla_id) from cancelled
        raise


def remove(tavla_id: str, sub_id: str) -> None:
    """The player's subscription gone (gone already: nothing to do); another's: NotYours."""
    tx = Transaction()
    tx.delete(
        "subscription",
        CONTACTS,
        keys.push_subscription(sub_id),
        condition="attribute_not_exists(pk) OR tavla_id = :me",
        values={"me": tavla_id},
    )
    tx.update(
        "owner", CONTACTS, keys.contacts(tavla_id), f"DELETE {SUBSCRIPTIONS} :ids", values={"ids": {sub_id}}
    )
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("subscription"):
            raise NotYours(sub_id) from cancelled
        raise


def forget(record: PushSubscriptionRecord) -> None:
    """A subscription the push service says is gone (404/410): never sent to again. Only the
    very item read is deleted (a browser saved again since, with new keys, is kept)."""
    tx = Transaction()
    tx.delete(
        "subscription",
        CONTACTS,
        keys.push_subscription(record.id),
        condition="p256dh = :key AND tavla_id = :owner",
        values={"key": record.p256dh, "owner": record.tavla_id},
    )
    tx.update(
        "owner",
        CONTACTS,
        keys.contacts(record.tavla_id),
        f"DELETE {SUBSCRIPTIONS} :ids",
        values={"ids": {record.id}},
    )
    try:
        tx.run()
    except Cancelled as cancelled:
        if not cancelled.failed("subscription"):
            raise


def of_players(listed: Mapping[str, Sequence[str]]) -> dict[str, list[PushSubscriptionRecord]]:
    """Each player's subscriptions, from the ids their contacts list (one BatchGetItem per 100);
    an id whose item now names another owner is not theirs."""
    wanted = sorted({i for ids in listed.values() for i in ids})
    found = [
        PushSubscriptionRecord.from_item(i)
        for i in batch_get(CONTACTS, [keys.push_subscription(i) for i in wanted])
    ]
    by_id = {r.id: r for r in found}
    return {
        tavla_id: [by_id[i] for i in sorted(ids) if i in by_id and by_id[i].tavla_id == tavla_id]
        for tavla_id, ids in listed.items()
    }
