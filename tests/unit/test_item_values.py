"""Items read from DynamoDB become plain values the same way whichever form the values come in:
as DynamoDB's JSON sent them (the store's item reads skip botocore's parse) or as the store
serialized them (a transaction's new items)."""

from __future__ import annotations

import json
from typing import Any

from boto3.dynamodb.types import TypeDeserializer
from hypothesis import given
from hypothesis import strategies as st

from tavla.store.dynamo import _from_dynamo, deserialize, serialize

scalars = st.one_of(
    st.text(max_size=8),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.booleans(),
    st.none(),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)
items = st.dictionaries(st.text(min_size=1, max_size=5), values, max_size=6)


def _as_boto3_gives_it(raw: dict[str, Any]) -> dict[str, Any]:
    return {k: _from_dynamo(TypeDeserializer().deserialize(v)) for k, v in raw.items()}


@given(items)
def test_an_item_reads_back_as_boto3_would_give_it_in_either_form(item: dict[str, Any]) -> None:
    stored = serialize(item)
    sent = json.loads(json.dumps(stored))  # what DynamoDB's answer holds
    assert deserialize(stored) == deserialize(sent) == _as_boto3_gives_it(stored)


def test_numbers_sets_and_nulls_read_back_as_plain_values() -> None:
    sent = {
        "whole": {"N": "42"},
        "written_as_decimal": {"N": "3.0"},
        "fraction": {"N": "2.5"},
        "huge": {"N": "1e3"},
        "tags": {"SS": ["a", "b"]},
        "scores": {"NS": ["1", "2.5"]},
        "gone": {"NULL": True},
        "nested": {"M": {"list": {"L": [{"BOOL": False}, {"N": "-7"}]}}},
    }
    assert deserialize(sent) == {
        "whole": 42,
        "written_as_decimal": 3,
        "fraction": 2.5,
        "huge": 1000,
        "tags": {"a", "b"},
        "scores": {1, 2.5},
        "gone": None,
        "nested": {"list": [False, -7]},
    }
