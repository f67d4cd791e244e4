"""The DynamoDB client, table names and item (de)serialization: the store's plumbing."""

from __future__ import annotations

import json
import os
import time
from decimal import Decimal
from functools import cache
from typing import Any

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.config import Config

from tavla import aws
from tavla.store.schema import TableSpec

Item = dict[str, Any]

ATTEMPTS = 4  # botocore's attempts at one call (the first and 3 retries)
_serializer = TypeSerializer()
_deserializer = TypeDeserializer()


@cache
def client() -> Any:
    """One client per process, created on first use so that import stays cheap.

    Throttling and lost requests are retried by botocore (standard mode) at most 4 times in all:
    its backoff sleeps then add up to 7 s at worst (1 + 2 + 4), inside an HTTP function's 10 s,
    after which the API answers 503 with Retry-After (`tavla.http`). `max_attempts: 5` meant 6
    attempts and up to 31 s of sleeps: the Lambda would time out first, a 500, not a 503.

    Typed as Any: the store builds transaction items as plain dicts, which the stubs'
    TypedDicts cannot follow through helper functions.
    """
    made = aws.session().client(
        "dynamodb",
        config=Config(
            retries={"mode": "standard", "total_max_attempts": ATTEMPTS},
            # DynamoDB validates every request itself; botocore's own walk of each request
            # against the model cost a tenth of a confirmation's CPU and more of a draw's
            parameter_validation=False,
        ),
    )
    for operation in ITEM_READS:
        made.meta.events.register(f"before-parse.dynamodb.{operation}", _items_as_sent)
    return made


# reads whose answer is items: botocore's parse of them, value by value against the model, was
# 40 % of a confirmation's CPU (its one BatchGetItem holds the table plan's 2,000 values) and a
# third of the live function's (a board read is every published match)
ITEM_READS = ("GetItem", "BatchGetItem", "Query", "Scan")


def _items_as_sent(response_dict: dict[str, Any], customized_response_dict: dict[str, Any], **_: Any) -> None:
    """A successful item read taken as DynamoDB's JSON sent it, not parsed by botocore: the
    attribute values' JSON is already what botocore would build from it (the store keeps no
    binary values, the one type it would decode). An error is left to botocore."""
    if response_dict.get("status_code") != 200:
        return
    customized_response_dict.update(json.loads(response_dict["body"]))
    response_dict["body"] = b"{}"


def table_name(spec: TableSpec) -> str:
    return os.environ[spec.env_var]


def _to_dynamo(value: Any) -> Any:
    if isinstance(value, float):
        return Decimal(str(value))
    if isinstance(value, dict):
        return {k: _to_dynamo(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_to_dynamo(v) for v in value]
    return value


def _from_dynamo(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, dict):
        return {k: _from_dynamo(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_from_dynamo(v) for v in value]
    if isinstance(value, set):
        return {_from_dynamo(v) for v in value}
    return value


def serialize(item: Item) -> dict[str, Any]:
    """Plain Python values (floats allowed, None dropped) to DynamoDB attribute values."""
    return {k: _serializer.serialize(_to_dynamo(v)) for k, v in item.items() if v is not None}


def value(v: Any) -> Any:
    return _serializer.serialize(_to_dynamo(v))


def deserialize(raw: dict[str, Any]) -> Item:
    """DynamoDB attribute values to plain Python values (whole numbers as int)."""
    return {k: _plain(v) for k, v in raw.items()}


def _plain(value: Any) -> Any:
    """One attribute value as a plain Python value: what `TypeDeserializer` and `_from_dynamo`
    give, without the Decimal in between (an item read is thousands of values)."""
    ((kind, data),) = value.items()
    if kind == "S":
        return data
    if kind == "N":
        return _number(data)
    if kind == "M":
        return {k: _plain(v) for k, v in data.items()}
    if kind == "L":
        return [_plain(v) for v in data]
    if kind == "BOOL":
        return data
    if kind == "NULL":
        return None
    if kind == "SS":
        return set(data)
    if kind == "NS":
        return {_number(n) for n in data}
    return _from_dynamo(_deserializer.deserialize(value))  # binary: not kept by the store


def _number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        exact = Decimal(text)
        return int(exact) if exact == exact.to_integral_value() else float(exact)


def values(**named: Any) -> dict[str, Any]:
    """ExpressionAttributeValues from keyword arguments: values(cap=64) -> {":cap": {"N": "64"}}."""
    return {f":{k}": value(v) for k, v in named.items()}


def error_code(error: Exception) -> str:
    response = getattr(error, "response", {}) or {}
    return str(response.get("Error", {}).get("Code", ""))


def batch_get(spec: TableSpec, keys: list[dict[str, Any]], *, consistent: bool = False) -> list[Item]:
    """BatchGetItem on one table, in chunks of 100, retrying the keys left unprocessed."""
    items: list[Item] = []
    for start in range(0, len(keys), 100):
        items.extend(batch_get_tables({spec: keys[start : start + 100]}, consistent=consistent)[spec.name])
    return items


def batch_get_tables(
    wanted: dict[TableSpec, list[dict[str, Any]]], *, consistent: bool = False
) -> dict[str, list[Item]]:
    """One BatchGetItem across tables (at most 100 keys in all), unprocessed keys retried.

    Returns the items found per logical table name.
    """
    names = {table_name(spec): spec.name for spec in wanted}
    found: dict[str, list[Item]] = {spec.name: [] for spec in wanted}
    request: dict[str, Any] = {
        table_name(spec): {"Keys": keys, "ConsistentRead": consistent}
        for spec, keys in wanted.items()
        if keys
    }
    while request:
        response = client().batch_get_item(RequestItems=request)
        for name, items in response["Responses"].items():
            found[names[name]].extend(deserialize(i) for i in items)
        request = response.get("UnprocessedKeys") or {}
    return found


def batch_write(spec: TableSpec, puts: list[Item], deletes: list[dict[str, Any]]) -> int:
    """BatchWriteItem on one table in chunks of 25, unprocessed items sent again.

    Returns the number of BatchWriteItem calls made. A key must not be both put and deleted.
    """
    name = table_name(spec)
    requests = [{"PutRequest": {"Item": serialize(i)}} for i in puts] + [
        {"DeleteRequest": {"Key": k}} for k in deletes
    ]
    calls = 0
    for start in range(0, len(requests), 25):
        pending: dict[str, Any] = {name: requests[start : start + 25]}
        attempt = 0
        while pending:
            calls += 1
            response = client().batch_write_item(RequestItems=pending)
            pending = response.get("UnprocessedItems") or {}
            if pending:
                attempt += 1
                time.sleep(min(0.05 * 2**attempt, 1.0))
    return calls


def query_all(**query: Any) -> list[Item]:
    """Every item a Query returns, page after page."""
    items: list[Item] = []
    while True:
        response = client().query(**query)
        items.extend(deserialize(i) for i in response.get("Items", []))
        last = response.get("LastEvaluatedKey")
        if not last:
            return items
        query["ExclusiveStartKey"] = last


def query_prefix(spec: TableSpec, pk: str, prefix: str, **more: Any) -> list[Item]:
    """Every item of one partition whose sort key starts with `prefix` (one kind of item under
    an owner), page after page; `more` adds a projection, a filter and its values."""
    named = {":pk": {"S": pk}, ":prefix": {"S": prefix}, **more.pop("ExpressionAttributeValues", {})}
    return query_all(
        TableName=table_name(spec),
        KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues=named,
        **more,
    )
