"""Services and handlers on in-process moto: fast, no network, calls strictly sequential.

`api` calls a registry function's handler with an API Gateway HTTP API v2 event, exactly
the event the cloud (and the local stack) hands it, so routing, validation, authorization
and the error body are all exercised.
"""

from __future__ import annotations

import functools
import importlib
import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import boto3
import botocore.session
import pytest
import responses
from moto import mock_aws

from infra.registry import FUNCTIONS, Function
from tavla import clock, observability, schedules
from tavla.rules.push import PUSH_SERVICES as PUSH_SERVICE_HOSTS
from tavla.store.schema import MAIN, TABLES, create_table_args
from tavla.store.transactions import Transaction
from tests.service import moto_transactions

PASS_KEY = "test-pass-signing-key"
PUSH_KEY = "test-push-key-seed"
PAYMENT_PROVIDER_SECRET = '{"api_key": "sk_test_tavla", "webhook_secret": "whsec_test_tavla"}'
REGION = "eu-central-1"
ACCOUNT = "123456789012"
SCHEDULER_GROUP = "tavla-test"
SCHEDULER_ROLE_ARN = f"arn:aws:iam::{ACCOUNT}:role/tavla-test-scheduler"
DEAD_LETTER_QUEUE_ARN = f"arn:aws:sqs:{REGION}:{ACCOUNT}:tavla-test-dead-letters"


STATEMENTS_BUCKET = "tavla-test-statements"

# Every test starts from fresh boto3 sessions, and each new session parsed botocore's endpoint
# and service files again (40% of the service tests' time); the files never change, so every
# session here shares one loader and parses them once per worker.
botocore.session.create_loader = functools.cache(botocore.session.create_loader)
moto_transactions.install()


def function_arn(name: str) -> str:
    return f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:tavla-test-{name}"


@contextmanager
def mocked_aws(setenv: Callable[[str, str], None]) -> Iterator[None]:
    """Moto with the tables, bus and pass key the handlers expect, named through `setenv`."""
    for name, value in {
        "AWS_DEFAULT_REGION": REGION,
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "POWERTOOLS_SERVICE_NAME": "tavla",
        "POWERTOOLS_METRICS_NAMESPACE": "Tavla",
        "EVENT_BUS_NAME": "tavla-test-bus",
        "PASS_KEY_SECRET_ID": "tavla-test-pass-key",
        "PAYMENT_PROVIDER_SECRET_ID": "tavla-test-payment-provider",
        "PUSH_KEY_SECRET_ID": "tavla-test-push-key",
        "STATEMENTS_BUCKET": STATEMENTS_BUCKET,
        schedules.GROUP_ENV: SCHEDULER_GROUP,
        schedules.ROLE_ENV: SCHEDULER_ROLE_ARN,
        schedules.DEAD_LETTER_ENV: DEAD_LETTER_QUEUE_ARN,
        **{spec.env_var: f"tavla-test-{spec.name}" for spec in TABLES},
        **{f.arn_env_var: function_arn(f.name) for f in FUNCTIONS},
    }.items():
        setenv(name, value)
    with mock_aws():
        reset_clients()
        dynamodb = boto3.client("dynamodb")
        for spec in TABLES:
            dynamodb.create_table(**create_table_args(spec, f"tavla-test-{spec.name}"))
        boto3.client("events").create_event_bus(Name="tavla-test-bus")
        boto3.client("secretsmanager").create_secret(Name="tavla-test-pass-key", SecretString=PASS_KEY)
        boto3.client("secretsmanager").create_secret(  # the card provider's keys
            Name="tavla-test-payment-provider", SecretString=PAYMENT_PROVIDER_SECRET
        )
        boto3.client("secretsmanager").create_secret(Name="tavla-test-push-key", SecretString=PUSH_KEY)
        boto3.client("scheduler").create_schedule_group(Name=SCHEDULER_GROUP)
        boto3.client("s3").create_bucket(
            Bucket=STATEMENTS_BUCKET, CreateBucketConfiguration={"LocationConstraint": REGION}
        )
        yield
        reset_clients()


@pytest.fixture(autouse=True)
def aws(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with mocked_aws(monkeypatch.setenv):
        yield
    clock.reset()


_PUSH_HOSTS = r"^https://([^/]*\.)?(" + "|".join(re.escape(h) for h in PUSH_SERVICE_HOSTS) + r")/"


@pytest.fixture(autouse=True)
def push_service() -> Iterator[responses.RequestsMock]:
    """Browsers' push services, faked at HTTP: every notice posted is taken (201) unless a test
    says otherwise; nothing else that speaks HTTP is touched, and nothing leaves the machine."""
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add_passthru(re.compile(f"^(?!{_PUSH_HOSTS.removeprefix('^')})"))
        mock.add(responses.POST, re.compile(_PUSH_HOSTS), status=201)
        yield mock


class Stream:
    """The table's stream, played synchronously: the outbox items a transaction wrote go through
    the publisher as soon as it commits. A put the bus refuses leaves the item in the outbox, as
    a stream record is retried; `redeliver` hands every waiting item to the publisher again."""

    def __init__(self) -> None:
        self.paused = False  # items stay in the outbox until `redeliver`
        self.refused: list[dict[str, Any]] = []  # the outbox items the bus did not take

    def committed(self, tx: Transaction) -> None:
        if not self.paused:
            self._deliver(tx.new_items(MAIN))

    def _deliver(self, images: list[dict[str, Any]]) -> None:
        from tavla.services import publisher

        # a refused event stays in the outbox; the stream retries its record later
        self.refused += [images[i] for i in publisher.publish(images)]

    def redeliver(self) -> int:
        """Every event still in the outbox, through the publisher again; how many there were."""
        from tavla.store import outbox

        waiting = outbox.waiting(limit=10_000)
        self._deliver(
            [
                {
                    "pk": f"OUTBOX#{pending.event_id}",
                    "event_id": pending.event_id,
                    "detail_type": pending.detail_type,
                    "detail": json.dumps(pending.detail),
                }
                for pending in waiting
            ]
        )
        return len(waiting)


@pytest.fixture(autouse=True)
def stream(monkeypatch: pytest.MonkeyPatch) -> Stream:
    played = Stream()
    run = Transaction.run

    def run_then_stream(tx: Transaction) -> None:
        run(tx)
        played.committed(tx)

    monkeypatch.setattr(Transaction, "run", run_then_stream)
    return played


def reset_clients() -> None:
    """Forget cached AWS clients and parameters, as a new execution environment would."""
    from aws_lambda_powertools.utilities import parameters

    from tavla import aws, events, schedules, statement_files
    from tavla.services import notify
    from tavla.store import dynamo, field_names

    dynamo.client.cache_clear()
    field_names.forget()
    events._client.cache_clear()
    schedules._client.cache_clear()
    statement_files._client.cache_clear()
    notify._sns.cache_clear()
    notify._ses.cache_clear()
    parameters.clear_caches()
    aws.forget_clients()


@dataclass
class LambdaContext:
    """What Lambda passes as `context` (Powertools reads these)."""

    function_name: str
    memory_limit_in_mb: int = 512
    aws_request_id: str = "test-request"
    invoked_function_arn: str = "arn:aws:lambda:eu-central-1:123456789012:function:test"

    def get_remaining_time_in_millis(self) -> int:
        return 10_000


@dataclass
class Reply:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def error(self) -> str:
        return str(self.body["error"]["code"])


@dataclass
class Api:
    """Call handlers as API Gateway would: the route template picks the registry function."""

    routes: dict[tuple[str, str], Function] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for function in FUNCTIONS:
            for route in function.routes():
                self.routes[(route.method, route.path)] = function

    def event(
        self,
        method: str,
        template: str,
        *,
        params: dict[str, str] | None = None,
        body: Any = None,
        raw_body: str | None = None,
        user: str | None = None,
        groups: tuple[str, ...] = (),
        query: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[Function, dict[str, Any]]:
        """The registry function serving this route and the event API Gateway would send it."""
        function = self.routes[(method, template)]
        path = template
        for name, value in (params or {}).items():
            path = path.replace("{" + name + "}", value)
        event: dict[str, Any] = {
            "version": "2.0",
            "routeKey": f"{method} {template}",
            "rawPath": path,
            "rawQueryString": "&".join(f"{k}={v}" for k, v in (query or {}).items()),
            "queryStringParameters": query,
            "headers": {
                "content-type": "application/json",
                **{k.lower(): v for k, v in (headers or {}).items()},
            },
            "pathParameters": params or {},
            "body": raw_body if raw_body is not None else (None if body is None else json.dumps(body)),
            "isBase64Encoded": False,
            "requestContext": {
                "accountId": "123456789012",
                "apiId": "test",
                "domainName": "test.local",
                "http": {
                    "method": method,
                    "path": path,
                    "protocol": "HTTP/1.1",
                    "sourceIp": "127.0.0.1",
                    "userAgent": "pytest",
                },
                "requestId": "req",
                "routeKey": f"{method} {template}",
                "stage": "$default",
                "time": "29/Nov/2026:10:00:00 +0000",
                "timeEpoch": 0,
            },
        }
        if user is not None:
            claims = {"sub": user, "cognito:groups": "[" + " ".join(groups) + "]"}
            event["requestContext"]["authorizer"] = {"jwt": {"claims": claims, "scopes": None}}
        return function, event

    def call(self, method: str, template: str, **request: Any) -> Reply:
        function, event = self.event(method, template, **request)
        module = importlib.import_module(function.module)
        response = module.handler(event, LambdaContext(function.name))
        # Lambda starts each invocation with no metrics; Powertools keeps them when metrics are
        # disabled (the benchmarks) and prints them anyway at 100 values of one metric
        observability.metrics.clear_metrics()
        text = response.get("body") or "null"
        headers = {str(k).lower(): str(v) for k, v in (response.get("headers") or {}).items()}
        if headers.get("content-type", "").startswith("text/"):  # a CSV export: the text
            return Reply(response["statusCode"], text, headers)
        return Reply(response["statusCode"], json.loads(text), headers)


@pytest.fixture(scope="session")
def api() -> Api:
    return Api()
