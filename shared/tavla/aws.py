"""Every AWS client comes from one boto3 session, whose hooks log each AWS call's timing.

One JSON line per call (`aws call`: service, operation, ms, retries, and the error code when
AWS refused or never answered), in the function's structured log beside the request's
correlation id. This stands in for the X-Ray SDK's subsegments: active tracing still gives
each invocation its segment, and the SDK is not imported at all, since importing it builds a
botocore session of its own and cost every cold start about 0.18 s. The hooks do no more per
call than read a monotonic clock and write that line.

The line's level is `AWS_CALL_LOG_LEVEL` (INFO when unset, as in the cloud). The local stack
sets DEBUG, below its functions' log level, so a developer's terminal is not one line per
AWS call; `POWERTOOLS_LOG_LEVEL=DEBUG make run` shows them again.
"""

from __future__ import annotations

import os
import time
from functools import cache
from typing import TYPE_CHECKING, Any

import boto3

from tavla.observability import logger

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.parameters import SecretsProvider
    from botocore.awsrequest import AWSResponse
    from botocore.model import OperationModel

AWS_CALL = "aws call"  # the message of each timing line
AWS_CALL_LOG_LEVEL = "AWS_CALL_LOG_LEVEL"  # the environment variable naming its level: INFO or DEBUG
_CALL = "tavla_call"  # where a call's start is kept in botocore's per-call context


@cache
def session() -> boto3.session.Session:
    """The process's one session: created on first use, with the timing hooks on it.

    Clients created from it inherit its hooks, so each call is timed without a wrapper.
    """
    made = boto3.session.Session()
    made.events.register("before-call", _started, unique_id="tavla-aws-call-started")
    made.events.register("after-call", _answered, unique_id="tavla-aws-call-answered")
    made.events.register("after-call-error", _unanswered, unique_id="tavla-aws-call-unanswered")
    return made


@cache
def _secrets() -> SecretsProvider:
    from aws_lambda_powertools.utilities.parameters import SecretsProvider

    return SecretsProvider(boto3_session=session())


def secret(name: str) -> str:
    """A Secrets Manager secret's string, cached for five minutes (a rotation is seen by then)."""
    return str(_secrets().get(name, max_age=300))


def forget_clients() -> None:
    """Forget the session and the secrets' cache, as a new execution environment would."""
    session.cache_clear()
    _secrets.cache_clear()


def _started(model: OperationModel, context: dict[str, Any], **_: Any) -> None:
    context[_CALL] = (time.monotonic(), model.service_model.service_name, model.name)


def _answered(http_response: AWSResponse, parsed: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
    status = http_response.status_code
    _log(context, str(parsed.get("Error", {}).get("Code") or status) if status >= 300 else None)


def _unanswered(exception: Exception, context: dict[str, Any], **_: Any) -> None:
    """No answer at all (a timeout, a connection refused) after botocore's own retries."""
    _log(context, type(exception).__name__)


def _log(context: dict[str, Any], error: str | None) -> None:
    call = context.pop(_CALL, None)
    if call is None:  # a call that began before the hooks were there
        return
    started, service, operation = call
    line: dict[str, Any] = {
        "service": service,
        "operation": operation,
        "ms": round((time.monotonic() - started) * 1000, 1),
        "retries": max(int(context.get("retries", {}).get("attempt", 1)) - 1, 0),
    }
    if error is not None:
        line["error"] = error
    write = logger.debug if os.environ.get(AWS_CALL_LOG_LEVEL, "INFO").upper() == "DEBUG" else logger.info
    write(AWS_CALL, extra={"aws": line})
