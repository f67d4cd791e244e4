"""Seasons (R10.4, R10.5): the season's settings, each player's season entry, counted tournaments.

A player's entry (SEASON#<id> / PLAYER#<tavla_id>) holds one attribute per counted
tournament, `award#<tournament id>` (its points and the player's matches there), written with
`attribute_not_exists`, and the running total `points` (ADD in the same update): a
tournament is added to a player's season at most once, however often the event comes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from botocore.exceptions import ClientError

from tavla.rules.season_table import Award
from tavla.store import keys
from tavla.store.dynamo import client, deserialize, error_code, query_all, serialize, table_name
from tavla.store.records import SeasonRecord
from tavla.store.schema import MAIN

AWARD_PREFIX = "award#"


def get(season_id: str) -> SeasonRecord | None:
    response = client().get_item(TableName=table_name(MAIN), Key=keys.season(season_id))
    return SeasonRecord.from_item(deserialize(response["Item"])) if "Item" in response else None


def put(season: SeasonRecord) -> None:
    client().put_item(
        TableName=table_name(MAIN), Item=serialize({**keys.plain(keys.season(season.id)), **season.to_item()})
    )


def add_award(season_id: str, tavla_id: str, award: Award) -> bool:
    """Add one tournament's award to a player's season; False when it was already counted."""
    try:
        client().update_item(
            TableName=table_name(MAIN),
            Key=keys.season_entry(season_id, tavla_id),
            UpdateExpression="SET #a = :a, season_id = :s, tavla_id = :p ADD points :n",
            ConditionExpression="attribute_not_exists(#a)",
            ExpressionAttributeNames={"#a": f"{AWARD_PREFIX}{award.tournament_id}"},
            ExpressionAttributeValues={
                ":a": {"S": award.model_dump_json()},
                ":s": {"S": season_id},
                ":p": {"S": tavla_id},
                ":n": {"N": str(award.points)},
            },
        )
    except ClientError as error:
        if error_code(error) == "ConditionalCheckFailedException":
            return False
        raise
    return True


def remove_awards(season_id: str, tavla_id: str, awards: Sequence[Award]) -> None:
    """Take awards off a player's season (a merge moves them; the rebuild repairs)."""
    if not awards:
        return
    names = {f"#a{i}": f"{AWARD_PREFIX}{a.tournament_id}" for i, a in enumerate(awards)}
    client().update_item(
        TableName=table_name(MAIN),
        Key=keys.season_entry(season_id, tavla_id),
        UpdateExpression="REMOVE " + ", ".join(names) + " ADD points :n",
        ExpressionAttributeNames=names,
        ExpressionAttributeValues={":n": {"N": str(-sum(a.points for a in awards))}},
    )


def mark_counted(season_id: str, tournament_id: str, finished_at: str) -> None:
    client().put_item(
        TableName=table_name(MAIN),
        Item=serialize(
            {**keys.plain(keys.season_counted(season_id, tournament_id)), "finished_at": finished_at}
        ),
    )


def _awards(item: Mapping[str, Any]) -> list[Award]:
    return [
        Award.model_validate(json.loads(v)) for k, v in sorted(item.items()) if k.startswith(AWARD_PREFIX)
    ]


def entries(season_id: str) -> dict[str, list[Award]]:
    """Every player's awards in the season (one Query, page after page)."""
    items = query_all(
        TableName=table_name(MAIN),
        KeyConditionExpression="pk = :pk AND begins_with(sk, :p)",
        ExpressionAttributeValues={
            ":pk": {"S": keys.season_pk(season_id)},
            ":p": {"S": keys.SEASON_PLAYER_PREFIX},
        },
    )
    out = {str(i["tavla_id"]): _awards(i) for i in items}
    return {p: a for p, a in out.items() if a}


def entry(season_id: str, tavla_id: str) -> list[Award]:
    response = client().get_item(TableName=table_name(MAIN), Key=keys.season_entry(season_id, tavla_id))
    return _awards(deserialize(response["Item"])) if "Item" in response else []


def remember(season_id: str) -> None:
    client().update_item(
        TableName=table_name(MAIN),
        Key=keys.seasons(),
        UpdateExpression="ADD ids :s",
        ExpressionAttributeValues={":s": {"SS": [season_id]}},
    )


def season_ids() -> list[str]:
    response = client().get_item(TableName=table_name(MAIN), Key=keys.seasons())
    return sorted(deserialize(response["Item"]).get("ids", ())) if "Item" in response else []
