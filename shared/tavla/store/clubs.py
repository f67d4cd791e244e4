"""The federation's clubs (records kept by its admins) and the players who chose one.

A profile names its club by id (`club_id`) and carries the club's name beside it (`club`), so
every board, list and standings page shows the name without reading the club. The name is
rewritten on the members' profiles when the club is renamed or merged; a profile whose club
is still the free text typed before clubs were records has a `club` and no `club_id` until an
admin maps that spelling to a record.

Finding a club's members, or every free-text spelling, reads every profile (a Scan of the
profiles): an admin's rare act (a rename, the one-time mapping), never a player's request.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from tavla.errors import Conflict, NoSuchClub
from tavla.store import audit, keys
from tavla.store.dynamo import client, deserialize, query_all, table_name
from tavla.store.records import AuditRecord, ProfileRecord, _Record
from tavla.store.schema import MAIN
from tavla.store.transactions import Cancelled, Transaction


@dataclass(frozen=True, eq=False, repr=False)
class ClubRecord(_Record):
    id: str
    name: str
    city: str
    short_name: str
    created_at: str
    contact: str | None = None  # private to admins: the public list leaves it out
    updated_at: str | None = None
    merged_into: str | None = None  # a duplicate record merged into another


def _item(club: ClubRecord) -> dict[str, Any]:
    return {**keys.plain(keys.club(club.id)), **club.to_item()}


def create(club: ClubRecord, change: AuditRecord) -> bool:
    """A new club, audited; False when the id exists (a retried create: nothing written)."""
    tx = Transaction()
    tx.put("club", MAIN, _item(club), condition="attribute_not_exists(pk)")
    audit.record_federation(tx, change)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("club"):
            return False
        raise
    return True


def replace(club: ClubRecord, version_at: str | None, change: AuditRecord) -> None:
    """Write an edited club if nobody edited it since it was read (`updated_at` as read)."""
    tx = Transaction()
    condition = "attribute_exists(pk) AND " + (
        "updated_at = :was" if version_at else "attribute_not_exists(updated_at)"
    )
    tx.put("club", MAIN, _item(club), condition=condition, values={"was": version_at} if version_at else None)
    audit.record_federation(tx, change)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("club"):
            raise Conflict("The club changed meanwhile: read it again and retry.") from None
        raise


def get(club_id: str) -> ClubRecord:
    response = client().get_item(TableName=table_name(MAIN), Key=keys.club(club_id), ConsistentRead=True)
    if "Item" not in response:
        raise NoSuchClub(f"No club {club_id}.")
    return ClubRecord.from_item(deserialize(response["Item"]))


def every_club() -> list[ClubRecord]:
    """Every club record, merged ones too (the caller chooses what to show)."""
    items = query_all(
        TableName=table_name(MAIN),
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": keys.CLUBS}},
    )
    return [ClubRecord.from_item(i) for i in items]


def _profiles(
    filter_expression: str, values: dict[str, Any], names: dict[str, str]
) -> Iterator[ProfileRecord]:
    request: dict[str, Any] = {
        "TableName": table_name(MAIN),
        "FilterExpression": f"sk = :profile AND ({filter_expression})",
        "ExpressionAttributeValues": {":profile": {"S": "PROFILE"}, **values},
    }
    if names:
        request["ExpressionAttributeNames"] = names
    while True:
        response = client().scan(**request)
        yield from (ProfileRecord.from_item(deserialize(i)) for i in response.get("Items", []))
        last = response.get("LastEvaluatedKey")
        if not last:
            return
        request["ExclusiveStartKey"] = last


def free_text_clubs() -> dict[str, int]:
    """Each club spelling on profiles not yet mapped to a record, with how many players use it."""
    counts: dict[str, int] = {}
    found = _profiles(
        "attribute_exists(club) AND attribute_not_exists(club_id) AND attribute_not_exists(merged_into)",
        {},
        {},
    )
    for profile in found:
        if profile.club:
            counts[profile.club] = counts.get(profile.club, 0) + 1
    return counts


def members(spellings: Sequence[str], club_ids: Sequence[str]) -> list[ProfileRecord]:
    """Profiles whose unmapped club is one of `spellings`, or whose club is one of `club_ids`."""
    parts: list[str] = []
    values: dict[str, Any] = {}
    if spellings:
        named = ", ".join(f":s{i}" for i in range(len(spellings)))
        parts.append(f"attribute_not_exists(club_id) AND club IN ({named})")
        values |= {f":s{i}": {"S": s} for i, s in enumerate(spellings)}
    if club_ids:
        named = ", ".join(f":c{i}" for i in range(len(club_ids)))
        parts.append(f"club_id IN ({named})")
        values |= {f":c{i}": {"S": c} for i, c in enumerate(club_ids)}
    if not parts:
        return []
    # DynamoDB refuses redundant parentheses: a part is grouped only beside another
    expression = " OR ".join(f"({p})" if " AND " in p else p for p in parts) if len(parts) > 1 else parts[0]
    return list(_profiles(expression, values, {}))


def move_member(profile: ProfileRecord, club: ClubRecord) -> bool:
    """Put one member in `club` (id and name) if their club is still as read; False if it changed."""
    if profile.club_id:
        condition, was = "club_id = :was", profile.club_id
    else:
        condition, was = "attribute_not_exists(club_id) AND club = :was", profile.club or ""
    try:
        client().update_item(
            TableName=table_name(MAIN),
            Key=keys.profile(profile.tavla_id),
            UpdateExpression="SET club_id = :id, club = :name",
            ConditionExpression=condition,
            ExpressionAttributeValues={":id": {"S": club.id}, ":name": {"S": club.name}, ":was": {"S": was}},
        )
    except client().exceptions.ConditionalCheckFailedException:
        return False
    return True


def mark_merged(duplicates: Sequence[ClubRecord], kept: ClubRecord, change: AuditRecord) -> None:
    """Duplicate records point to the one kept (they leave the list), audited with the merge."""
    tx = Transaction()
    for club in duplicates:
        tx.update(
            f"club {club.id}",
            MAIN,
            keys.club(club.id),
            "SET merged_into = :kept",
            condition="attribute_exists(pk)",
            values={"kept": kept.id},
        )
    audit.record_federation(tx, change)
    tx.run()
