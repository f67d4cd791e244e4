"""The local scheduler fires one-time schedules when tavla.clock reaches them, like EventBridge Scheduler."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest

from infra.registry import FUNCTIONS, Function, Step, Workflow
from local import scheduler as scheduler_module
from local.env import function_arn
from local.lambdas import HandlerError
from local.scheduler import MAX_ATTEMPTS, Scheduler
from tavla import clock


class FakeSchedulerClient:
    """The few Scheduler API calls the local scheduler makes, over a dict."""

    def __init__(self) -> None:
        self.schedules: dict[str, dict[str, Any]] = {}

    def get_paginator(self, _: str) -> Any:
        schedules = self.schedules

        class Paginator:
            def paginate(self, GroupName: str) -> list[dict[str, Any]]:
                return [{"Schedules": [{"Name": n} for n in schedules]}]

        return Paginator()

    def get_schedule(self, Name: str, GroupName: str) -> dict[str, Any]:
        return self.schedules[Name]

    def delete_schedule(self, Name: str, GroupName: str) -> None:
        del self.schedules[Name]


class FakeEnvironments:
    def __init__(self, fail: bool = False) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.fail = fail

    def invoke(self, function: str, event: Any) -> Any:
        self.calls.append((function, event))
        if self.fail:
            raise HandlerError(function, "Traceback: boom")
        return None


@pytest.fixture
def fake_client(monkeypatch):
    # at noon UTC, minutes away from every registry cron (02:30, Sunday 04:00), so a tick
    # fires only the schedules a test makes, whatever the time of day it runs
    noon = clock.now().replace(hour=12, minute=0, second=0, microsecond=0)
    clock.advance(noon - clock.now())
    fake = FakeSchedulerClient()
    monkeypatch.setattr(scheduler_module, "client", lambda service, url: fake)
    yield fake
    clock.reset()


def schedule(fake, name, minutes_from_now, target="openapi", action="DELETE"):
    at = (clock.now() + timedelta(minutes=minutes_from_now)).strftime("%Y-%m-%dT%H:%M:%S")
    fake.schedules[name] = {
        "Name": name,
        "ScheduleExpression": f"at({at})",
        "ScheduleExpressionTimezone": "UTC",
        "State": "ENABLED",
        "ActionAfterCompletion": action,
        "Target": {"Arn": function_arn(target), "Input": json.dumps({"match_id": name})},
    }


def test_schedule_fires_its_target_with_its_input_only_once_due(fake_client):
    environments = FakeEnvironments()
    local_scheduler = Scheduler("http://unused", environments)  # type: ignore[arg-type]
    schedule(fake_client, "noshow-m1", minutes_from_now=10)
    assert local_scheduler.tick() == []
    clock.advance(timedelta(minutes=10, seconds=1))
    assert local_scheduler.tick() == ["noshow-m1"]
    assert environments.calls == [("openapi", {"match_id": "noshow-m1"})]
    assert fake_client.schedules == {}  # ActionAfterCompletion DELETE
    assert local_scheduler.tick() == []


def test_a_kept_schedule_fires_once(fake_client):
    environments = FakeEnvironments()
    local_scheduler = Scheduler("http://unused", environments)  # type: ignore[arg-type]
    schedule(fake_client, "kept", minutes_from_now=-1, action="NONE")
    assert local_scheduler.tick() == ["kept"]
    assert local_scheduler.tick() == []
    assert "kept" in fake_client.schedules and len(environments.calls) == 1


def test_a_failing_target_is_retried_then_parked_in_view(fake_client, caplog):
    """a forfeit that keeps failing is parked where an operator sees it, never lost."""
    environments = FakeEnvironments(fail=True)
    local_scheduler = Scheduler("http://unused", environments)  # type: ignore[arg-type]
    schedule(fake_client, "flaky", minutes_from_now=-1)
    for _ in range(MAX_ATTEMPTS):
        assert local_scheduler.dead_letters.list() == []
        assert local_scheduler.tick() == []
    assert len(environments.calls) == MAX_ATTEMPTS
    assert fake_client.schedules == {}
    (parked,) = local_scheduler.dead_letters.list()
    assert parked["source"] == "schedule" and parked["name"] == "flaky" and parked["function"] == "openapi"
    assert parked["attempts"] == MAX_ATTEMPTS and parked["event"] == {"match_id": "flaky"}
    assert parked["error"] == "Traceback: boom"
    assert "DEAD LETTER" in caplog.text and "/dev/dead-letters" in caplog.text


def test_a_schedule_for_an_unknown_function_is_dropped_loudly(fake_client, caplog):
    environments = FakeEnvironments()
    local_scheduler = Scheduler("http://unused", environments)  # type: ignore[arg-type]
    schedule(fake_client, "stray", minutes_from_now=-1)
    fake_client.schedules["stray"]["Target"]["Arn"] = "arn:aws:lambda:eu-central-1:1:function:nope"
    assert local_scheduler.tick() == []
    assert environments.calls == [] and fake_client.schedules == {}
    assert "no registry function" in caplog.text


def test_cron_triggers_fire_for_every_occurrence_the_clock_passes(fake_client, monkeypatch):
    rollup = Function(name="rollup", module="unused", description="", http=False, cron="cron(0 3 * * ? *)")
    # the rollup alone: the registry's own crons (the nightly ratings rebuild) are not this test's
    monkeypatch.setattr(scheduler_module, "FUNCTIONS", (*(f for f in FUNCTIONS if not f.cron), rollup))
    monkeypatch.setattr(scheduler_module, "WORKFLOWS", ())  # nor the weekly full rebuild
    environments = FakeEnvironments()
    local_scheduler = Scheduler("http://unused", environments)  # type: ignore[arg-type]
    clock.advance(timedelta(days=2))
    fired = local_scheduler.tick()
    assert len(fired) == 2 and all(f.startswith("cron:rollup@") for f in fired)
    assert [event["detail-type"] for _, event in environments.calls] == ["Scheduled Event"] * 2
    assert all(event["time"].endswith("T03:00:00Z") for _, event in environments.calls)
    assert local_scheduler.tick() == []


def test_a_workflow_cron_runs_its_steps_in_order_through_its_function(fake_client, monkeypatch):
    """the local stack runs a Step Functions workflow's steps one after another, a
    map step once per item of the plan, with the events the state machine would send."""
    flow = Workflow(
        name="rollup",
        function="rollup",
        description="",
        steps=(Step("plan"), Step("each", map_over="parts", max_concurrency=4), Step("sum")),
        cron="cron(0 3 * * ? *)",
    )
    monkeypatch.setattr(scheduler_module, "FUNCTIONS", tuple(f for f in FUNCTIONS if not f.cron))
    monkeypatch.setattr(scheduler_module, "WORKFLOWS", (flow,))

    class Steps(FakeEnvironments):
        def invoke(self, function: str, event: Any) -> Any:
            super().invoke(function, event)
            if event["step"] == "plan":
                return {"parts": [{"n": 1}, {"n": 2}]}
            return event.get("item", {}).get("n", 0) * 10

    environments = Steps()
    local_scheduler = Scheduler("http://unused", environments)  # type: ignore[arg-type]
    clock.advance(timedelta(days=1))
    fired = local_scheduler.tick()
    assert len(fired) == 1 and fired[0].startswith("workflow:rollup@")
    assert [(f, e["step"], e.get("item")) for f, e in environments.calls] == [
        ("rollup", "plan", None),
        ("rollup", "each", {"n": 1}),
        ("rollup", "each", {"n": 2}),
        ("rollup", "sum", None),
    ]
    last = environments.calls[-1][1]["state"]
    assert last == {"plan": {"parts": [{"n": 1}, {"n": 2}]}, "each": [10, 20]}
