"""A player's browsers for Web Push: saved after the player says yes, removed on request or
when the push service says the subscription is gone (`services.notify`)."""

from __future__ import annotations

from datetime import datetime

from tavla import webpush
from tavla.caller import Caller
from tavla.errors import Invalid, NotFound
from tavla.models.push import PushKey, PushSubscriptionBody, PushSubscriptionId
from tavla.rules.push import MAX_SUBSCRIPTIONS
from tavla.store import players as player_store
from tavla.store import push as push_store


def key() -> PushKey:
    return PushKey(public_key=webpush.public_key())


def subscribe(caller: Caller, body: PushSubscriptionBody, now: datetime) -> PushSubscriptionId:
    """Save this browser for the caller's notices; the same browser again changes nothing."""
    tavla_id = player_store.tavla_id_of(caller.sub)
    record = push_store.PushSubscriptionRecord(
        id=push_store.subscription_id(body.endpoint),
        tavla_id=tavla_id,
        endpoint=body.endpoint,
        p256dh=body.keys.p256dh,
        auth=body.keys.auth,
        saved_at=now.isoformat(),
    )
    try:
        push_store.save(record, MAX_SUBSCRIPTIONS)
    except push_store.TooMany as too_many:
        raise Invalid(
            f"At most {MAX_SUBSCRIPTIONS} browsers per player take notices: remove one first."
        ) from too_many
    return PushSubscriptionId(id=record.id)


def unsubscribe(caller: Caller, subscription_id: str) -> PushSubscriptionId:
    """This browser takes no more notices; gone already is done (a repeat is harmless)."""
    tavla_id = player_store.tavla_id_of(caller.sub)
    try:
        push_store.remove(tavla_id, subscription_id)
    except push_store.NotYours as not_yours:
        raise NotFound(f"No push subscription {subscription_id} of yours.") from not_yours
    return PushSubscriptionId(id=subscription_id)
