"""One-time schedules (R6.1, R7.6): a no-show deadline is created once
and deleted once, however often a retried caller asks, and a delivery that keeps failing
is retried and then parked in the dead-letter queue, never lost."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta, timezone

import boto3
import pytest

from tavla import schedules
from tavla.schedules import SELF_ARN_PREFIX_ENV, arn_env_var, target_arn
from tests.service.conftest import DEAD_LETTER_QUEUE_ARN, SCHEDULER_GROUP, SCHEDULER_ROLE_ARN, function_arn

DEADLINE = datetime(2026, 11, 30, 10, 10, tzinfo=UTC)
NAME_RULE = re.compile(r"^[0-9A-Za-z_.-]{1,64}$")


@pytest.fixture(autouse=True)
def noshow_target(monkeypatch: pytest.MonkeyPatch) -> None:
    """The no-show function is not in the registry yet; its ARN arrives as the stack would set it."""
    monkeypatch.setenv(schedules.arn_env_var("noshow"), function_arn("noshow"))


def _stored(name: str) -> dict:
    return dict(boto3.client("scheduler").get_schedule(Name=name, GroupName=SCHEDULER_GROUP))


def test_a_deadline_becomes_a_one_time_schedule_that_retries_then_dead_letters() -> None:
    """R6.1: the forfeit fires once at call + 10 min, in UTC, and deletes itself afterwards."""
    schedules.create_once("noshow-m1", DEADLINE, "noshow", {"match_id": "m1", "deadline": 1})
    stored = _stored("noshow-m1")
    assert stored["ScheduleExpression"] == "at(2026-11-30T10:10:00)"
    assert stored["ScheduleExpressionTimezone"] == "UTC"
    assert stored["FlexibleTimeWindow"] == {"Mode": "OFF"}
    assert stored["ActionAfterCompletion"] == "DELETE"
    target = stored["Target"]
    assert target["Arn"] == function_arn("noshow")
    assert target["RoleArn"] == SCHEDULER_ROLE_ARN
    assert json.loads(target["Input"]) == {"match_id": "m1", "deadline": 1}
    assert target["RetryPolicy"]["MaximumRetryAttempts"] >= 1
    assert target["DeadLetterConfig"] == {"Arn": DEAD_LETTER_QUEUE_ARN}


def test_creating_the_same_deadline_again_keeps_the_first() -> None:
    """A retried table call converges: one schedule per name, no error."""
    schedules.create_once("noshow-m2", DEADLINE, "noshow", {"match_id": "m2"})
    schedules.create_once("noshow-m2", DEADLINE, "noshow", {"match_id": "m2"})
    listed = boto3.client("scheduler").list_schedules(GroupName=SCHEDULER_GROUP)["Schedules"]
    assert [s["Name"] for s in listed] == ["noshow-m2"]


def test_a_schedule_no_longer_needed_is_deleted_and_deleting_again_is_fine() -> None:
    """schedules that are no longer needed are deleted (the referee decided first)."""
    schedules.create_once("noshow-m3", DEADLINE, "noshow", {"match_id": "m3"})
    schedules.delete("noshow-m3")
    with pytest.raises(boto3.client("scheduler").exceptions.ResourceNotFoundException):
        _stored("noshow-m3")
    schedules.delete("noshow-m3")  # already fired or deleted: nothing to do
    schedules.delete("never-created")


def test_the_moment_is_written_in_utc_and_never_early() -> None:
    athens = timezone(timedelta(hours=2))
    moment = datetime(2026, 11, 30, 12, 10, 0, 500_000, tzinfo=athens)
    schedules.create_once("noshow-m4", moment, "noshow", {})
    assert _stored("noshow-m4")["ScheduleExpression"] == "at(2026-11-30T10:10:01)"
    with pytest.raises(ValueError):
        schedules.create_once("naive", datetime(2026, 11, 30, 10, 10), "noshow", {})


def test_schedule_names_are_valid_deterministic_and_distinct() -> None:
    short = schedules.schedule_name("noshow", "t1", "m7", 1)
    assert short == "noshow-t1-m7-1"
    long_parts = ("noshow", "tournament-" + "x" * 60, "2026-11-30T10:10:00+00:00")
    long = schedules.schedule_name(*long_parts)
    odd = schedules.schedule_name("noshow", "t 1/ü", "m:7")
    for name in (short, long, odd):
        assert NAME_RULE.match(name), name
    assert long == schedules.schedule_name(*long_parts)
    assert long.startswith("noshow-tournament-")
    assert long != schedules.schedule_name(*long_parts[:2], "2026-11-30T10:15:00+00:00")
    assert odd != schedules.schedule_name("noshow", "t_1__", "m_7")
    schedules.create_once(long, DEADLINE, "noshow", {})
    schedules.create_once(odd, DEADLINE, "noshow", {})


def test_a_function_scheduling_itself_builds_its_own_arn(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stack cannot hand a function its own ARN (the function would depend on itself):
    the schedule's target is the ARN prefix the stack gives plus the name Lambda gives."""
    monkeypatch.delenv(arn_env_var("season"), raising=False)
    monkeypatch.setenv(SELF_ARN_PREFIX_ENV, "arn:aws:lambda:eu-central-1:123456789012:function:")
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "Tavla-dev-Season-abc")
    assert target_arn("season") == "arn:aws:lambda:eu-central-1:123456789012:function:Tavla-dev-Season-abc"
    monkeypatch.setenv(arn_env_var("noshow"), "arn:aws:lambda:eu-central-1:123456789012:function:NoShow")
    assert target_arn("noshow").endswith(":function:NoShow")
