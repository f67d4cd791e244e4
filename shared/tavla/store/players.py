"""Players: identities (user -> Tavla ID), public profiles, private contacts (R1, R12)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from botocore.exceptions import ClientError

from tavla.errors import Conflict, PlayerNotFound, ProfileExists, ProfileMissing
from tavla.store import keys, registrations
from tavla.store.dynamo import (
    Item,
    batch_get,
    batch_get_tables,
    cancellation_codes,
    client,
    deserialize,
    serialize,
    table_name,
)
from tavla.store.schema import CONTACTS, MAIN


class TavlaIdTaken(Exception):
    """The randomly drawn Tavla ID is in use; draw another."""


def create(sub: str, profile: Item, contacts: Item) -> None:
    """Identity, profile and contacts in one transaction: one account per user, unique IDs (R1.1)."""
    tavla_id = profile["tavla_id"]
    try:
        client().transact_write_items(
            TransactItems=[
                {
                    "Put": {
                        "TableName": table_name(MAIN),
                        "Item": serialize({**_unkey(keys.identity(sub)), "tavla_id": tavla_id}),
                        "ConditionExpression": "attribute_not_exists(pk)",
                    }
                },
                {
                    "Put": {
                        "TableName": table_name(MAIN),
                        "Item": serialize({**_unkey(keys.profile(tavla_id)), **profile, "user_sub": sub}),
                        "ConditionExpression": "attribute_not_exists(pk)",
                    }
                },
                {
                    "Put": {
                        "TableName": table_name(CONTACTS),
                        "Item": serialize({**contacts, "tavla_id": tavla_id}),
                    }
                },
            ]
        )
    except ClientError as error:
        codes = cancellation_codes(error)
        if codes and codes[0] == "ConditionalCheckFailed":
            raise ProfileExists("You already have a player profile.") from error
        if len(codes) > 1 and codes[1] == "ConditionalCheckFailed":
            raise TavlaIdTaken(tavla_id) from error
        raise


def _unkey(key: dict[str, Any]) -> Item:
    return deserialize(key)


def tavla_id_of(sub: str) -> str:
    """The caller's Tavla ID; ProfileMissing when they have not created a profile yet."""
    response = client().get_item(TableName=table_name(MAIN), Key=keys.identity(sub))
    if "Item" not in response:
        raise ProfileMissing("Create your player profile first (POST /players).")
    return str(deserialize(response["Item"])["tavla_id"])


def get_profile(tavla_id: str) -> Item:
    response = client().get_item(TableName=table_name(MAIN), Key=keys.profile(tavla_id))
    if "Item" not in response:
        raise PlayerNotFound(f"No player with Tavla ID {tavla_id}.")
    return deserialize(response["Item"])


def get_profile_and_contacts(tavla_id: str) -> tuple[Item, Item]:
    found = batch_get_tables({MAIN: [keys.profile(tavla_id)], CONTACTS: [keys.contacts(tavla_id)]})
    if not found[MAIN.name]:
        raise PlayerNotFound(f"No player with Tavla ID {tavla_id}.")
    contacts = found[CONTACTS.name]
    return found[MAIN.name][0], (contacts[0] if contacts else {})


def get_profiles(tavla_ids: list[str]) -> dict[str, Item]:
    """Public profiles by Tavla ID (BatchGetItem in chunks of 100, unprocessed keys retried)."""
    return {p["tavla_id"]: p for p in batch_get(MAIN, [keys.profile(t) for t in set(tavla_ids)])}


def get_contacts(tavla_ids: list[str]) -> dict[str, Item]:
    return {c["tavla_id"]: c for c in batch_get(CONTACTS, [keys.contacts(t) for t in set(tavla_ids)])}


def update(tavla_id: str, profile: Item, contacts: Item) -> None:
    """Change public and private fields together (absent keys unchanged, None clears)."""
    writes: list[dict[str, Any]] = []
    if profile:
        writes.append(
            {"Update": {"TableName": table_name(MAIN), "Key": keys.profile(tavla_id), **_set(profile)}}
        )
    if contacts:
        writes.append(
            {
                "Update": {
                    "TableName": table_name(CONTACTS),
                    "Key": keys.contacts(tavla_id),
                    **_set(contacts),
                }
            }
        )
    if writes:
        client().transact_write_items(TransactItems=writes)


def _set(fields: Item) -> dict[str, Any]:
    names = {f"#f{i}": name for i, name in enumerate(fields)}
    to_set = [(f"#f{i}", f":v{i}") for i, (_, v) in enumerate(fields.items()) if v is not None]
    to_remove = [f"#f{i}" for i, (_, v) in enumerate(fields.items()) if v is None]
    expression = ""
    if to_set:
        expression += "SET " + ", ".join(f"{n} = {v}" for n, v in to_set)
    if to_remove:
        expression += " REMOVE " + ", ".join(to_remove)
    result: dict[str, Any] = {"UpdateExpression": expression.strip(), "ExpressionAttributeNames": names}
    if to_set:
        result["ExpressionAttributeValues"] = serialize(
            {f":v{i}": v for i, (_, v) in enumerate(fields.items()) if v is not None}
        )
    return result


def tavla_ids_by_phone(phone: str) -> list[str]:
    """The players with this E.164 phone number (contacts GSI); two means it is ambiguous."""
    response = client().query(
        TableName=table_name(CONTACTS),
        IndexName=CONTACTS.index("by_phone").name,
        KeyConditionExpression="phone = :p",
        ExpressionAttributeValues={":p": {"S": phone}},
        Limit=2,
    )
    return [str(deserialize(i)["tavla_id"]) for i in response.get("Items", [])]


def merge(kept: Item, merged: Item, contacts: Item, now: datetime) -> None:
    """Move the merged player's entries, sign-in and contacts to `kept` in one transaction (R1.1).

    Refused (Conflict) when both players are entered in the same tournament: a referee
    decides which entry stays before the merge.
    """
    keep_id, merge_id = kept["tavla_id"], merged["tavla_id"]
    kept_tournaments = {r["tournament_id"] for r in registrations.of_player(keep_id)}
    moving = registrations.of_player(merge_id)
    clash = [r["tournament_id"] for r in moving if r["tournament_id"] in kept_tournaments]
    if clash:
        raise Conflict(f"Both players are entered in tournament {clash[0]}: withdraw one entry first.")
    writes: list[dict[str, Any]] = []
    for entry in moving:
        old_key = keys.registration(entry["tournament_id"], merge_id)
        new_key = keys.registration(entry["tournament_id"], keep_id)
        moved = {**entry, **deserialize(new_key), "tavla_id": keep_id, "gsi1pk": keys.player_pk(keep_id)}
        writes.append({"Delete": {"TableName": table_name(MAIN), "Key": old_key}})
        writes.append(
            {
                "Put": {
                    "TableName": table_name(MAIN),
                    "Item": serialize(moved),
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            }
        )
        writes.append(
            {
                "Update": {
                    "TableName": table_name(MAIN),
                    "Key": keys.checkin_code(entry["checkin_code"]),
                    "UpdateExpression": "SET tavla_id = :k",
                    "ExpressionAttributeValues": {":k": {"S": keep_id}},
                }
            }
        )
    if merged.get("user_sub"):
        writes.append(
            {
                "Update": {
                    "TableName": table_name(MAIN),
                    "Key": keys.identity(merged["user_sub"]),
                    "UpdateExpression": "SET tavla_id = :k",
                    "ExpressionAttributeValues": {":k": {"S": keep_id}},
                }
            }
        )
    writes.append(
        {
            "Update": {
                "TableName": table_name(MAIN),
                "Key": keys.profile(merge_id),
                "UpdateExpression": "SET merged_into = :k, merged_at = :at",
                "ConditionExpression": "attribute_not_exists(merged_into)",
                "ExpressionAttributeValues": {":k": {"S": keep_id}, ":at": {"S": now.isoformat()}},
            }
        }
    )
    writes.append(
        {"Put": {"TableName": table_name(CONTACTS), "Item": serialize({**contacts, "tavla_id": keep_id})}}
    )
    writes.append({"Delete": {"TableName": table_name(CONTACTS), "Key": keys.contacts(merge_id)}})
    if len(writes) > 100:
        raise Conflict("Too many entries to merge in one step; contact support.")
    client().transact_write_items(TransactItems=writes)
