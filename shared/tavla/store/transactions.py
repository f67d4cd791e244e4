"""One DynamoDB transaction, its items named: a cancellation is read by name, never by position.

    tx = Transaction()
    tx.update("tournament", MAIN, keys.tournament(tid), "SET n = n + :one", values={"one": 1},
              condition="n < :cap", return_old=True)
    tx.put("registration", MAIN, item, condition="attribute_not_exists(pk)")
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("registration"): ...
        old = cancelled.old("tournament")

Tables are given as their declarations (`schema.MAIN`); the physical name comes from the
environment, so no table name is spelt by hand.
"""

from __future__ import annotations

import time
from typing import Any

from botocore.exceptions import ClientError

from tavla.errors import Busy
from tavla.store.dynamo import Item, client, deserialize, error_code, serialize, table_name, values
from tavla.store.schema import TableSpec

MAX_ITEMS = 100  # DynamoDB's limit per transaction
CONFLICT_RETRIES = 3  # a cancellation by TransactionConflict alone (no condition false) is retried
_CONDITION_FAILED = "ConditionalCheckFailed"
# per-item reasons of a cancellation nobody's request is to blame for ("None": the item was fine)
_TEMPORARY = frozenset({"None", "TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded"})


class Cancelled(Exception):
    """The transaction was cancelled; `reasons` maps each item's name to DynamoDB's reason."""

    def __init__(self, reasons: dict[str, dict[str, Any]]) -> None:
        super().__init__(
            ", ".join(f"{n}: {r.get('Code')}" for n, r in reasons.items() if r.get("Code") != "None")
        )
        self.reasons = reasons

    def failed(self, name: str) -> bool:
        """The named item's condition was false."""
        return self.reasons.get(name, {}).get("Code") == _CONDITION_FAILED

    def old(self, name: str) -> Item | None:
        """The named item as it was when its condition failed (asked for with `return_old`)."""
        raw = self.reasons.get(name, {}).get("Item")
        return deserialize(raw) if raw else None

    @property
    def conflicted(self) -> bool:
        """Another transaction was using one of the items at the same moment."""
        return any(r.get("Code") == "TransactionConflict" for r in self.reasons.values())

    @property
    def temporary(self) -> bool:
        """Cancelled by a conflict or by throttling alone: nothing about the request is wrong."""
        return all(r.get("Code") in _TEMPORARY for r in self.reasons.values())

    @property
    def any_failed(self) -> bool:
        return any(r.get("Code") == _CONDITION_FAILED for r in self.reasons.values())


class Transaction:
    """TransactWriteItems built item by item, each under a unique name."""

    def __init__(self) -> None:
        self._items: list[tuple[str, dict[str, Any]]] = []

    def __len__(self) -> int:
        return len(self._items)

    def new_items(self, table: TableSpec) -> list[Item]:
        """The items this transaction puts into `table`, as plain values (what the table's stream
        shows as new images once it ran)."""
        name = table_name(table)
        return [
            deserialize(op["Put"]["Item"])
            for _, op in self._items
            if op.get("Put", {}).get("TableName") == name
        ]

    def put(
        self,
        name: str,
        table: TableSpec,
        item: Item,
        *,
        condition: str | None = None,
        names: dict[str, str] | None = None,
        values: dict[str, Any] | None = None,
        return_old: bool = False,
    ) -> None:
        self._add(name, "Put", table, {"Item": serialize(item)}, condition, names, values, return_old)

    def update(
        self,
        name: str,
        table: TableSpec,
        key: dict[str, Any],
        expression: str,
        *,
        condition: str | None = None,
        names: dict[str, str] | None = None,
        values: dict[str, Any] | None = None,
        return_old: bool = False,
    ) -> None:
        self._add(
            name,
            "Update",
            table,
            {"Key": key, "UpdateExpression": expression},
            condition,
            names,
            values,
            return_old,
        )

    def delete(
        self,
        name: str,
        table: TableSpec,
        key: dict[str, Any],
        *,
        condition: str | None = None,
        names: dict[str, str] | None = None,
        values: dict[str, Any] | None = None,
        return_old: bool = False,
    ) -> None:
        self._add(name, "Delete", table, {"Key": key}, condition, names, values, return_old)

    def check(
        self,
        name: str,
        table: TableSpec,
        key: dict[str, Any],
        condition: str,
        *,
        names: dict[str, str] | None = None,
        values: dict[str, Any] | None = None,
        return_old: bool = False,
    ) -> None:
        self._add(name, "ConditionCheck", table, {"Key": key}, condition, names, values, return_old)

    def _add(
        self,
        name: str,
        kind: str,
        table: TableSpec,
        body: dict[str, Any],
        condition: str | None,
        names: dict[str, str] | None,
        named_values: dict[str, Any] | None,
        return_old: bool,
    ) -> None:
        if any(existing == name for existing, _ in self._items):
            raise ValueError(f"two transaction items named {name!r}")
        operation: dict[str, Any] = {"TableName": table_name(table), **body}
        if condition:
            operation["ConditionExpression"] = condition
        if names:
            operation["ExpressionAttributeNames"] = names
        if named_values:
            operation["ExpressionAttributeValues"] = values(**named_values)
        if return_old:
            operation["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
        self._items.append((name, {kind: operation}))

    def run(self) -> None:
        """Write every item or none; Cancelled (reasons by name) when DynamoDB cancels it."""
        if not self._items:
            return
        if len(self._items) > MAX_ITEMS:
            raise ValueError(f"a transaction holds at most {MAX_ITEMS} items, not {len(self._items)}")
        names = [name for name, _ in self._items]
        for attempt in range(CONFLICT_RETRIES + 1):
            try:
                client().transact_write_items(TransactItems=[item for _, item in self._items])
                return
            except ClientError as error:
                reasons = (getattr(error, "response", {}) or {}).get("CancellationReasons")
                if error_code(error) != "TransactionCanceledException" or not reasons:
                    raise
                cancelled = Cancelled(dict(zip(names, reasons, strict=False)))
                if cancelled.any_failed or not cancelled.temporary:
                    raise cancelled from error
                if attempt == CONFLICT_RETRIES or not cancelled.conflicted:
                    # nothing was written and nothing refused it: the same request may succeed
                    # in a moment; a 503 with Retry-After, never a refusal by the caller's site
                    raise Busy("This tournament is very busy right now: try again.") from cancelled
            # another transaction held one of the items and nothing was written: write again
            time.sleep(0.02 * (attempt + 1))
