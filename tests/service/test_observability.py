"""What operators see: one JSON log line per refused request with the API Gateway request id
as its correlation id, and CloudWatch metrics (EMF) for the counts the issue asks for."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from botocore.awsrequest import AWSResponse
from botocore.compat import HTTPHeaders
from botocore.exceptions import ClientError

from local.env import handler_environment
from tavla import observability
from tavla.aws import AWS_CALL, AWS_CALL_LOG_LEVEL
from tavla.store import dynamo
from tests.service.conftest import Api
from tests.service.helpers import create_player, create_tournament, register


@pytest.fixture
def logs() -> Iterator[io.StringIO]:
    """What the functions' Logger writes (its handler keeps the stream it was created with)."""
    handler = observability.logger.registered_handler
    buffer = io.StringIO()
    previous = handler.setStream(buffer)  # type: ignore[attr-defined]
    yield buffer
    handler.setStream(previous)  # type: ignore[attr-defined]


def _lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def _metrics(out: str) -> dict[tuple[str, str | None], float]:
    """EMF blobs -> {(metric, code dimension or None): total}."""
    totals: dict[tuple[str, str | None], float] = {}
    for line in _lines(out):
        for directive in line.get("_aws", {}).get("CloudWatchMetrics", []):
            assert directive["Namespace"] == "Tavla"
            for metric in directive["Metrics"]:
                key = (metric["Name"], line.get("code"))
                value = line[metric["Name"]]
                totals[key] = totals.get(key, 0) + sum(value if isinstance(value, list) else [value])
    return totals


def test_registrations_waiting_list_and_promotions_are_counted(
    api: Api, capsys: pytest.CaptureFixture[str]
) -> None:
    tournament = create_tournament(api, capacity=2)
    for user in ("u1", "u2", "u3"):
        create_player(api, user)
    register(api, tournament, "u1")
    capsys.readouterr()
    register(api, tournament, "u2")
    register(api, tournament, "u3")
    api.call(
        "DELETE",
        "/tournaments/{tournament_id}/registrations/me",
        params={"tournament_id": tournament},
        user="u1",
    )
    counted = _metrics(capsys.readouterr().out)
    assert counted[("Registrations", None)] == 1
    assert counted[("WaitingListEntries", None)] == 1
    assert counted[("Promotions", None)] == 1


def test_a_refused_request_is_logged_with_its_request_id_and_counted_by_code(
    api: Api, capsys: pytest.CaptureFixture[str], logs: io.StringIO
) -> None:
    capsys.readouterr()
    reply = api.call("GET", "/players/{tavla_id}", params={"tavla_id": "NOBODY1"})
    assert reply.status == 404
    out = capsys.readouterr().out
    (refused,) = [line for line in _lines(logs.getvalue()) if line.get("message") == "request refused"]
    assert refused["correlation_id"] == "req"  # the event's requestContext.requestId
    assert (refused["status"], refused["code"]) == (404, "player_not_found")
    assert _metrics(out) == {("Rejections", "player_not_found"): 1}


def test_a_check_in_is_counted_once_however_often_the_pass_is_scanned(
    api: Api, capsys: pytest.CaptureFixture[str]
) -> None:
    tournament = create_tournament(api)
    player = create_player(api, "u1")
    register(api, tournament, "u1")
    capsys.readouterr()
    for _ in range(2):
        reply = api.call(
            "POST",
            "/tournaments/{tournament_id}/checkins",
            params={"tournament_id": tournament},
            body={"tavla_id": player},
            user="org-1",
            groups=("organisers",),
        )
        assert reply.status == 200, reply.body
    assert _metrics(capsys.readouterr().out) == {("CheckIns", None): 1}


def _aws_calls(out: str) -> list[dict[str, Any]]:
    return [line for line in _lines(out) if line.get("message") == AWS_CALL]


def test_each_aws_call_is_logged_with_its_timing_under_the_request_id(api: Api, logs: io.StringIO) -> None:
    """Operators see what each AWS call of a request cost, found by the request's id."""
    player = create_player(api, "u1")
    logs.truncate(0)
    logs.seek(0)
    reply = api.call("GET", "/players/{tavla_id}", params={"tavla_id": player})
    assert reply.status == 200, reply.body
    calls = _aws_calls(logs.getvalue())
    assert calls, "no AWS call logged"
    for call in calls:
        assert call["correlation_id"] == "req"
        timing = call["aws"]
        assert timing["service"] == "dynamodb"
        assert timing["operation"] in {"GetItem", "Query", "BatchGetItem"}
        assert isinstance(timing["ms"], float) and timing["ms"] >= 0
        assert timing["retries"] == 0
        assert "error" not in timing


def test_an_aws_call_that_aws_refuses_is_logged_with_its_error_code(api: Api, logs: io.StringIO) -> None:
    """A refused call is logged too, with AWS's error code, before the caller sees the error."""
    logs.truncate(0)
    logs.seek(0)
    with pytest.raises(ClientError):
        dynamo.client().get_item(TableName="no-such-table", Key={"PK": {"S": "x"}, "SK": {"S": "y"}})
    (call,) = _aws_calls(logs.getvalue())
    assert call["aws"]["service"] == "dynamodb"
    assert call["aws"]["operation"] == "GetItem"
    assert call["aws"]["error"] == "ResourceNotFoundException"
    assert call["aws"]["retries"] == 0


def test_a_call_that_botocore_retried_is_logged_once_with_its_retries(api: Api, logs: io.StringIO) -> None:
    """A call whose first attempt failed (a 500) and whose retry succeeded: one line, one retry."""
    client = dynamo.client()
    failures = [AWSResponse("https://dynamodb", 500, HTTPHeaders(), _Raw())]

    def fail_once(**_: Any) -> AWSResponse | None:
        return failures.pop() if failures else None

    client.meta.events.register_first("before-send.dynamodb.ListTables", fail_once)
    logs.truncate(0)
    logs.seek(0)
    client.list_tables()
    (call,) = _aws_calls(logs.getvalue())
    assert (call["aws"]["operation"], call["aws"]["retries"]) == ("ListTables", 1)
    assert "error" not in call["aws"]


class _Raw:
    """An empty HTTP body, as botocore reads one."""

    def stream(self, **_: Any) -> Iterator[bytes]:
        yield b""


def test_the_local_stack_writes_no_timing_line_unless_asked(
    api: Api, logs: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`make run` keeps the terminal readable: its environment puts the timing line at DEBUG,
    below the functions' log level; the cloud's (no such variable) keeps it at INFO."""
    local = handler_environment("http://localhost:1", "http://localhost:2")
    monkeypatch.setenv(AWS_CALL_LOG_LEVEL, local[AWS_CALL_LOG_LEVEL])
    player = create_player(api, "u1")
    logs.truncate(0)
    logs.seek(0)
    assert api.call("GET", "/players/{tavla_id}", params={"tavla_id": player}).status == 200
    assert _aws_calls(logs.getvalue()) == []
    level = observability.logger.log_level
    observability.logger.setLevel("DEBUG")
    try:
        assert api.call("GET", "/players/{tavla_id}", params={"tavla_id": player}).status == 200
    finally:
        observability.logger.setLevel(level)
    assert _aws_calls(logs.getvalue()), "DEBUG shows the timing lines again"
