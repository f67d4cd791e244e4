"""Every schema table exists as declared, protected against loss (PITR, deletion protection, retained)."""

from __future__ import annotations

import pytest

from tavla.store.schema import TABLES
from tests.infra.helpers import Synthesized

pytestmark = pytest.mark.infra


@pytest.mark.parametrize("spec", TABLES, ids=lambda s: s.name)
def test_table_is_declared_shape_and_protected(prod: Synthesized, spec) -> None:
    """In prod (protection is the stage's; tests/infra/test_stages.py covers dev)."""
    real = prod
    resource = real.resources[real.logical_id(real.stack.tables.by_name[spec.name])]
    props = resource["Properties"]
    assert resource["DeletionPolicy"] == "Retain" and resource["UpdateReplacePolicy"] == "Retain"
    assert props["DeletionProtectionEnabled"] is True
    assert props["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"] is True
    assert props["BillingMode"] == "PAY_PER_REQUEST"
    assert props["SSESpecification"]["SSEEnabled"] is True

    keys = {k["KeyType"]: k["AttributeName"] for k in props["KeySchema"]}
    assert keys == {"HASH": spec.partition, **({"RANGE": spec.sort} if spec.sort else {})}

    declared = {
        i.name: {"HASH": i.partition, **({"RANGE": i.sort} if i.sort else {})}
        for i in spec.indexes
        if not i.local
    }
    built = {
        g["IndexName"]: {k["KeyType"]: k["AttributeName"] for k in g["KeySchema"]}
        for g in props.get("GlobalSecondaryIndexes", [])
    }
    assert built == declared
    local = {i.name: {"HASH": spec.partition, "RANGE": i.sort} for i in spec.indexes if i.local}
    built_local = {
        ix["IndexName"]: {k["KeyType"]: k["AttributeName"] for k in ix["KeySchema"]}
        for ix in props.get("LocalSecondaryIndexes", [])
    }
    assert built_local == local

    if spec.ttl_attribute:
        assert props["TimeToLiveSpecification"] == {"AttributeName": spec.ttl_attribute, "Enabled": True}
    else:
        assert "TimeToLiveSpecification" not in props


def test_no_table_outside_the_schema(each_stack: Synthesized) -> None:
    count = sum(1 for r in each_stack.resources.values() if r["Type"] == "AWS::DynamoDB::Table")
    assert count == len(TABLES)
