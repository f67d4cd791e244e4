"""Players: identities (user -> Tavla ID), public profiles, private contacts (R1, R12).

One account per phone number: each number has a claim item in the contacts table, written
with `attribute_not_exists` in the same transaction as the contacts that carry it, and
deleted (only by its owner) when the number changes or is cleared.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from tavla.errors import Conflict, PhoneTaken, PlayerNotFound, ProfileExists, ProfileMissing
from tavla.store import keys, outbox
from tavla.store import registrations as registration_store
from tavla.store.dynamo import Item, batch_get, batch_get_tables, client, deserialize, table_name
from tavla.store.records import ContactsRecord, ProfileRecord, RegistrationRecord
from tavla.store.schema import CONTACTS, MAIN
from tavla.store.transactions import Cancelled, Transaction

PHONE_TAKEN = "This phone number belongs to another Tavla account: one account per phone number."


class TavlaIdTaken(Exception):
    """The randomly drawn Tavla ID is in use; draw another."""


def _contacts_item(contacts: ContactsRecord) -> Item:
    return {**keys.plain(keys.contacts(contacts.tavla_id)), **contacts.to_item()}


def _claim(tx: Transaction, phone: str, tavla_id: str) -> None:
    claim = {**keys.plain(keys.phone_claim(phone)), "tavla_id": tavla_id}
    tx.put("phone claim", CONTACTS, claim, condition="attribute_not_exists(pk)")


def _release(tx: Transaction, phone: str, tavla_id: str) -> None:
    tx.delete(
        "old phone claim",
        CONTACTS,
        keys.phone_claim(phone),
        condition="tavla_id = :me",
        values={"me": tavla_id},
    )


def forget_claim(tx: Transaction, phone: str, tavla_id: str) -> None:
    """Delete the player's claim on this number with their contacts (erasure, retention): a
    claim already gone is fine, another account's is never touched."""
    tx.delete(
        "phone claim",
        CONTACTS,
        keys.phone_claim(phone),
        condition="attribute_not_exists(pk) OR tavla_id = :me",
        values={"me": tavla_id},
    )


def _raise_phone_taken(cancelled: Cancelled) -> None:
    if cancelled.failed("phone claim"):
        raise PhoneTaken(PHONE_TAKEN) from cancelled


def create(sub: str, profile: ProfileRecord, contacts: ContactsRecord) -> None:
    """Identity, profile, contacts and phone claim in one transaction: one account per user,
    unique IDs, one account per phone number (R1.1)."""
    tavla_id = profile.tavla_id
    tx = Transaction()
    identity = {**keys.plain(keys.identity(sub)), "tavla_id": tavla_id}
    # an erased account's tombstone does not stop the same sign-in starting afresh
    tx.put("identity", MAIN, identity, condition="attribute_not_exists(pk) OR attribute_exists(erased_at)")
    tx.put(
        "profile",
        MAIN,
        {**keys.plain(keys.profile(tavla_id)), **profile.to_item(), "user_sub": sub},
        condition="attribute_not_exists(pk)",
    )
    tx.put("contacts", CONTACTS, _contacts_item(contacts))
    if contacts.phone:
        _claim(tx, contacts.phone, tavla_id)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("identity"):
            raise ProfileExists("You already have a player profile.") from cancelled
        if cancelled.failed("profile"):
            raise TavlaIdTaken(tavla_id) from cancelled
        _raise_phone_taken(cancelled)
        raise


def tavla_id_of(sub: str) -> str:
    """The caller's Tavla ID; ProfileMissing when they have not created a profile yet."""
    found = tavla_id_or_none(sub)
    if found is None:
        raise ProfileMissing("Create your player profile first (POST /players).")
    return found


def tavla_id_or_none(sub: str) -> str | None:
    """The sign-in's Tavla ID; None without one, or once its account was erased (a tombstone)."""
    response = client().get_item(TableName=table_name(MAIN), Key=keys.identity(sub))
    found = deserialize(response["Item"]) if "Item" in response else {}
    return str(found["tavla_id"]) if found and "erased_at" not in found else None


def get_profile(tavla_id: str) -> ProfileRecord:
    response = client().get_item(TableName=table_name(MAIN), Key=keys.profile(tavla_id))
    if "Item" not in response:
        raise PlayerNotFound(f"No player with Tavla ID {tavla_id}.")
    return ProfileRecord.from_item(deserialize(response["Item"]))


def get_profile_and_contacts(tavla_id: str) -> tuple[ProfileRecord, ContactsRecord]:
    found = batch_get_tables({MAIN: [keys.profile(tavla_id)], CONTACTS: [keys.contacts(tavla_id)]})
    if not found[MAIN.name]:
        raise PlayerNotFound(f"No player with Tavla ID {tavla_id}.")
    contacts = found[CONTACTS.name]
    return (
        ProfileRecord.from_item(found[MAIN.name][0]),
        ContactsRecord.from_item(contacts[0]) if contacts else ContactsRecord(tavla_id=tavla_id),
    )


def get_profiles(tavla_ids: Sequence[str]) -> dict[str, ProfileRecord]:
    """Public profiles by Tavla ID (BatchGetItem in chunks of 100, unprocessed keys retried)."""
    found = batch_get(MAIN, [keys.profile(t) for t in set(tavla_ids)])
    return {p.tavla_id: p for p in map(ProfileRecord.from_item, found)}


def get_contacts(tavla_ids: Sequence[str]) -> dict[str, ContactsRecord]:
    found = batch_get(CONTACTS, [keys.contacts(t) for t in set(tavla_ids)])
    return {c.tavla_id: c for c in map(ContactsRecord.from_item, found)}


def tavla_id_by_phone(phone: str) -> str | None:
    """The one account holding this E.164 number (its claim), if any."""
    response = client().get_item(
        TableName=table_name(CONTACTS), Key=keys.phone_claim(phone), ConsistentRead=True
    )
    return str(deserialize(response["Item"])["tavla_id"]) if "Item" in response else None


def update(tavla_id: str, public: Item, private: Item, old_phone: str | None) -> None:
    """Change public and private fields together (absent keys unchanged, None clears).

    A new phone number is claimed (PhoneTaken when another account holds it) and the old
    claim released in the same transaction, provided the number is still `old_phone`.
    """
    tx = Transaction()
    if public:
        tx.update("profile", MAIN, keys.profile(tavla_id), **_set(public))
    phone_changes = "phone" in private and private["phone"] != old_phone
    if private:
        condition: dict[str, Any] = {}
        if phone_changes:
            condition = (
                {"condition": "attribute_not_exists(phone)"}
                if old_phone is None
                else {"condition": "phone = :old_phone", "values": {"old_phone": old_phone}}
            )
        changes = _set({**private, "tavla_id": tavla_id})
        if "values" in condition:
            changes["values"] = {**changes.get("values", {}), **condition.pop("values")}
        tx.update("contacts", CONTACTS, keys.contacts(tavla_id), **changes, **condition)
    if phone_changes:
        if private["phone"]:
            _claim(tx, private["phone"], tavla_id)
        if old_phone:
            _release(tx, old_phone, tavla_id)
    try:
        tx.run()
    except Cancelled as cancelled:
        _raise_phone_taken(cancelled)
        if cancelled.any_failed:
            raise Conflict("Your profile changed meanwhile; read it again and retry.") from cancelled
        raise


def _set(fields: Item) -> dict[str, Any]:
    """An update expression setting the given fields (None: removing them)."""
    names = {f"#f{i}": name for i, name in enumerate(fields)}
    to_set = [(f"#f{i}", f":v{i}") for i, (_, v) in enumerate(fields.items()) if v is not None]
    to_remove = [f"#f{i}" for i, (_, v) in enumerate(fields.items()) if v is None]
    expression = ""
    if to_set:
        expression += "SET " + ", ".join(f"{n} = {v}" for n, v in to_set)
    if to_remove:
        expression += " REMOVE " + ", ".join(to_remove)
    result: dict[str, Any] = {"expression": expression.strip(), "names": names}
    if to_set:
        result["values"] = {f"v{i}": v for i, (_, v) in enumerate(fields.items()) if v is not None}
    return result


def merge(
    kept: ProfileRecord,
    merged: ProfileRecord,
    moving: Sequence[RegistrationRecord],
    merged_contacts: ContactsRecord,
    contacts: ContactsRecord,
    now: datetime,
    events: Sequence[outbox.Event] = (),
) -> None:
    """Move the merged player's entries, sign-in, contacts and phone claim to `kept` in one
    transaction (R1.1), with the merge's events. `contacts` are the kept player's contacts after
    the merge."""
    keep_id, merge_id = kept.tavla_id, merged.tavla_id
    tx = Transaction()
    for entry in moving:
        tx.delete(f"old entry {entry.tournament_id}", MAIN, keys.registration(entry.tournament_id, merge_id))
        moved = registration_store.to_item(replace(entry, tavla_id=keep_id))
        tx.put(f"new entry {entry.tournament_id}", MAIN, moved, condition="attribute_not_exists(pk)")
        tx.update(
            f"code {entry.tournament_id}",
            MAIN,
            keys.checkin_code(entry.checkin_code),
            "SET tavla_id = :k",
            values={"k": keep_id},
        )
    if merged.user_sub:
        tx.update(
            "identity", MAIN, keys.identity(merged.user_sub), "SET tavla_id = :k", values={"k": keep_id}
        )
    tx.update(
        "merged profile",
        MAIN,
        keys.profile(merge_id),
        "SET merged_into = :k, merged_at = :at",
        condition="attribute_not_exists(merged_into)",
        values={"k": keep_id, "at": now.isoformat()},
    )
    tx.put("contacts", CONTACTS, _contacts_item(contacts))
    tx.delete("merged contacts", CONTACTS, keys.contacts(merge_id))
    old_phone = merged_contacts.phone
    if old_phone and contacts.phone == old_phone:
        tx.update(
            "phone claim",
            CONTACTS,
            keys.phone_claim(old_phone),
            "SET tavla_id = :k",
            condition="tavla_id = :m",
            values={"k": keep_id, "m": merge_id},
        )
    elif old_phone:
        _release(tx, old_phone, merge_id)
    outbox.add(tx, events)
    if len(tx) > 100:
        raise Conflict("Too many entries to merge in one step; contact support.")
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.any_failed:
            raise Conflict("One of the two accounts changed meanwhile; try the merge again.") from cancelled
        raise
