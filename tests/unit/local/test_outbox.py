"""The local stack's outbox stream and bus fault switch: the cloud's filter, a switch that
refuses only what it should."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from local import aws
from local.outbox import filter_before_parsing, passes_filter


def _record(event: str, pk: str) -> dict[str, Any]:
    return {"eventName": event, "dynamodb": {"Keys": {"pk": {"S": pk}, "sk": {"S": "EVENT"}}}}


def test_only_new_outbox_items_reach_the_publisher() -> None:
    """As the event source mapping's filter: an inserted OUTBOX# item, nothing else."""
    assert passes_filter(_record("INSERT", "OUTBOX#e1"))
    assert not passes_filter(_record("REMOVE", "OUTBOX#e1"))  # the publisher's own delete
    assert not passes_filter(_record("MODIFY", "OUTBOX#e1"))  # a retried change rewriting it
    assert not passes_filter(_record("INSERT", "TOURNAMENT#t1"))


@pytest.fixture
def refusing() -> Any:
    aws.BUS_REFUSING.set()
    yield
    aws.BUS_REFUSING.clear()


def _call(target: str, body: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    raw = json.dumps(body).encode()
    environ = {"HTTP_X_AMZ_TARGET": target, "CONTENT_LENGTH": str(len(raw)), "wsgi.input": io.BytesIO(raw)}
    answered: list[str] = []

    def moto(_: dict[str, Any], start_response: Any) -> list[bytes]:
        start_response("200 OK", [])
        return [b'{"moto": true}']

    def start_response(status: str, _: Any) -> None:
        answered.append(status)

    result = aws.serialized(moto)(environ, start_response)
    return answered[0], json.loads(b"".join(result))


def test_the_switch_makes_the_bus_refuse_every_entry_and_nothing_else(refusing: None) -> None:
    status, body = _call("AWSEvents.PutEvents", {"Entries": [{}, {}]})
    assert status == "200 OK" and body["FailedEntryCount"] == 2  # as EventBridge reports a refusal
    assert _call("AWSEvents.ListRules", {}) == ("200 OK", {"moto": True})


def test_without_the_switch_puts_reach_moto() -> None:
    assert _call("AWSEvents.PutEvents", {"Entries": [{}]}) == ("200 OK", {"moto": True})


def test_the_streams_answer_is_cut_to_new_outbox_items_before_it_is_parsed() -> None:
    """The table plan's 30 KB images are dropped as JSON, as the cloud's filter drops them."""
    records = [
        _record("MODIFY", "TOURNAMENT#t1"),
        _record("INSERT", "OUTBOX#e1"),
        _record("REMOVE", "OUTBOX#e0"),
    ]
    answer = {"Records": records, "NextShardIterator": "next"}
    response: dict[str, Any] = {"status_code": 200, "body": json.dumps(answer).encode()}
    filter_before_parsing(response)
    assert json.loads(response["body"]) == {"Records": [records[1]], "NextShardIterator": "next"}
    refused: dict[str, Any] = {"status_code": 400, "body": b'{"__type": "ExpiredIteratorException"}'}
    filter_before_parsing(refused)
    assert refused["body"] == b'{"__type": "ExpiredIteratorException"}'
