"""The registry's workflows as Step Functions state machines (the full rebuild,
partitioned): a Distributed Map per map step, least-privilege roles, started by an
EventBridge Scheduler cron; the functions' crons are Scheduler schedules too."""

from __future__ import annotations

import json
from typing import Any

import pytest

from infra.registry import WORKFLOWS, workflow
from tests.infra.helpers import Synthesized, as_list, render

pytestmark = pytest.mark.infra


def _of_type(synth: Synthesized, kind: str) -> dict[str, dict[str, Any]]:
    return {k: r for k, r in synth.resources.items() if r["Type"] == kind}


def _policy(synth: Synthesized, role_id: str) -> list[dict[str, Any]]:
    return [
        s
        for r in _of_type(synth, "AWS::IAM::Policy").values()
        if {"Ref": role_id} in r["Properties"]["Roles"]
        for s in r["Properties"]["PolicyDocument"]["Statement"]
    ]


def _granted(statements: list[dict[str, Any]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for s in statements:
        assert s["Effect"] == "Allow"
        for resource in as_list(s["Resource"]):
            out.setdefault(render(resource), set()).update(as_list(s["Action"]))
    return out


def test_the_rebuild_is_a_state_machine_with_a_distributed_map_per_partitioned_step(
    real: Synthesized,
) -> None:
    """plan, then a Distributed Map over tournament chunks, the check, a Distributed
    Map over player shards and one over seasons, each step the `rebuild` function, in that order."""
    flow = workflow("rebuild")
    machine = real.stack.workflows.by_name["rebuild"]
    props = real.resources[real.logical_id(machine)]["Properties"]
    definition = json.loads(render(props["DefinitionString"]))
    function = f"<{real.logical_id(real.stack.lambdas.by_name['rebuild'])}.Arn>"
    order, name = [], definition["StartAt"]
    while name:
        order.append(name)
        name = definition["States"][name].get("Next")
    assert order == ["Plan", "LedgerMap", "Check", "PlayersMap", "SeasonsMap"]
    assert definition["TimeoutSeconds"] == flow.timeout_minutes * 60
    for step in flow.steps:
        state = definition["States"][
            f"{step.name.capitalize()}Map" if step.map_over else step.name.capitalize()
        ]
        if step.map_over:
            assert state["Type"] == "Map"
            assert state["ItemProcessor"]["ProcessorConfig"] == {
                "Mode": "DISTRIBUTED",
                "ExecutionType": "STANDARD",
            }
            assert state["ItemsPath"] == f"$.plan.{step.map_over}"
            assert state["MaxConcurrency"] == step.max_concurrency
            assert state["ItemSelector"] == {"step": step.name, "item.$": "$$.Map.Item.Value"}
            assert state["ResultPath"] == f"$.{step.name}"
            (task,) = state["ItemProcessor"]["States"].values()
        else:
            task = state
            assert task["Parameters"]["step"] == step.name
            assert task["ResultPath"] == f"$.{step.name}"
        if step.map_over:  # the child execution's input, {"step", "item"}, is the event as it is
            assert "Parameters" not in task
        assert render(task["Resource"]) == function  # invoked directly: the payload is the output
        assert any(r["ErrorEquals"] == ["States.TaskFailed"] for r in task["Retry"])
    assert props["TracingConfiguration"] == {"Enabled": True}
    assert props["LoggingConfiguration"]["Level"] == "ALL"


def test_the_state_machine_may_invoke_its_function_and_run_its_own_children_only(real: Synthesized) -> None:
    """Least privilege: the state machine's role invokes the rebuild function (and its
    versions), starts and watches child executions of itself, and touches no table."""
    machine = real.stack.workflows.by_name["rebuild"]
    role_id = real.logical_id(machine.role)
    function = f"<{real.logical_id(real.stack.lambdas.by_name['rebuild'])}.Arn>"
    granted = _granted(_policy(real, role_id))
    invoke = {r for r, actions in granted.items() if "lambda:InvokeFunction" in actions}
    assert invoke == {function, f"{function}:*"}
    assert not any(a.startswith("dynamodb:") for actions in granted.values() for a in actions)
    starts = {r for r, actions in granted.items() if "states:StartExecution" in actions}
    assert starts == {f"<{real.logical_id(machine)}>"}
    executions = [r for r, actions in granted.items() if "states:StopExecution" in actions]
    assert executions and all(":execution:" in r for r in executions)
    wildcards = {r for r in granted if r == "*"}
    assert all(a.startswith(("logs:", "xray:")) for r in wildcards for a in granted[r])


def test_the_rebuild_function_reads_and_writes_the_main_table_only(real: Synthesized) -> None:
    """Least privilege: the steps' function has the main table (and its indexes) and nothing else."""
    spec = next(f for f in real.functions if f.name == workflow("rebuild").function)
    assert set(spec.tables) == {"main"} and not spec.http and not spec.publishes_events
    role_id = real.logical_id(real.stack.lambdas.by_name["rebuild"].role)
    granted = _granted(_policy(real, role_id))
    tables = {r for r, actions in granted.items() if any(a.startswith("dynamodb:") for a in actions)}
    main = real.logical_id(real.stack.tables.by_name["main"])
    assert tables and all(r.startswith(f"<{main}.Arn>") for r in tables)


def test_a_scheduler_cron_starts_each_workflow_with_a_role_that_may_only_start_it(real: Synthesized) -> None:
    schedules = [r["Properties"] for r in _of_type(real, "AWS::Scheduler::Schedule").values()]
    group_id = real.logical_id(real.stack.scheduling.group)
    group = real.resources[group_id]["Properties"]["Name"]
    queue = real.logical_id(real.stack.events.dead_letters)
    for flow in WORKFLOWS:
        machine = f"<{real.logical_id(real.stack.workflows.by_name[flow.name])}>"
        (schedule,) = [s for s in schedules if render(s["Target"]["Arn"]) == machine]
        assert schedule["ScheduleExpression"] == flow.cron
        assert schedule["ScheduleExpressionTimezone"] == "UTC"
        assert schedule["GroupName"] in (group, {"Ref": group_id})  # alarmed with the other schedules
        assert schedule["Target"]["RetryPolicy"]["MaximumRetryAttempts"] >= 1
        assert schedule["Target"]["DeadLetterConfig"]["Arn"] == {"Fn::GetAtt": [queue, "Arn"]}
        role_id = schedule["Target"]["RoleArn"]["Fn::GetAtt"][0]
        trust = real.resources[role_id]["Properties"]["AssumeRolePolicyDocument"]["Statement"]
        assert [s["Principal"] for s in trust] == [{"Service": "scheduler.amazonaws.com"}]
        granted = _granted(_policy(real, role_id))
        assert granted.pop(machine) == {"states:StartExecution"}
        assert set(granted) == {f"<{queue}.Arn>"}  # what keeps failing is parked


def test_function_crons_are_scheduler_schedules_not_event_rules(each_stack: Synthesized) -> None:
    """every recurring trigger is an EventBridge Scheduler cron in the platform's
    group (alarmed with the one-time schedules), invoking its function through the invoke role."""
    rules = [r["Properties"] for r in _of_type(each_stack, "AWS::Events::Rule").values()]
    assert not [r for r in rules if "ScheduleExpression" in r]
    schedules = [r["Properties"] for r in _of_type(each_stack, "AWS::Scheduler::Schedule").values()]
    role = f"<{each_stack.logical_id(each_stack.stack.scheduling.invoke_role)}.Arn>"
    for spec in each_stack.functions:
        function = f"<{each_stack.logical_id(each_stack.stack.lambdas.by_name[spec.name])}.Arn>"
        found = [s for s in schedules if render(s["Target"]["Arn"]) == function]
        assert len(found) == bool(spec.cron), spec.name
        for schedule in found:
            assert schedule["ScheduleExpression"] in (spec.cron, f"cron({spec.cron})")
            assert render(schedule["Target"]["RoleArn"]) == role
            assert json.loads(schedule["Target"]["Input"])["detail-type"] == "Scheduled Event"
