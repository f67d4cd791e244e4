"""Logs, traces and metrics as Powertools does them, and the one entry every function uses.

A handler module ends with `handler = entry(app)` (HTTP) or `handler = event_entry(process)`
(bus events). Each invocation then gets:
- JSON logs with the Lambda context and a correlation id: the API Gateway request id for
  HTTP (so one request's lines are found from the id a client reports), the event id for
  bus events;
- a line per AWS call with its timing (`tavla.aws`), and an X-Ray segment per invocation
  from Lambda's active tracing. The X-Ray SDK is not imported: it builds a botocore session
  when imported, about 0.18 s of every cold start (docs/decisions/0019-cold-start-without-xray-sdk.md);
- CloudWatch metrics in EMF log lines, flushed after the invocation: the counts services
  add with `count()`, and every refused HTTP request by its error code, counted here once.
Responses are not logged: they carry phone numbers and e-mail addresses.
"""

from __future__ import annotations

import gc
import json
import os
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.metrics import MetricUnit, single_metric

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler import APIGatewayHttpResolver
    from aws_lambda_powertools.utilities.typing import LambdaContext

Handler = Callable[[dict[str, Any], "LambdaContext"], dict[str, Any]]

# The metrics, by name (dimension: service; rejections also by code).
REGISTERED = "Registrations"  # a main-list place taken
WAITLISTED = "WaitingListEntries"  # a registration that joined the waiting list
CHECKED_IN = "CheckIns"
DRAW_PUBLISHED = "DrawsPublished"
RESULT_CONFIRMED = "ResultsConfirmed"
PROMOTED = "Promotions"  # a waiting player given a main-list place
CONTENTION_RETRIES = "ContentionRetries"  # a transaction lost to a concurrent one, retried
REJECTED = "Rejections"  # a 4xx or 503 answer; dimension `code`, the API's error code
NOSHOW_FORFEIT = "NoShowForfeits"  # an absent player forfeited at a deadline (R6.1, R7.6)
EVENT_PUBLISHED = "EventsPublished"  # an outbox item put on the bus by the publisher

# The stack sets both; the defaults keep a function without them (a test) from failing a request.
SERVICE = os.environ.get("POWERTOOLS_SERVICE_NAME", "tavla")
NAMESPACE = os.environ.get("POWERTOOLS_METRICS_NAMESPACE", "Tavla")

logger = Logger(service=SERVICE)
metrics = Metrics(service=SERVICE, namespace=NAMESPACE)

# A request that counted nothing (a read) is normal, not worth a warning per invocation.
warnings.filterwarnings("ignore", message="No application metrics to publish")


def count(metric: str, value: int = 1) -> None:
    """Add `value` to `metric` for this invocation (published when it ends)."""
    metrics.add_metric(name=metric, unit=MetricUnit.Count, value=value)


def _count_rejection(response: dict[str, Any]) -> None:
    status = int(response.get("statusCode", 200))
    if status < 400:
        return
    try:
        code = str(json.loads(response.get("body") or "")["error"]["code"])
    except (ValueError, KeyError, TypeError):
        code = "unknown"
    logger.info("request refused", extra={"status": status, "code": code})
    with single_metric(name=REJECTED, unit=MetricUnit.Count, value=1, namespace=NAMESPACE) as metric:
        metric.add_dimension(name="code", value=code)


def _initialised() -> None:
    """The init phase is over: what it made lives as long as the process, so it is frozen out
    of every later collection, and the collector paused by `functions/__init__.py` resumes."""
    gc.freeze()
    gc.enable()


def entry(app: APIGatewayHttpResolver) -> Handler:
    """The Lambda handler of an HTTP function: logged and measured `app.resolve`."""
    _initialised()

    @logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
    @metrics.log_metrics
    def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        response = app.resolve(event, context)
        _count_rejection(response)
        return response

    return cast("Handler", handler)


def event_entry(process: Callable[[dict[str, Any]], dict[str, Any]], *, batched: bool = False) -> Handler:
    """The Lambda handler of an event-triggered function: logged and measured; `batched`: it
    takes bus events in SQS batches (no one event's id to correlate the logs with)."""
    _initialised()

    @logger.inject_lambda_context(correlation_id_path=None if batched else correlation_paths.EVENT_BRIDGE)
    @metrics.log_metrics
    def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        return process(event)

    return cast("Handler", handler)
