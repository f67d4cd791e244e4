"""The local stack's tables: created from the declarations, and a stale kept table refused."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

from local.dynamodb import StaleTable, ensure_tables, physical_name
from tavla.store.schema import CONTACTS, TABLES


@pytest.fixture
def dynamodb(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setenv("AWS_DEFAULT_REGION", "eu-central-1")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    with mock_aws():
        yield boto3.client("dynamodb")


def test_every_declared_table_is_created_once(dynamodb: Any) -> None:
    assert sorted(ensure_tables(dynamodb)) == sorted(physical_name(t) for t in TABLES)
    assert ensure_tables(dynamodb) == []


def test_a_kept_table_with_old_keys_is_refused_with_what_to_do(dynamodb: Any) -> None:
    """A data folder from before a key change fails at start, saying how to start afresh."""
    dynamodb.create_table(
        TableName=physical_name(CONTACTS),
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "tavla_id", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "tavla_id", "KeyType": "HASH"}],
    )
    with pytest.raises(StaleTable, match="make clean"):
        ensure_tables(dynamodb)
