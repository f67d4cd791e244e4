"""One-time EventBridge Scheduler schedules: a function's event, delivered at a moment.

`create_once` and `delete` are idempotent, so a retried caller converges: a schedule that is
already there is left as it is (a name stands for one deadline: `schedule_name`), and one
that is already gone (fired, or deleted before) is fine to delete again. A schedule fires
once and then deletes itself (ActionAfterCompletion DELETE); a target that keeps failing is
retried by Scheduler, then parked in the platform's dead-letter queue (whose alarm calls an
operator), never silently lost.

The environment names (read by the CDK stack and the local stack, which set them):
SCHEDULER_GROUP_NAME, SCHEDULER_ROLE_ARN, DEAD_LETTER_QUEUE_ARN, and per target function
`<NAME>_FUNCTION_ARN` (`arn_env_var`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import TYPE_CHECKING, Any

from tavla import aws

if TYPE_CHECKING:
    from mypy_boto3_scheduler import EventBridgeSchedulerClient

GROUP_ENV = "SCHEDULER_GROUP_NAME"
ROLE_ENV = "SCHEDULER_ROLE_ARN"
DEAD_LETTER_ENV = "DEAD_LETTER_QUEUE_ARN"

# Scheduler's retry policy for a failing target, before the event goes to the dead letters.
MAX_RETRY_ATTEMPTS = 4
MAX_EVENT_AGE_SECONDS = 3600

MAX_NAME_LENGTH = 64  # Scheduler's limit on a schedule's name
_UNSAFE = re.compile(r"[^0-9A-Za-z_.-]")
_DIGEST_LENGTH = 16


def arn_env_var(function: str) -> str:
    """The variable that tells a scheduling function the ARN of `function`: NOSHOW_FUNCTION_ARN."""
    return f"{function.upper()}_FUNCTION_ARN"


def schedule_name(*parts: object) -> str:
    """A valid, deterministic schedule name for `parts`: `noshow-t1-m7-2026-11-30T10.10.00`.

    Parts are joined with `-`; when the result is longer than Scheduler allows or holds a
    character it refuses, the readable prefix is kept and a hash of the whole keeps names
    of different parts apart.
    """
    if not parts:
        raise ValueError("a schedule name needs at least one part")
    raw = "-".join(str(part) for part in parts)
    safe = _UNSAFE.sub("_", raw)
    if safe == raw and len(raw) <= MAX_NAME_LENGTH:
        return raw
    digest = hashlib.sha256(raw.encode()).hexdigest()[:_DIGEST_LENGTH]
    return f"{safe[: MAX_NAME_LENGTH - _DIGEST_LENGTH - 1]}-{digest}"


def at_expression(moment: datetime) -> str:
    """`at(yyyy-mm-ddThh:mm:ss)` in UTC, rounded up to the second (never fires early)."""
    if moment.tzinfo is None:
        raise ValueError("a schedule's moment must be timezone-aware")
    utc = moment.astimezone(UTC)
    if utc.microsecond:
        utc = utc.replace(microsecond=0) + timedelta(seconds=1)
    return f"at({utc.strftime('%Y-%m-%dT%H:%M:%S')})"


@cache
def _client() -> EventBridgeSchedulerClient:
    return aws.session().client("scheduler")


def create_once(name: str, at: datetime, target_function: str, payload: dict[str, Any]) -> None:
    """Invoke `target_function` with `payload` as its event at `at`; already there -> no-op."""
    client = _client()
    try:
        client.create_schedule(
            Name=name,
            GroupName=os.environ[GROUP_ENV],
            ScheduleExpression=at_expression(at),
            ScheduleExpressionTimezone="UTC",
            FlexibleTimeWindow={"Mode": "OFF"},
            ActionAfterCompletion="DELETE",
            Target={
                "Arn": os.environ[arn_env_var(target_function)],
                "RoleArn": os.environ[ROLE_ENV],
                "Input": json.dumps(payload),
                "RetryPolicy": {
                    "MaximumRetryAttempts": MAX_RETRY_ATTEMPTS,
                    "MaximumEventAgeInSeconds": MAX_EVENT_AGE_SECONDS,
                },
                "DeadLetterConfig": {"Arn": os.environ[DEAD_LETTER_ENV]},
            },
        )
    except client.exceptions.ConflictException:
        return  # created by an earlier attempt: the name stands for this very deadline


def delete(name: str) -> None:
    """Delete the schedule `name`; already fired or deleted -> no-op."""
    client = _client()
    try:
        client.delete_schedule(Name=name, GroupName=os.environ[GROUP_ENV])
    except client.exceptions.ResourceNotFoundException:
        return
