"""EventBridge's clockwork: one-time Scheduler schedules and the registry's cron rules.

moto stores schedules but never fires them. This thread does, once a second (and on
demand): a schedule `at(...)` that is due by `tavla.clock` invokes its target function
with the schedule's Input as the event; afterwards it is deleted (ActionAfterCompletion
DELETE) or left spent. A failing target is retried on the next ticks, then parked in the
local dead letters (`GET /dev/dead-letters`), like Scheduler's retry policy ending in the
dead-letter queue its DeadLetterConfig names. A function with
a `cron` in the registry gets EventBridge's "Scheduled Event" for every matching minute the
clock passes (also when `/dev/clock` jumps ahead by days); a workflow's cron runs its steps.
"""

from __future__ import annotations

import json
import logging
import threading
import uuid
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from infra.registry import FUNCTIONS, WORKFLOWS
from local import workflows
from local.aws import client
from local.cron import Trigger, parse_trigger
from local.deadletters import DeadLetters
from local.env import ACCOUNT, REGION, SCHEDULER_GROUP, function_arn, function_name
from local.lambdas import Environments, HandlerError
from local.periodic import Periodic
from tavla import clock

log = logging.getLogger("local.scheduler")
MAX_ATTEMPTS = 3


def due_time(expression: str, timezone: str | None) -> datetime | None:
    """The moment an `at(yyyy-mm-ddThh:mm:ss)` expression names; None for rate/cron."""
    if not (expression.startswith("at(") and expression.endswith(")")):
        return None
    moment = datetime.fromisoformat(expression[3:-1])
    return moment.replace(tzinfo=ZoneInfo(timezone or "UTC"))


class Scheduler:
    def __init__(
        self,
        moto_url: str,
        environments: Environments,
        interval: float = 1.0,
        dead_letters: DeadLetters | None = None,
    ) -> None:
        self._client = client("scheduler", moto_url)
        self._environments = environments
        self.dead_letters = dead_letters or DeadLetters()
        self._interval = interval
        self._targets = {function_arn(f.name): f.name for f in FUNCTIONS}
        self._attempts: dict[str, int] = {}
        self._spent: set[str] = set()
        self._cron_checked = clock.now()
        self._crons = [
            (f.name, trigger)
            for f in FUNCTIONS
            if f.cron
            for trigger in [_parse_trigger(f.name, f.cron, self._cron_checked)]
            if trigger
        ]
        # a workflow's Scheduler cron starts its steps, run in order (local.workflows)
        self._workflow_crons = [
            (w, trigger)
            for w in WORKFLOWS
            if w.cron
            for trigger in [_parse_trigger(f"workflow {w.name}", w.cron, self._cron_checked)]
            if trigger
        ]
        self._tick_lock = threading.RLock()
        self._periodic = Periodic("scheduler", self._interval, self.tick, log)

    def start(self) -> None:
        self._periodic.start()

    def stop(self) -> None:
        self._periodic.stop()

    def advance(self, delta: timedelta) -> list[str]:
        """Move the platform's clock and fire what became due, with no other tick in between."""
        with self._tick_lock:
            self._environments.advance_clock(delta)
            return self.tick()

    def tick(self) -> list[str]:
        """Fire every due schedule once; returns the names fired."""
        with self._tick_lock:
            fired = []
            for name in self._schedule_names():
                schedule = self._client.get_schedule(Name=name, GroupName=SCHEDULER_GROUP)
                if self._due(schedule) and self._fire(schedule):
                    fired.append(name)
            fired.extend(self._fire_crons())
            return fired

    def _fire_crons(self) -> list[str]:
        after, until = self._cron_checked, clock.now()
        self._cron_checked = until
        fired = []
        for function, cron in self._crons:
            for moment in cron.between(after, until):
                try:
                    self._environments.invoke(function, scheduled_event(function, moment))
                    fired.append(f"cron:{function}@{moment.isoformat()}")
                except HandlerError as error:
                    log.error("cron %s at %s failed:\n%s", function, moment.isoformat(), error.trace)
        for workflow, cron in self._workflow_crons:
            for moment in cron.between(after, until):
                try:
                    workflows.run(workflow, self._environments.invoke)
                    fired.append(f"workflow:{workflow.name}@{moment.isoformat()}")
                except HandlerError as error:
                    log.error("workflow %s at %s failed:\n%s", workflow.name, moment.isoformat(), error.trace)
        return fired

    def _schedule_names(self) -> list[str]:
        names: list[str] = []
        for page in self._client.get_paginator("list_schedules").paginate(GroupName=SCHEDULER_GROUP):
            names.extend(s["Name"] for s in page["Schedules"])
        return names

    def _due(self, schedule: dict[str, Any]) -> bool:
        if schedule.get("State", "ENABLED") != "ENABLED" or schedule["Name"] in self._spent:
            return False
        moment = due_time(schedule["ScheduleExpression"], schedule.get("ScheduleExpressionTimezone"))
        return moment is not None and moment <= clock.now()

    def _fire(self, schedule: dict[str, Any]) -> bool:
        name, target = schedule["Name"], schedule["Target"]
        function = self._targets.get(target["Arn"])
        if function is None:
            log.error("schedule %s targets %s, which is no registry function; dropped", name, target["Arn"])
            self._finish(schedule)
            return False
        event = json.loads(target["Input"]) if target.get("Input") else {}
        try:
            self._environments.invoke(function, event)
        except HandlerError as error:
            attempts = self._attempts.get(name, 0) + 1
            self._attempts[name] = attempts
            log.error("schedule %s: %s failed (attempt %d):\n%s", name, function, attempts, error.trace)
            if attempts >= MAX_ATTEMPTS:
                if not target.get("DeadLetterConfig"):
                    log.error("schedule %s has no DeadLetterConfig: in the cloud it would be lost", name)
                self.dead_letters.park(
                    source="schedule",
                    name=name,
                    function=function,
                    attempts=attempts,
                    event=event,
                    error=error.trace,
                )
                self._finish(schedule)
            return False
        self._finish(schedule)
        return True

    def _finish(self, schedule: dict[str, Any]) -> None:
        self._attempts.pop(schedule["Name"], None)
        if schedule.get("ActionAfterCompletion") == "DELETE":
            self._client.delete_schedule(Name=schedule["Name"], GroupName=SCHEDULER_GROUP)
        else:
            self._spent.add(schedule["Name"])


def _parse_trigger(function: str, expression: str, since: datetime) -> Trigger | None:
    try:
        return parse_trigger(expression, since)
    except ValueError as error:
        log.error("%s's cron trigger will not fire locally: %s", function, error)
        return None


def scheduled_event(function: str, moment: datetime) -> dict[str, Any]:
    """What an EventBridge cron rule sends its Lambda target."""
    return {
        "version": "0",
        "id": str(uuid.uuid4()),
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": ACCOUNT,
        "time": moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "region": REGION,
        "resources": [f"arn:aws:events:{REGION}:{ACCOUNT}:rule/{function_name(function)}-cron"],
        "detail": {},
    }
