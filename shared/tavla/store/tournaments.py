"""Tournaments: the META item holds settings, state, counters and per-tournament staff."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from tavla.errors import Conflict, TournamentNotFound
from tavla.store import audit, keys
from tavla.store.dynamo import client, deserialize, table_name
from tavla.store.records import AuditRecord, StaffMember, TournamentRecord
from tavla.store.schema import MAIN
from tavla.store.transactions import Cancelled, Transaction


def _item(tournament: TournamentRecord) -> dict[str, Any]:
    return {
        **keys.plain(keys.tournament(tournament.id)),
        **tournament.to_item(),
        "gsi1pk": keys.CALENDAR,
        "gsi1sk": keys.by_start(tournament.starts_at, tournament.id),
    }


def create(tournament: TournamentRecord, change: AuditRecord) -> None:
    tx = Transaction()
    tx.put("tournament", MAIN, _item(tournament), condition="attribute_not_exists(pk)")
    audit.record(tx, tournament.id, change)
    tx.run()


def get(tournament_id: str) -> TournamentRecord:
    response = client().get_item(TableName=table_name(MAIN), Key=keys.tournament(tournament_id))
    if "Item" not in response:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    return TournamentRecord.from_item(deserialize(response["Item"]))


def calendar(
    limit: int, after: str | None, starting_from: datetime | None
) -> tuple[list[TournamentRecord], str | None]:
    """Tournaments by start time (public calendar), paginated by the last sort key seen."""
    query: dict[str, Any] = {
        "TableName": table_name(MAIN),
        "IndexName": MAIN.index("gsi1").name,
        "KeyConditionExpression": "gsi1pk = :cal",
        "ExpressionAttributeValues": {":cal": {"S": keys.CALENDAR}},
        "Limit": limit,
    }
    if starting_from is not None:
        query["KeyConditionExpression"] += " AND gsi1sk >= :start"
        query["ExpressionAttributeValues"][":start"] = {"S": starting_from.astimezone(UTC).isoformat()}
    if after:
        query["ExclusiveStartKey"] = {
            "gsi1pk": {"S": keys.CALENDAR},
            "gsi1sk": {"S": after},
            **keys.tournament(after.rsplit("#", 1)[-1]),
        }
    response = client().query(**query)
    found = [TournamentRecord.from_item(deserialize(i)) for i in response.get("Items", [])]
    last = response.get("LastEvaluatedKey")
    return found, (last["gsi1sk"]["S"] if last else None)


def update_settings(current: TournamentRecord, settings: Mapping[str, Any], change: AuditRecord) -> None:
    """Write new settings if nobody changed the tournament since `current` was read, and
    never below the registered count."""
    diff = {k: v for k, v in settings.items() if current.settings.get(k) != v}
    if not diff:
        return
    if "starts_at" in diff:
        diff["gsi1sk"] = keys.by_start(str(settings["starts_at"]), current.id)
    names = {f"#f{i}": k for i, k in enumerate(diff)}
    assignments = ", ".join(f"#f{i} = :v{i}" for i in range(len(diff)))
    tx = Transaction()
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(current.id),
        f"SET {assignments}, version = :next",
        condition="version = :version AND registered <= :capacity",
        names=names,
        values={
            **{f"v{i}": v for i, v in enumerate(diff.values())},
            "version": current.version,
            "next": current.version + 1,
            "capacity": int(settings["capacity"]),
        },
    )
    audit.record(tx, current.id, change)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("tournament"):
            raise Conflict(
                "The tournament changed meanwhile, or the new capacity is below the registered count."
            ) from cancelled
        raise


def set_checkin_open(tournament_id: str, is_open: bool, change: AuditRecord) -> None:
    tx = Transaction()
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(tournament_id),
        "SET checkin_open = :open",
        condition="attribute_exists(pk)",
        values={"open": is_open},
    )
    audit.record(tx, tournament_id, change)
    tx.run()


def update_staff(current: TournamentRecord, staff: Mapping[str, StaffMember], change: AuditRecord) -> None:
    tx = Transaction()
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(current.id),
        "SET staff = :staff, version = :next",
        condition="version = :version",
        values={
            "staff": {sub: {k: v for k, v in vars(m).items() if v is not None} for sub, m in staff.items()},
            "version": current.version,
            "next": current.version + 1,
        },
    )
    audit.record(tx, current.id, change)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("tournament"):
            raise Conflict("The tournament changed meanwhile; read it again and retry.") from cancelled
        raise
