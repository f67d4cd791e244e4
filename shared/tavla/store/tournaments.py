"""Tournaments: the META item holds settings, state, counters and per-tournament staff."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from botocore.exceptions import ClientError

from tavla.errors import Conflict, TournamentNotFound
from tavla.store import keys
from tavla.store.dynamo import Item, client, deserialize, error_code, serialize, table_name, values
from tavla.store.schema import MAIN


def calendar_sort_key(starts_at: datetime, tournament_id: str) -> str:
    """Start time in UTC (so string order is time order whatever the offset), then the id."""
    return f"{starts_at.astimezone(UTC).isoformat()}#{tournament_id}"


def create(item: Item, audit: dict[str, Any]) -> None:
    client().transact_write_items(
        TransactItems=[
            {
                "Put": {
                    "TableName": table_name(MAIN),
                    "Item": serialize({**deserialize(keys.tournament(item["id"])), **item}),
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            },
            audit,
        ]
    )


def get(tournament_id: str) -> Item:
    response = client().get_item(TableName=table_name(MAIN), Key=keys.tournament(tournament_id))
    if "Item" not in response:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    return deserialize(response["Item"])


def calendar(limit: int, after: str | None, starting_from: datetime | None) -> tuple[list[Item], str | None]:
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
    items = [deserialize(i) for i in response.get("Items", [])]
    last = response.get("LastEvaluatedKey")
    return items, (last["gsi1sk"]["S"] if last else None)


def update_settings(tournament_id: str, version: int, changes: Item, audit: dict[str, Any]) -> None:
    """Write new settings if nobody changed the tournament since `version` was read."""
    names = {f"#f{i}": k for i, k in enumerate(changes)}
    assignments = ", ".join(f"#f{i} = :v{i}" for i in range(len(changes)))
    try:
        client().transact_write_items(
            TransactItems=[
                {
                    "Update": {
                        "TableName": table_name(MAIN),
                        "Key": keys.tournament(tournament_id),
                        "UpdateExpression": f"SET {assignments}, version = :next",
                        "ConditionExpression": "version = :version AND registered <= :capacity",
                        "ExpressionAttributeNames": names,
                        "ExpressionAttributeValues": {
                            **serialize({f":v{i}": v for i, v in enumerate(changes.values())}),
                            **values(
                                version=version, next=version + 1, capacity=changes.get("capacity", 1 << 30)
                            ),
                        },
                    }
                },
                audit,
            ]
        )
    except ClientError as error:
        if error_code(error) == "TransactionCanceledException":
            raise Conflict(
                "The tournament changed meanwhile, or the new capacity is below the registered count."
            ) from error
        raise


def set_checkin_open(tournament_id: str, is_open: bool, audit: dict[str, Any]) -> None:
    client().transact_write_items(
        TransactItems=[
            {
                "Update": {
                    "TableName": table_name(MAIN),
                    "Key": keys.tournament(tournament_id),
                    "UpdateExpression": "SET checkin_open = :open",
                    "ConditionExpression": "attribute_exists(pk)",
                    "ExpressionAttributeValues": values(open=is_open),
                }
            },
            audit,
        ]
    )


def update_staff(tournament_id: str, version: int, staff: Item, audit: dict[str, Any]) -> None:
    try:
        client().transact_write_items(
            TransactItems=[
                {
                    "Update": {
                        "TableName": table_name(MAIN),
                        "Key": keys.tournament(tournament_id),
                        "UpdateExpression": "SET staff = :staff, version = :next",
                        "ConditionExpression": "version = :version",
                        "ExpressionAttributeValues": {
                            ":staff": serialize({"s": staff})["s"],
                            **values(version=version, next=version + 1),
                        },
                    }
                },
                audit,
            ]
        )
    except ClientError as error:
        if error_code(error) == "TransactionCanceledException":
            raise Conflict("The tournament changed meanwhile; read it again and retry.") from error
        raise
