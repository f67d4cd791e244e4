"""Registrations and the waiting list: every capacity and order invariant is a condition here.

Capacity (R3.2) is a condition on the tournament's `registered` counter, one registration
per player (R3.1) is `attribute_not_exists` on REG#<tavla_id>, waiting-list order is the
monotonic `wait_seq` guarded by an optimistic condition, and promotion on withdrawal is one
transaction that removes the leaver and promotes the first waiting player only if that
player is still waiting.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from botocore.exceptions import ClientError

from tavla.errors import AlreadyRegistered, CheckinClosed, NotRegistered, RegistrationClosed
from tavla.store import keys
from tavla.store.dynamo import (
    Item,
    batch_get,
    cancellation_codes,
    client,
    deserialize,
    serialize,
    table_name,
    values,
)
from tavla.store.schema import MAIN

OPEN = "open"


class Full(Exception):
    """The main list is full: the registration belongs on the waiting list."""


class NotFull(Exception):
    """A place is free on the main list: the registration belongs there."""


class Contended(Exception):
    """Another change to the waiting list won the race; read again and retry."""


class CodeTaken(Exception):
    """The randomly drawn check-in code exists; draw another."""


@dataclass(frozen=True)
class Snapshot:
    """What one BatchGetItem tells: the caller's Tavla ID (if any) and the tournament (if any)."""

    tavla_id: str | None
    tournament: Item | None
    registration: Item | None = None
    profile: Item | None = None


def snapshot(tournament_id: str, *, sub: str | None = None, tavla_id: str | None = None) -> Snapshot:
    """One call: the tournament, plus the caller's identity (by sub) or a player's
    registration and public profile (by Tavla ID)."""
    wanted = [keys.tournament(tournament_id)]
    if sub is not None:
        wanted.append(keys.identity(sub))
    if tavla_id is not None:
        wanted.append(keys.registration(tournament_id, tavla_id))
        wanted.append(keys.profile(tavla_id))
    found = batch_get(MAIN, wanted, consistent=True)
    by_sk = {i["sk"]: i for i in found}
    registration = next((i for i in found if i["sk"].startswith(keys.REG_PREFIX)), None)
    identity = by_sk.get("IDENTITY")
    return Snapshot(
        tavla_id=identity["tavla_id"] if identity else tavla_id,
        tournament=by_sk.get("META"),
        registration=registration,
        profile=by_sk.get("PROFILE"),
    )


def _open_condition() -> str:
    return "#status = :open AND closes_epoch > :now"


def _reg_put(registration: Item) -> dict[str, Any]:
    return {
        "Put": {
            "TableName": table_name(MAIN),
            "Item": serialize(registration),
            "ConditionExpression": "attribute_not_exists(pk)",
        }
    }


def _code_put(code: str, tournament_id: str, tavla_id: str) -> dict[str, Any]:
    item = {**deserialize(keys.checkin_code(code)), "tournament_id": tournament_id, "tavla_id": tavla_id}
    return {
        "Put": {
            "TableName": table_name(MAIN),
            "Item": serialize(item),
            "ConditionExpression": "attribute_not_exists(pk)",
        }
    }


def _closed_or(meta_after_failure: Item | None, now: datetime) -> None:
    if meta_after_failure is None:
        return
    if (
        meta_after_failure.get("status") != OPEN
        or meta_after_failure.get("closes_epoch", 0) <= now.timestamp()
    ):
        raise RegistrationClosed("Registration for this tournament is closed.")


def has_free_place(tournament: Item) -> bool:
    """A newcomer may take a main-list place: one is free and nobody is waiting for it."""
    return int(tournament.get("registered", 0)) < int(tournament["capacity"]) and not tournament.get(
        "waiting"
    )


def _old_item(error: ClientError, index: int) -> Item | None:
    reasons: list[dict[str, Any]] = list(error.response.get("CancellationReasons", []))  # type: ignore[arg-type]
    if index < len(reasons) and "Item" in reasons[index]:
        return deserialize(reasons[index]["Item"])
    return None


def _raise_for_entry(error: ClientError, now: datetime) -> None:
    codes = cancellation_codes(error)
    if len(codes) > 1 and codes[1] == "ConditionalCheckFailed":
        raise AlreadyRegistered("You are already registered for this tournament.") from error
    if codes and codes[0] == "ConditionalCheckFailed":
        _closed_or(_old_item(error, 0), now)
    if len(codes) > 2 and codes[2] == "ConditionalCheckFailed":
        raise CodeTaken from error


def add_registered(tournament_id: str, registration: Item, now: datetime) -> None:
    """Take a place on the main list: never beyond capacity, never twice, never ahead of
    anyone already waiting (R3.1, R3.2)."""
    try:
        client().transact_write_items(
            TransactItems=[
                {
                    "Update": {
                        "TableName": table_name(MAIN),
                        "Key": keys.tournament(tournament_id),
                        "UpdateExpression": "SET registered = registered + :one",
                        "ConditionExpression": f"{_open_condition()} AND registered < #capacity"
                        " AND waiting = :zero",
                        "ExpressionAttributeNames": {"#status": "status", "#capacity": "capacity"},
                        "ExpressionAttributeValues": values(
                            one=1, zero=0, open=OPEN, now=int(now.timestamp())
                        ),
                        "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                    }
                },
                _reg_put(registration),
                _code_put(registration["checkin_code"], tournament_id, registration["tavla_id"]),
            ]
        )
    except ClientError as error:
        _raise_for_entry(error, now)
        if cancellation_codes(error)[:1] == ["ConditionalCheckFailed"]:
            raise Full from error
        raise


def add_waiting(tournament_id: str, registration: Item, seen: Item, now: datetime) -> int:
    """Join the end of the waiting list; returns the position. Raises Contended on a race."""
    waiting, sequence = int(seen.get("waiting", 0)), int(seen.get("wait_seq", 0))
    entry = {**registration, "wait_q": keys.wait_q(sequence + 1)}
    try:
        client().transact_write_items(
            TransactItems=[
                {
                    "Update": {
                        "TableName": table_name(MAIN),
                        "Key": keys.tournament(tournament_id),
                        "UpdateExpression": "SET waiting = :w1, wait_seq = :s1",
                        "ConditionExpression": f"{_open_condition()}"
                        " AND (registered >= #capacity OR waiting > :zero)"
                        " AND waiting = :w0 AND wait_seq = :s0",
                        "ExpressionAttributeNames": {"#status": "status", "#capacity": "capacity"},
                        "ExpressionAttributeValues": values(
                            open=OPEN,
                            now=int(now.timestamp()),
                            zero=0,
                            w0=waiting,
                            w1=waiting + 1,
                            s0=sequence,
                            s1=sequence + 1,
                        ),
                        "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                    }
                },
                _reg_put(entry),
                _code_put(registration["checkin_code"], tournament_id, registration["tavla_id"]),
            ]
        )
    except ClientError as error:
        _raise_for_entry(error, now)
        current = _old_item(error, 0)
        if current is not None and has_free_place(current):
            raise NotFull from error
        if current is not None:
            raise Contended from error
        raise
    return waiting + 1


def first_waiting(tournament_id: str, count: int = 1) -> list[Item]:
    """The head of the waiting list, strongly consistent (local secondary index)."""
    response = client().query(
        TableName=table_name(MAIN),
        IndexName=MAIN.index("waitlist").name,
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": keys.tournament_pk(tournament_id)}},
        ConsistentRead=True,
        Limit=count,
    )
    return [deserialize(i) for i in response.get("Items", [])]


def _promotion(tournament_id: str, waiting: Item, now: datetime) -> dict[str, Any]:
    """Move one waiting player to the main list, only if they are still waiting."""
    return {
        "Update": {
            "TableName": table_name(MAIN),
            "Key": keys.registration(tournament_id, waiting["tavla_id"]),
            "UpdateExpression": "SET #status = :registered, listed_at = :now, promoted_at = :now,"
            " waited_q = wait_q REMOVE wait_q",
            "ConditionExpression": "#status = :waitlisted",
            "ExpressionAttributeNames": {"#status": "status"},
            "ExpressionAttributeValues": values(
                registered="registered", waitlisted="waitlisted", now=now.isoformat()
            ),
        }
    }


def promote(tournament_id: str, heads: list[Item], seen: Item, now: datetime) -> None:
    """Promote the head of the waiting list into places that are free (capacity raised).

    `seen` is the tournament as read; raises Contended when its counters moved meanwhile.
    """
    try:
        client().transact_write_items(
            TransactItems=[
                *(_promotion(tournament_id, head, now) for head in heads),
                {
                    "Update": {
                        "TableName": table_name(MAIN),
                        "Key": keys.tournament(tournament_id),
                        "UpdateExpression": "SET registered = registered + :n, waiting = waiting - :n",
                        "ConditionExpression": "#status = :open AND registered = :registered"
                        " AND waiting = :waiting AND #capacity = :capacity",
                        "ExpressionAttributeNames": {"#status": "status", "#capacity": "capacity"},
                        "ExpressionAttributeValues": values(
                            n=len(heads),
                            open=OPEN,
                            registered=seen["registered"],
                            waiting=seen["waiting"],
                            capacity=seen["capacity"],
                        ),
                    }
                },
            ]
        )
    except ClientError as error:
        if cancellation_codes(error):
            raise Contended from error
        raise


def withdraw(
    tournament_id: str,
    tavla_id: str,
    promote: Item | None,
    now: datetime,
    audit: dict[str, Any],
) -> Item:
    """Remove a main-list player and, in the same transaction, promote `promote` (if given).

    Returns the removed registration. Raises Contended when `promote` was promoted or left
    meanwhile (read the head again), NotRegistered when there is nothing to withdraw, and
    WaitingWithdrawal when the player is on the waiting list (use `withdraw_waiting`).
    """
    if promote is not None:
        # the leaver's place goes to the head of the list: the main list stays full
        counters, condition = "SET waiting = waiting - :one", "#status = :open"
        counter_values = values(open=OPEN, one=1)
    else:
        # a place opens; only if nobody joined the waiting list meanwhile (else: retry)
        counters, condition = "SET registered = registered - :one", "#status = :open AND waiting = :zero"
        counter_values = values(open=OPEN, one=1, zero=0)
    items: list[dict[str, Any]] = [
        {
            "Delete": {
                "TableName": table_name(MAIN),
                "Key": keys.registration(tournament_id, tavla_id),
                "ConditionExpression": "#status = :registered",
                "ExpressionAttributeNames": {"#status": "status"},
                "ExpressionAttributeValues": values(registered="registered"),
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
            }
        },
        *([_promotion(tournament_id, promote, now)] if promote is not None else []),
        {
            "Update": {
                "TableName": table_name(MAIN),
                "Key": keys.tournament(tournament_id),
                "UpdateExpression": counters,
                "ConditionExpression": condition,
                "ExpressionAttributeNames": {"#status": "status"},
                "ExpressionAttributeValues": counter_values,
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
            }
        },
        audit,
    ]
    try:
        client().transact_write_items(TransactItems=items)
    except ClientError as error:
        codes = cancellation_codes(error)
        if codes and codes[0] == "ConditionalCheckFailed":
            old = _old_item(error, 0)
            if old is None:
                raise NotRegistered("You are not registered for this tournament.") from error
            raise WaitingWithdrawal(old) from error
        if promote is not None and codes[1:2] == ["ConditionalCheckFailed"]:
            raise Contended from error
        meta_index = len(items) - 2
        if codes[meta_index : meta_index + 1] == ["ConditionalCheckFailed"]:
            meta = _old_item(error, meta_index)
            if meta is not None and meta.get("status") == OPEN:
                raise Contended from error  # somebody joined the waiting list: promote them
            raise RegistrationClosed("The draw has been made: withdraw at the referee table.") from error
        raise
    return {"tavla_id": tavla_id}


class WaitingWithdrawal(Exception):
    """The player to withdraw is on the waiting list, not the main list."""

    def __init__(self, registration: Item) -> None:
        super().__init__(registration.get("tavla_id"))
        self.registration = registration


def withdraw_waiting(tournament_id: str, tavla_id: str, audit: dict[str, Any]) -> None:
    """Leave the waiting list; those behind move up one place."""
    try:
        client().transact_write_items(
            TransactItems=[
                {
                    "Delete": {
                        "TableName": table_name(MAIN),
                        "Key": keys.registration(tournament_id, tavla_id),
                        "ConditionExpression": "#status = :waitlisted",
                        "ExpressionAttributeNames": {"#status": "status"},
                        "ExpressionAttributeValues": values(waitlisted="waitlisted"),
                    }
                },
                {
                    "Update": {
                        "TableName": table_name(MAIN),
                        "Key": keys.tournament(tournament_id),
                        "UpdateExpression": "SET waiting = waiting - :one",
                        "ConditionExpression": "#status = :open",
                        "ExpressionAttributeNames": {"#status": "status"},
                        "ExpressionAttributeValues": values(one=1, open=OPEN),
                    }
                },
                audit,
            ]
        )
    except ClientError as error:
        codes = cancellation_codes(error)
        if codes and codes[0] == "ConditionalCheckFailed":
            raise NotRegistered("You are not on this tournament's lists.") from error
        if len(codes) > 1 and codes[1] == "ConditionalCheckFailed":
            raise RegistrationClosed("The draw has been made: withdraw at the referee table.") from error
        raise


def all_entries(tournament_id: str) -> list[Item]:
    """Every registration of the tournament (main list and waiting list)."""
    items: list[Item] = []
    query: dict[str, Any] = {
        "TableName": table_name(MAIN),
        "KeyConditionExpression": "pk = :pk AND begins_with(sk, :reg)",
        "ExpressionAttributeValues": {
            ":pk": {"S": keys.tournament_pk(tournament_id)},
            ":reg": {"S": keys.REG_PREFIX},
        },
    }
    while True:
        response = client().query(**query)
        items.extend(deserialize(i) for i in response.get("Items", []))
        if "LastEvaluatedKey" not in response:
            return items
        query["ExclusiveStartKey"] = response["LastEvaluatedKey"]


def check_in(tournament_id: str, tavla_id: str, actor: str, now: datetime, audit: dict[str, Any]) -> bool:
    """Mark the player present (R4). Returns False when they were already checked in."""
    try:
        client().transact_write_items(
            TransactItems=[
                {
                    "ConditionCheck": {
                        "TableName": table_name(MAIN),
                        "Key": keys.tournament(tournament_id),
                        "ConditionExpression": "#status = :open AND checkin_open = :yes",
                        "ExpressionAttributeNames": {"#status": "status"},
                        "ExpressionAttributeValues": values(open=OPEN, yes=True),
                    }
                },
                {
                    "Update": {
                        "TableName": table_name(MAIN),
                        "Key": keys.registration(tournament_id, tavla_id),
                        "UpdateExpression": "SET checked_in_at = :now, checked_in_by = :actor",
                        "ConditionExpression": "attribute_exists(pk) AND attribute_not_exists(checked_in_at)",
                        "ExpressionAttributeValues": values(now=now.isoformat(), actor=actor),
                        "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                    }
                },
                audit,
            ]
        )
    except ClientError as error:
        codes = cancellation_codes(error)
        if codes and codes[0] == "ConditionalCheckFailed":
            raise CheckinClosed("Check-in for this tournament is closed.") from error
        if len(codes) > 1 and codes[1] == "ConditionalCheckFailed":
            if _old_item(error, 1) is None:
                raise NotRegistered(f"{tavla_id} is not on this tournament's lists.") from error
            return False
        raise
    return True


def of_player(tavla_id: str) -> list[Item]:
    """A player's registrations across tournaments (gsi1), for 'my data' and merges."""
    response = client().query(
        TableName=table_name(MAIN),
        IndexName=MAIN.index("gsi1").name,
        KeyConditionExpression="gsi1pk = :p",
        ExpressionAttributeValues={":p": {"S": keys.player_pk(tavla_id)}},
    )
    return [deserialize(i) for i in response.get("Items", [])]
