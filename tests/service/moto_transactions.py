"""moto's TransactWriteItems, rolled back item by item instead of table by table.

moto backs a transaction up by deep-copying every table it names, whole, and puts the copy
back when the transaction is cancelled: each transaction costs the size of the table, so a
test that plays a day or a season spent most of its time copying (37 % of a season test's
samples, more as the day grows). This keeps what moto promises (all or nothing, the
cancellation reasons, nothing of a cancelled transaction on the table's stream) but backs up
only the items the transaction names and the stream's length, and puts those back.
"""

from __future__ import annotations

import copy
from typing import Any

from moto.dynamodb import models
from moto.dynamodb.models.dynamo_type import DynamoType, Item
from moto.dynamodb.models.table import StreamShard, Table

_OPERATIONS = {"ConditionCheck", "Put", "Delete", "Update"}
_whole_tables = models.DynamoDBBackend.transact_write_items


class _TablesByReference:
    """`copy` as moto's backend module sees it: a table it "copies" is the table itself (its
    whole-table backup becomes free); every other value is deep-copied as before."""

    @staticmethod
    def deepcopy(value: Any, memo: dict[int, Any] | None = None) -> Any:
        return value if isinstance(value, Table) else copy.deepcopy(value, memo)


def _key(table: Table, operation: str, request: dict[str, Any]) -> tuple[DynamoType, DynamoType | None]:
    attributes = request["Item"] if operation == "Put" else request["Key"]
    range_key = DynamoType(attributes[table.range_key_attr]) if table.range_key_attr else None
    return DynamoType(attributes[table.hash_key_attr]), range_key


def _put_back(table: Table, hash_key: DynamoType, range_key: DynamoType | None, item: Item | None) -> None:
    if range_key is None:
        if item is None:
            table.items.pop(hash_key, None)
        else:
            table.items[hash_key] = item  # type: ignore[assignment]  # a table without a range key
    elif item is None:
        table.items[hash_key].pop(range_key, None)
    else:
        table.items[hash_key][range_key] = item


def transact_write_items(self: models.DynamoDBBackend, transact_items: list[dict[str, Any]]) -> None:
    saved: list[tuple[Table, DynamoType, DynamoType | None, Item | None]] = []
    streams: dict[int, tuple[StreamShard, int]] = {}
    for entry in transact_items:
        operation, request = next(iter(entry.items()))
        table = self.tables.get(request.get("TableName")) if operation in _OPERATIONS else None
        if table is None:
            continue  # moto refuses it itself, before anything is written
        try:
            hash_key, range_key = _key(table, operation, request)
        except KeyError:
            continue
        saved.append((table, hash_key, range_key, copy.deepcopy(table.get_item(hash_key, range_key))))
        if table.stream_shard is not None:
            streams.setdefault(id(table), (table.stream_shard, len(table.stream_shard.items)))
    try:
        _whole_tables(self, transact_items)
    except Exception:
        for table, hash_key, range_key, item in reversed(saved):
            _put_back(table, hash_key, range_key, item)
        for shard, length in streams.values():
            del shard.items[length:]
        raise


def install() -> None:
    models.copy = _TablesByReference  # type: ignore[attr-defined,assignment]
    models.DynamoDBBackend.transact_write_items = transact_write_items  # type: ignore[method-assign]
