"""Platform roles (organisers, admins) as the federation grants them, and requests to organise.

The platform's record is the truth; the Cognito group follows it (`services.roles`). Each
role keeps a count beside its grants, changed in the same transaction: revoking an admin
is conditional on the count staying above zero, so two admins revoking each other at once
cannot leave the federation without one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tavla.caller import ADMINS
from tavla.errors import LastAdmin, NotPending, RequestNotFound
from tavla.store import audit, keys, outbox
from tavla.store.dynamo import batch_get, client, deserialize, query_all, query_prefix, table_name
from tavla.store.records import AuditRecord, _Record
from tavla.store.schema import MAIN
from tavla.store.transactions import Cancelled, Transaction


@dataclass(frozen=True, eq=False, repr=False)
class RoleGrant(_Record):
    role: str
    sub: str  # internal: whose sign-in holds it
    tavla_id: str | None = None
    granted_at: str | None = None


@dataclass(frozen=True, eq=False, repr=False)
class OrganiserRequest(_Record):
    tavla_id: str
    sub: str  # internal
    club: str
    reason: str
    status: str  # pending | approved | refused
    requested_at: str
    decided_at: str | None = None
    note: str | None = None


def _count_update(tx: Transaction, role: str, delta: int) -> None:
    if delta > 0:
        tx.update(f"{role} count", MAIN, keys.role_count(role), "ADD n :d", values={"d": delta})
    else:  # the last holder of `admins` stays
        condition = "n > :one" if role == ADMINS else None
        values: dict[str, Any] = {"d": delta, **({"one": 1} if condition else {})}
        tx.update(
            f"{role} count", MAIN, keys.role_count(role), "ADD n :d", condition=condition, values=values
        )


def add_grant(tx: Transaction, grant: RoleGrant) -> None:
    """Put the grant (only if new) and count it, in the caller's transaction."""
    item = {**keys.plain(keys.role_grant(grant.role, grant.sub)), **grant.to_item()}
    tx.put("grant", MAIN, item, condition="attribute_not_exists(pk)")
    _count_update(tx, grant.role, 1)


def grant(
    role_grant: RoleGrant,
    record: AuditRecord,
    events: Sequence[outbox.Event] = (),
    *,
    tx: Transaction | None = None,
) -> bool:
    """Grant a role; False when it was held already (nothing written)."""
    tx = tx or Transaction()
    add_grant(tx, role_grant)
    audit.record_federation(tx, record)
    outbox.add(tx, events)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("grant"):
            return False
        raise
    return True


def revoke(role: str, sub: str, record: AuditRecord) -> bool:
    """Revoke a role; False when it was not held; LastAdmin when it is the last admin."""
    tx = Transaction()
    tx.delete("grant", MAIN, keys.role_grant(role, sub), condition="attribute_exists(pk)")
    _count_update(tx, role, -1)
    audit.record_federation(tx, record)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("grant"):
            return False
        if cancelled.failed(f"{role} count"):
            raise LastAdmin("The federation keeps at least one admin: grant another admin first.") from None
        raise
    return True


def roles_of(sub: str, roles: Sequence[str]) -> set[str]:
    """The roles the platform's record gives this user (the local stack's token reads them)."""
    found = batch_get(MAIN, [keys.role_grant(r, sub) for r in roles], consistent=True)
    return {str(i["role"]) for i in found}


def holders(role: str) -> list[RoleGrant]:
    items = query_prefix(MAIN, keys.role_pk(role), "USER#")
    return [RoleGrant.from_item(i) for i in items]


def count(role: str) -> int:
    response = client().get_item(TableName=table_name(MAIN), Key=keys.role_count(role), ConsistentRead=True)
    return int(deserialize(response["Item"])["n"]) if "Item" in response else 0


# -- requests to become an organiser ------------------------------------------------------


def put_request(request: OrganiserRequest, events: Sequence[outbox.Event]) -> bool:
    """A new pending request (or a new one after a decided one); False while one is pending."""
    tx = Transaction()
    item = {**keys.plain(keys.organiser_request(request.tavla_id)), **request.to_item()}
    tx.put(
        "request",
        MAIN,
        item,
        condition="attribute_not_exists(pk) OR #s <> :pending",
        names={"#s": "status"},
        values={"pending": "pending"},
    )
    outbox.add(tx, events)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("request"):
            return False
        raise
    return True


def get_request(tavla_id: str) -> OrganiserRequest:
    response = client().get_item(
        TableName=table_name(MAIN), Key=keys.organiser_request(tavla_id), ConsistentRead=True
    )
    if "Item" not in response:
        raise RequestNotFound(f"No request to organise from {tavla_id}.")
    return OrganiserRequest.from_item(deserialize(response["Item"]))


def requests(status: str | None = None) -> list[OrganiserRequest]:
    items = query_all(
        TableName=table_name(MAIN),
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": keys.ORGANISER_REQUESTS}},
    )
    found = [OrganiserRequest.from_item(i) for i in items]
    return [r for r in found if status is None or r.status == status]


def decide_request(
    tavla_id: str,
    status: str,
    at: str,
    note: str | None,
    record: AuditRecord,
    events: Sequence[outbox.Event],
    role_grant: RoleGrant | None,
) -> None:
    """Decide a pending request; with its grant when approved (held already: the grant is left)."""
    tx = Transaction()
    tx.update(
        "request",
        MAIN,
        keys.organiser_request(tavla_id),
        "SET #s = :s, decided_at = :at" + (", note = :note" if note else ""),
        condition="#s = :pending",
        names={"#s": "status"},
        values={"s": status, "at": at, "pending": "pending", **({"note": note} if note else {})},
    )
    if role_grant is not None and not roles_of(role_grant.sub, [role_grant.role]):
        add_grant(tx, role_grant)
    audit.record_federation(tx, record)
    outbox.add(tx, events)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("request"):
            raise NotPending("This request is not pending: it was decided already.") from None
        if cancelled.failed("grant"):
            raise NotPending("The role was granted meanwhile: decide the request again.") from None
        raise
