"""`make export DIR=...` / `make import DIR=...`: every table of the schema to JSON lines and
back, the restore drill of docs/restore.md.

One file per table, `<logical name>.jsonl`, one item per line in DynamoDB JSON, `{"Item":
{...}}`: the line format of DynamoDB's own export to S3 (DYNAMODB_JSON), so the same
`import` reads a cloud export's data files once unzipped. Against the local stack by
default (DynamoDB Local, its tables named `tavla-<name>`, at the `--endpoint` that `make
run` prints as `DynamoDB Local:`); against the cloud with `--table name=physical-name` for
each table (credentials and region from the environment).

Import writes with BatchWriteItem (25 items per call, unprocessed items retried), so it
restores into empty tables or over the same items; it never deletes what is not in the
export.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3

from tavla.store.schema import TABLES

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

BATCH = 25


def local_name(name: str) -> str:
    return f"tavla-{name}"  # local/dynamodb.py physical_name


def client(endpoint: str | None) -> DynamoDBClient:
    if endpoint is None:
        return boto3.client("dynamodb")
    return boto3.client(
        "dynamodb",
        endpoint_url=endpoint,
        region_name="eu-central-1",
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )


def export(dynamodb: DynamoDBClient, names: dict[str, str], folder: Path) -> dict[str, int]:
    """Scan every table into `folder`; returns items written per table."""
    folder.mkdir(parents=True, exist_ok=True)
    counts = {}
    for spec in TABLES:
        count = 0
        with (folder / f"{spec.name}.jsonl").open("w", encoding="utf-8") as out:
            for page in dynamodb.get_paginator("scan").paginate(
                TableName=names[spec.name], ConsistentRead=True
            ):
                for item in page["Items"]:
                    out.write(json.dumps({"Item": item}, sort_keys=True) + "\n")
                    count += 1
        counts[spec.name] = count
    return counts


def import_(dynamodb: DynamoDBClient, names: dict[str, str], folder: Path) -> dict[str, int]:
    """Write every exported item back; returns items written per table."""
    counts = {}
    for spec in TABLES:
        path = folder / f"{spec.name}.jsonl"
        items: list[dict[str, Any]] = [
            json.loads(line)["Item"] for line in path.read_text(encoding="utf-8").splitlines() if line
        ]
        for start in range(0, len(items), BATCH):
            pending: Any = {
                names[spec.name]: [{"PutRequest": {"Item": i}} for i in items[start : start + BATCH]]
            }
            for attempt in range(8):
                unprocessed = dynamodb.batch_write_item(RequestItems=pending)["UnprocessedItems"]
                if not unprocessed:
                    break
                pending = unprocessed
                time.sleep(0.05 * 2**attempt)
            else:
                raise RuntimeError(f"{spec.name}: items left unprocessed after retries")
        counts[spec.name] = len(items)
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make export|import", description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["export", "import"])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--endpoint", help="DynamoDB endpoint (the local stack's DynamoDB Local URL)")
    parser.add_argument(
        "--table", action="append", default=[], help="name=physical-table-name (cloud tables), once per table"
    )
    args = parser.parse_args(argv)
    names = {spec.name: local_name(spec.name) for spec in TABLES}
    names |= dict(pair.split("=", 1) for pair in args.table)
    if not args.endpoint and not args.table:
        parser.error(
            "give --endpoint (the `DynamoDB Local:` line `make run` prints) or the cloud's --table names"
        )
    dynamodb = client(args.endpoint)
    counts = (export if args.action == "export" else import_)(dynamodb, names, args.folder)
    for name, count in counts.items():
        print(f"{args.action} {name}: {count} items")
    return 0


if __name__ == "__main__":
    sys.exit(main())
