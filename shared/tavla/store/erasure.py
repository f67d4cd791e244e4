"""A player's erasure (R12, GDPR Art. 17) as writes: the account's own items in one
transaction, then the copies of the name that other records keep, each step safe to repeat.

The identity item stays as a tombstone (`erased_at`, no profile behind it any more for the
caller): the same request again finds it and finishes what a failure left, instead of
answering that there is no profile.
"""

from __future__ import annotations

from typing import Any

from tavla.rules import privacy
from tavla.store import audit, keys
from tavla.store import players as player_store
from tavla.store.dynamo import Item, batch_write, client, deserialize, query_all, query_prefix, table_name
from tavla.store.records import AuditRecord, ContactsRecord
from tavla.store.schema import CONTACTS, MAIN
from tavla.store.transactions import Cancelled, Transaction

# what of a player's own partition stays: the public profile (under the pseudonym), the rating
# history (public results), and the markers that keep an old event from notifying them again
_KEPT_PREFIXES = ("PROFILE", keys.RATING_PREFIX, "NOTIFIED#")


class AlreadyErased(Exception):
    """The profile was erased under another pseudonym meanwhile."""


def identity(sub: str) -> Item | None:
    """The sign-in's identity item as stored, tombstone or not."""
    found = client().get_item(TableName=table_name(MAIN), Key=keys.identity(sub), ConsistentRead=True)
    return deserialize(found["Item"]) if "Item" in found else None


def erase_account(
    tavla_id: str,
    sub: str,
    pseudonym: str,
    at: str,
    contacts: ContactsRecord,
    record: AuditRecord,
) -> None:
    """The profile under its pseudonym (club, city and sign-in gone), the contacts, the browsers'
    push subscriptions and the phone claim deleted, the identity made a tombstone, and the
    federation's audit record, at once. Repeating it with the same pseudonym changes nothing more."""
    tx = Transaction()
    tx.update(
        "profile",
        MAIN,
        keys.profile(tavla_id),
        "SET #name = :p, erased_at = if_not_exists(erased_at, :at) REMOVE club, city, user_sub",
        condition="attribute_exists(pk) AND (attribute_not_exists(erased_at) OR #name = :p)",
        names={"#name": "name"},
        values={"p": pseudonym, "at": at},
    )
    tx.delete("contacts", CONTACTS, keys.contacts(tavla_id))
    for n, subscription in enumerate(sorted(contacts.push_subs or ())):  # at most a few browsers
        tx.delete(f"push {n}", CONTACTS, keys.push_subscription(subscription))
    if contacts.phone:
        player_store.forget_claim(tx, contacts.phone, tavla_id)
    tx.update(
        "identity",
        MAIN,
        keys.identity(sub),
        "SET erased_at = if_not_exists(erased_at, :at)",
        condition="tavla_id = :me",
        values={"at": at, "me": tavla_id},
    )
    audit.record_federation(tx, record)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("profile"):
            raise AlreadyErased(tavla_id) from cancelled
        raise


def _personal_items(tavla_id: str) -> list[dict[str, Any]]:
    """Keys of the player's partition that go: notices, invitation pointers, push subscriptions
    and whatever else a feature keeps there about them, all but what `_KEPT_PREFIXES` names."""
    found = query_all(
        TableName=table_name(MAIN),
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": keys.player_pk(tavla_id)}},
        ProjectionExpression="pk, sk",
    )
    return [
        {"pk": {"S": i["pk"]}, "sk": {"S": i["sk"]}}
        for i in found
        if not str(i["sk"]).startswith(_KEPT_PREFIXES)
    ]


def delete_personal_items(tavla_id: str) -> int:
    """Delete the player's own items but the public ones; returns how many went."""
    gone = _personal_items(tavla_id)
    gone.append(keys.organiser_request(tavla_id))  # a request to organise: its club and reason
    batch_write(MAIN, [], gone)
    return len(gone) - 1


def rename_registrations(tournament_ids: list[str], tavla_id: str, pseudonym: str) -> None:
    """The name an entry took at check-in becomes the pseudonym (only where the entry has one),
    and its club goes."""
    for tournament_id in tournament_ids:
        try:
            client().update_item(
                TableName=table_name(MAIN),
                Key=keys.registration(tournament_id, tavla_id),
                UpdateExpression="SET player_name = :p REMOVE club",
                ConditionExpression="attribute_exists(player_name)",
                ExpressionAttributeValues={":p": {"S": pseudonym}},
            )
        except client().exceptions.ConditionalCheckFailedException:
            continue


def _expression(path: privacy.Path, names: dict[str, str]) -> str:
    """A document path as an expression (`#n0[3].#n1`), its attribute names added to `names`."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
            continue
        placeholder = next((k for k, v in names.items() if v == part), f"#n{len(names)}")
        names[placeholder] = part
        out += ("." if out else "") + placeholder
    return out


def rename_in(key: dict[str, Any], tavla_id: str, pseudonym: str) -> int:
    """The player's name inside one stored document (final standings, a field) becomes the
    pseudonym: each name is set where the id beside it is still the player's, so a document
    changed meanwhile is read again rather than overwritten. Returns the names replaced."""
    for _ in range(5):
        found = client().get_item(TableName=table_name(MAIN), Key=key, ConsistentRead=True).get("Item")
        item = deserialize(found) if found else {}
        paths = [
            (n, o)
            for n, o in privacy.name_paths(item, tavla_id)
            if n[-1] in privacy.DROPPED_FIELDS or _at(item, n) != pseudonym
        ]
        if not paths:
            return 0
        names: dict[str, str] = {}
        sets = [f"{_expression(n, names)} = :p" for n, _ in paths if n[-1] in privacy.NAME_FIELDS]
        drops = [_expression(n, names) for n, _ in paths if n[-1] in privacy.DROPPED_FIELDS]
        checks = [f"{_expression(o, names)} = :me" for _, o in paths]
        expression = ("SET " + ", ".join(sets) if sets else "") + (
            " REMOVE " + ", ".join(drops) if drops else ""
        )
        values = {":me": {"S": tavla_id}, **({":p": {"S": pseudonym}} if sets else {})}
        try:
            client().update_item(
                TableName=table_name(MAIN),
                Key=key,
                UpdateExpression=expression.strip(),
                ConditionExpression=" AND ".join(checks),
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=values,
            )
            return len(paths)
        except client().exceptions.ConditionalCheckFailedException:
            continue
    raise RuntimeError(f"{key} kept changing while the erased player's name was replaced")


def _at(item: Any, path: privacy.Path) -> Any:
    for part in path:
        item = item[part]
    return item


def bank_lines_of(tournament_id: str, tavla_id: str) -> list[dict[str, Any]]:
    """Keys of the tournament's statement lines that paid this player's entry and still name a payer."""
    found = query_prefix(
        MAIN,
        keys.tournament_pk(tournament_id),
        keys.BANKLINE_PREFIX,
        FilterExpression="tavla_id = :me AND (attribute_exists(payer) OR attribute_exists(#text))",
        ExpressionAttributeNames={"#text": "text"},
        ExpressionAttributeValues={":me": {"S": tavla_id}},
        ProjectionExpression="pk, sk",
    )
    return [{"pk": {"S": i["pk"]}, "sk": {"S": i["sk"]}} for i in found]


def forget_payer(key: dict[str, Any]) -> None:
    """A statement line keeps its amount, date and the entry it paid; the payer's name and the
    transfer's text go (R12)."""
    client().update_item(
        TableName=table_name(MAIN),
        Key=key,
        UpdateExpression="REMOVE payer, #text",
        ConditionExpression="attribute_exists(pk)",
        ExpressionAttributeNames={"#text": "text"},
    )


def documents_naming(tournament_id: str) -> list[dict[str, Any]]:
    """The documents of a tournament that copy players' names: its field and final standings."""
    return [keys.field(tournament_id), keys.standings(tournament_id)]
