"""Bus events, cron ticks and one-time schedules reach exactly the functions the registry
names, with retries and a dead-letter queue; only publishers may put events on the bus."""

from __future__ import annotations

import json

import pytest

from infra.registry import EVENT_SOURCE, OUTBOX_PREFIX, OUTBOX_TABLE
from tavla.schedules import DEAD_LETTER_ENV, SELF_ARN_PREFIX_ENV
from tests.infra.helpers import Synthesized, actions_on, as_list, environment, render

pytestmark = pytest.mark.infra


def _function_id(synth: Synthesized, name: str) -> str:
    return synth.logical_id(synth.stack.lambdas.by_name[name])


def _rules(synth: Synthesized) -> list[dict]:
    return [r["Properties"] for r in synth.resources.values() if r["Type"] == "AWS::Events::Rule"]


def _queue_mappings(synth: Synthesized) -> dict[str, dict]:
    """The SQS event source mappings by their queue's logical id."""
    return {
        r["Properties"]["EventSourceArn"]["Fn::GetAtt"][0]: r["Properties"]
        for r in synth.resources.values()
        if r["Type"] == "AWS::Lambda::EventSourceMapping"
        and r["Properties"]["EventSourceArn"]["Fn::GetAtt"][1] == "Arn"
    }


def test_event_rules_route_declared_detail_types_to_their_function_with_retries_and_dlq(each_stack) -> None:
    """A rule's target is its function, or (for a function taking batches) a queue of its own
    that invokes it with partial batch failures and dead-letters what keeps failing."""
    bus = each_stack.logical_id(each_stack.stack.events.bus)
    queue = each_stack.logical_id(each_stack.stack.events.dead_letters)
    by_queue = _queue_mappings(each_stack)
    batched = {_function_id(each_stack, f.name): f for f in each_stack.functions if f.batch_seconds}
    by_target: dict[str, list[dict]] = {}
    for rule in _rules(each_stack):
        (target,) = rule["Targets"]
        assert target["RetryPolicy"]["MaximumRetryAttempts"] >= 1
        assert target["DeadLetterConfig"]["Arn"] == {"Fn::GetAtt": [queue, "Arn"]}
        function = target["Arn"]["Fn::GetAtt"][0]
        if function in by_queue:  # a queue of the function's own
            own = target["Arn"]["Fn::GetAtt"][0]
            mapping = by_queue[own]
            function = mapping["FunctionName"]["Ref"]
            spec = batched[function]
            assert mapping["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
            assert mapping["MaximumBatchingWindowInSeconds"] == spec.batch_seconds
            properties = each_stack.resources[own]["Properties"]
            assert properties["SqsManagedSseEnabled"] is True
            assert properties["RedrivePolicy"]["deadLetterTargetArn"] == {"Fn::GetAtt": [queue, "Arn"]}
            assert properties["VisibilityTimeout"] >= 6 * spec.timeout_seconds
        by_target.setdefault(function, []).append(rule)
    assert {m["FunctionName"]["Ref"] for m in by_queue.values()} == set(batched)
    for spec in each_stack.functions:
        found = by_target.get(_function_id(each_stack, spec.name), [])
        # crons are EventBridge Scheduler schedules (tests/infra/test_workflows.py)
        assert len(found) == bool(spec.events), spec.name
        if spec.events:
            (rule,) = found
            assert rule["EventBusName"] == {"Ref": bus}
            assert rule["EventPattern"] == {"source": [EVENT_SOURCE], "detail-type": list(spec.events)}
    assert sum(len(r) for r in by_target.values()) == sum(bool(f.events) for f in each_stack.functions)


def test_dead_letter_queue_is_encrypted_and_refuses_plain_http(each_stack: Synthesized) -> None:
    queue = each_stack.logical_id(each_stack.stack.events.dead_letters)
    assert each_stack.resources[queue]["Properties"]["SqsManagedSseEnabled"] is True
    policies = [
        r["Properties"]["PolicyDocument"]["Statement"]
        for r in each_stack.resources.values()
        if r["Type"] == "AWS::SQS::QueuePolicy" and {"Ref": queue} in r["Properties"]["Queues"]
    ]
    denies = [s for doc in policies for s in doc if s["Effect"] == "Deny"]
    assert any(s["Condition"] == {"Bool": {"aws:SecureTransport": "false"}} for s in denies)


def test_asynchronously_invoked_functions_retry_then_dead_letter(each_stack: Synthesized) -> None:
    queue = each_stack.logical_id(each_stack.stack.events.dead_letters)
    configs = {
        r["Properties"]["FunctionName"]["Ref"]: r["Properties"]
        for r in each_stack.resources.values()
        if r["Type"] == "AWS::Lambda::EventInvokeConfig"
    }
    expected = {
        _function_id(each_stack, f.name) for f in each_stack.functions if f.events or f.cron or f.scheduled
    }
    assert set(configs) == expected
    for config in configs.values():
        assert config["MaximumRetryAttempts"] >= 1
        assert config["DestinationConfig"]["OnFailure"]["Destination"] == {"Fn::GetAtt": [queue, "Arn"]}


def test_only_publishers_may_put_events_and_only_on_the_bus(each_stack: Synthesized) -> None:
    bus = each_stack.logical_id(each_stack.stack.events.bus)
    for spec in each_stack.functions:
        granted = actions_on(each_stack, spec.name, "events:")
        env = environment(each_stack, spec.name)
        if spec.publishes_events:
            assert granted == {f"<{bus}.Arn>": {"events:PutEvents"}}
            assert env["EVENT_BUS_NAME"] == {"Ref": bus}
        else:
            assert granted == {} and "EVENT_BUS_NAME" not in env, spec.name


def test_scheduler_role_invokes_exactly_the_scheduled_functions(each_stack: Synthesized) -> None:
    role_id = each_stack.logical_id(each_stack.stack.scheduling.invoke_role)
    role = each_stack.resources[role_id]["Properties"]
    (trust,) = role["AssumeRolePolicyDocument"]["Statement"]
    assert trust["Principal"] == {"Service": "scheduler.amazonaws.com"}
    invokable: set[str] = set()
    for resource in each_stack.resources.values():
        if resource["Type"] == "AWS::IAM::Policy" and {"Ref": role_id} in resource["Properties"]["Roles"]:
            for statement in resource["Properties"]["PolicyDocument"]["Statement"]:
                if statement["Action"] != "lambda:InvokeFunction":
                    continue  # the dead-letter grant: test_scheduler_role_may_park_failed_deliveries
                invokable.update(
                    render(r) for r in statement["Resource"] if isinstance(statement["Resource"], list)
                )
                if not isinstance(statement["Resource"], list):
                    invokable.add(render(statement["Resource"]))
    expected = {
        f"<{_function_id(each_stack, f.name)}.Arn>" for f in each_stack.functions if f.scheduled or f.cron
    }
    assert invokable == expected  # one-time schedules' targets and the crons'


def test_scheduler_role_may_park_failed_deliveries_in_the_dead_letter_queue(each_stack: Synthesized) -> None:
    """A schedule whose target keeps failing lands in the DLQ (its DeadLetterConfig), which
    Scheduler can only do with this role's sqs:SendMessage on that queue."""
    role_id = each_stack.logical_id(each_stack.stack.scheduling.invoke_role)
    queue = each_stack.logical_id(each_stack.stack.events.dead_letters)
    sendable = {
        render(resource)
        for policy in each_stack.resources.values()
        if policy["Type"] == "AWS::IAM::Policy" and {"Ref": role_id} in policy["Properties"]["Roles"]
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]
        if "sqs:SendMessage" in as_list(statement["Action"])
        for resource in as_list(statement["Resource"])
    }
    assert sendable == {f"<{queue}.Arn>"}


def test_anything_parked_in_the_dead_letter_queue_alarms_the_operators(each_stack: Synthesized) -> None:
    """a forfeit or notification that fails is retried, then parked where an operator sees it."""
    queue = each_stack.logical_id(each_stack.stack.events.dead_letters)
    topic = each_stack.logical_id(each_stack.stack.alarms.topic)
    alarms = [r["Properties"] for r in each_stack.resources.values() if r["Type"] == "AWS::CloudWatch::Alarm"]
    (on_queue,) = [
        a
        for a in alarms
        if a.get("Dimensions") == [{"Name": "QueueName", "Value": {"Fn::GetAtt": [queue, "QueueName"]}}]
    ]
    assert on_queue["MetricName"] == "ApproximateNumberOfMessagesVisible"
    assert on_queue["Threshold"] == 1 and on_queue["ComparisonOperator"] == "GreaterThanOrEqualToThreshold"
    assert on_queue["AlarmActions"] == [{"Ref": topic}]
    errors = {
        a["Dimensions"][0]["Value"]["Ref"]
        for a in alarms
        if a.get("MetricName") == "Errors" and a["AlarmActions"] == [{"Ref": topic}]
    }
    # every function's errors alarm, the asynchronous ones' among them
    assert errors == {_function_id(each_stack, f.name) for f in each_stack.functions}
    assert {f.name for f in each_stack.functions if f.events or f.cron or f.scheduled} <= set(
        each_stack.stack.alarms.errors
    )


def test_an_event_waiting_too_long_in_a_batching_functions_queue_alarms_the_operators(
    real: Synthesized,
) -> None:
    """the live channel's queue falling behind means every screen at the venue is behind."""
    topic = real.logical_id(real.stack.alarms.topic)
    alarms = [r["Properties"] for r in real.resources.values() if r["Type"] == "AWS::CloudWatch::Alarm"]
    batching = {f.name for f in real.functions if f.batch_seconds}
    assert "live" in batching and set(real.stack.events.queues) == batching
    for name in batching:
        queue = real.logical_id(real.stack.events.queues[name])
        (on_queue,) = [
            a
            for a in alarms
            if a.get("Dimensions") == [{"Name": "QueueName", "Value": {"Fn::GetAtt": [queue, "QueueName"]}}]
        ]
        assert on_queue["MetricName"] == "ApproximateAgeOfOldestMessage"
        assert on_queue["Statistic"] == "Maximum"
        assert on_queue["Threshold"] == 120 and on_queue["ComparisonOperator"] == "GreaterThanThreshold"
        assert on_queue["AlarmActions"] == [{"Ref": topic}]


def test_the_operators_topic_is_encrypted_with_a_key_cloudwatch_may_use(each_stack: Synthesized) -> None:
    topic = each_stack.resources[each_stack.logical_id(each_stack.stack.alarms.topic)]["Properties"]
    key_id = topic["KmsMasterKeyId"]["Fn::GetAtt"][0]
    key = each_stack.resources[key_id]["Properties"]
    assert key["EnableKeyRotation"] is True
    granted = [
        s
        for s in key["KeyPolicy"]["Statement"]
        if s.get("Principal") == {"Service": "cloudwatch.amazonaws.com"}
    ]
    assert granted and "kms:GenerateDataKey*" in as_list(granted[0]["Action"])


def test_schedulers_manage_schedules_in_the_group_and_pass_only_the_invoke_role(
    each_stack: Synthesized,
) -> None:
    group = each_stack.stack.scheduling.group
    role = f"<{each_stack.logical_id(each_stack.stack.scheduling.invoke_role)}.Arn>"
    group_id = each_stack.logical_id(group)
    group_name = each_stack.resources[group_id]["Properties"]["Name"]
    queue = each_stack.logical_id(each_stack.stack.events.dead_letters)
    for spec in each_stack.functions:
        env = environment(each_stack, spec.name)
        scheduler = actions_on(each_stack, spec.name, "scheduler:")
        passes = actions_on(each_stack, spec.name, "iam:")
        if not spec.schedules:
            assert scheduler == {} and passes == {}, spec.name
            assert "SCHEDULER_ROLE_ARN" not in env and DEAD_LETTER_ENV not in env
            continue
        ((resource, actions),) = scheduler.items()
        assert actions == {"scheduler:CreateSchedule", "scheduler:DeleteSchedule"}
        assert resource.endswith(f":schedule/{group_name}/*")
        assert passes == {role: {"iam:PassRole"}}
        assert env["SCHEDULER_GROUP_NAME"] in (group_name, {"Ref": group_id})
        assert render(env["SCHEDULER_ROLE_ARN"]) == role
        assert env[DEAD_LETTER_ENV] == {"Fn::GetAtt": [queue, "Arn"]}
        for target in spec.schedules:
            if target == spec.name:  # its own ARN: the prefix, and Lambda's name at run time
                assert f"{target.upper()}_FUNCTION_ARN" not in env
                assert env[SELF_ARN_PREFIX_ENV] == {
                    "Fn::Sub": "arn:${AWS::Partition}:lambda:${AWS::Region}:${AWS::AccountId}:function:"
                }
                continue
            assert env[f"{target.upper()}_FUNCTION_ARN"] == {
                "Fn::GetAtt": [_function_id(each_stack, target), "Arn"]
            }


def test_trigger_stack_exercises_every_kind_of_trigger(triggers: Synthesized) -> None:
    """Keeps the fixture honest: the checks above ran on cron, schedules and publishing."""
    assert any(f.cron for f in triggers.functions)
    assert any(f.scheduled for f in triggers.functions) and any(f.schedules for f in triggers.functions)
    assert any(f.publishes_events for f in triggers.functions)


def test_the_outbox_stream_feeds_the_publisher_alone_new_outbox_items_only(each_stack: Synthesized) -> None:
    """Events written with their change reach the bus through one publisher: the outbox table's
    stream (new images), filtered to inserted outbox items, partial batch failures, retried up
    to the event age, then the dead-letter queue."""
    publishers = [f for f in each_stack.functions if f.drains_outbox]
    resources = each_stack.resources.values()
    table = each_stack.logical_id(each_stack.stack.tables.by_name[OUTBOX_TABLE.name])
    mappings = [
        r["Properties"]
        for r in resources
        if r["Type"] == "AWS::Lambda::EventSourceMapping"
        and r["Properties"]["EventSourceArn"]["Fn::GetAtt"][0] == table
    ]
    stream = each_stack.resources[table]["Properties"].get("StreamSpecification")
    if not publishers:
        assert mappings == [] and stream is None
        return
    (publisher,) = publishers
    assert stream == {"StreamViewType": "NEW_IMAGE"}
    (mapping,) = mappings
    assert mapping["FunctionName"] == {"Ref": _function_id(each_stack, publisher.name)}
    assert mapping["EventSourceArn"] == {"Fn::GetAtt": [table, "StreamArn"]}
    assert mapping["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert mapping["StartingPosition"] == "TRIM_HORIZON"
    assert mapping["MaximumRetryAttempts"] >= 1000 and mapping["MaximumRecordAgeInSeconds"] == 6 * 3600
    queue = each_stack.logical_id(each_stack.stack.events.dead_letters)
    assert mapping["DestinationConfig"]["OnFailure"]["Destination"] == {"Fn::GetAtt": [queue, "Arn"]}
    (pattern,) = [json.loads(f["Pattern"]) for f in mapping["FilterCriteria"]["Filters"]]
    outbox_keys = {"pk": {"S": [{"prefix": OUTBOX_PREFIX}]}}
    assert pattern == {"eventName": ["INSERT"], "dynamodb": {"Keys": outbox_keys}}
    assert publisher.publishes_events and [f.name for f in each_stack.functions if f.publishes_events] == [
        publisher.name
    ], "no service puts on the bus by itself"
