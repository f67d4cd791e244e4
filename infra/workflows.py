"""Step Functions state machines from the registry's WORKFLOWS (the full rebuild).

Each workflow is one Standard state machine whose steps all invoke the workflow's function:
the first step plans, a step with `map_over` is a Distributed Map over that list of the plan
(each item a child execution, `max_concurrency` at once), the others get the whole state.
Each step's output is kept under its name, as the local runner (local/workflows.py) does.
A workflow with a `cron` is started by an EventBridge Scheduler schedule in the platform's
group, whose role may start that state machine and nothing else. The state machine logs
every execution event and is traced; its role may invoke its one function (and, for the
Distributed Map, run child executions of itself).
"""

from __future__ import annotations

import json

from aws_cdk import Duration, Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_logs as logs
from aws_cdk import aws_scheduler as scheduler
from aws_cdk import aws_sqs as sqs
from aws_cdk import aws_stepfunctions as sfn
from aws_cdk import aws_stepfunctions_tasks as tasks
from cdk_nag import NagSuppressions
from constructs import Construct

from infra.lambdas import LOG_RETENTION, Lambdas
from infra.registry import Step, Workflow
from tavla.schedules import MAX_EVENT_AGE_SECONDS, MAX_RETRY_ATTEMPTS

STEP_RETRIES = 2  # every step is idempotent: a failed one is run again


def _name(text: str) -> str:
    return "".join(part.capitalize() for part in text.replace("-", "_").split("_"))


class Workflows(Construct):
    """One state machine per registry workflow, and the schedules that start them."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        workflows: tuple[Workflow, ...],
        lambdas: Lambdas,
        schedule_group: scheduler.ScheduleGroup,
        dead_letters: sqs.IQueue,
    ) -> None:
        super().__init__(scope, construct_id)
        self.by_name: dict[str, sfn.StateMachine] = {}
        for workflow in workflows:
            machine = self._state_machine(workflow, lambdas)
            self.by_name[workflow.name] = machine
            if workflow.cron:
                self._schedule(workflow, machine, schedule_group, dead_letters)

    def _task(self, scope: Construct, workflow: Workflow, step: Step, lambdas: Lambdas) -> tasks.LambdaInvoke:
        function = lambdas.by_name[workflow.function]
        payload = None  # a map item: its input, {"step", "item"} from the item selector, as it is
        if not step.map_over:
            payload = sfn.TaskInput.from_object(
                {"step": step.name, "state": {} if step is workflow.steps[0] else sfn.JsonPath.entire_payload}
            )
        task = tasks.LambdaInvoke(
            scope,
            _name(step.name),
            lambda_function=function,
            payload=payload,
            payload_response_only=True,
            result_path=None if step.map_over else f"$.{step.name}",
            retry_on_service_exceptions=True,
        )
        task.add_retry(errors=["States.TaskFailed"], max_attempts=STEP_RETRIES, backoff_rate=2)
        return task

    def _state_machine(self, workflow: Workflow, lambdas: Lambdas) -> sfn.StateMachine:
        scope = Construct(self, _name(workflow.name))
        first, *rest = workflow.steps
        chain: sfn.Chain = sfn.Chain.start(self._task(scope, workflow, first, lambdas))
        for step in rest:
            if step.map_over:
                fan_out = sfn.DistributedMap(
                    scope,
                    f"{_name(step.name)}Map",
                    items_path=f"$.{first.name}.{step.map_over}",
                    item_selector={"step": step.name, "item": sfn.JsonPath.object_at("$$.Map.Item.Value")},
                    max_concurrency=step.max_concurrency,
                    result_path=f"$.{step.name}",
                    map_execution_type=sfn.StateMachineType.STANDARD,  # a step may take 15 minutes
                )
                fan_out.item_processor(self._task(scope, workflow, step, lambdas))
                chain = chain.next(fan_out)
            else:
                chain = chain.next(self._task(scope, workflow, step, lambdas))
        log_group = logs.LogGroup(scope, "Logs", retention=LOG_RETENTION)
        machine = sfn.StateMachine(
            scope,
            "StateMachine",
            comment=workflow.description,
            definition_body=sfn.DefinitionBody.from_chainable(chain),
            state_machine_type=sfn.StateMachineType.STANDARD,
            timeout=Duration.minutes(workflow.timeout_minutes),
            tracing_enabled=True,
            logs=sfn.LogOptions(destination=log_group, level=sfn.LogLevel.ALL, include_execution_data=False),
        )
        NagSuppressions.add_resource_suppressions(
            machine,  # its role's policy and the Distributed Map's policy on that role
            [
                {
                    "id": "AwsSolutions-IAM5",
                    "reason": "Step Functions invokes the step function's versions and aliases "
                    "(its ARN with :*), runs the Distributed Map's child executions of this state "
                    "machine only, and its log delivery and X-Ray calls take no resource.",
                    "appliesTo": [
                        {"regex": "/^Resource::<.*Function.*\\.Arn>:\\*$/"},
                        {
                            "regex": "/^Resource::arn:<AWS::Partition>:states:[^:]+:<AWS::AccountId>:"
                            "execution:.*$/"
                        },
                        "Resource::*",
                    ],
                }
            ],
            apply_to_children=True,
        )
        return machine

    def _schedule(
        self,
        workflow: Workflow,
        machine: sfn.StateMachine,
        group: scheduler.ScheduleGroup,
        dead_letters: sqs.IQueue,
    ) -> None:
        assert workflow.cron is not None
        scope = Construct(self, f"{_name(workflow.name)}Schedule")
        stack = Stack.of(self)
        role = iam.Role(
            scope,
            "Role",
            assumed_by=iam.ServicePrincipal(
                "scheduler.amazonaws.com", conditions={"StringEquals": {"aws:SourceAccount": stack.account}}
            ),
            description=f"Assumed by EventBridge Scheduler to start the {workflow.name} state machine",
        )
        machine.grant_start_execution(role)
        dead_letters.grant_send_messages(role)
        scheduler.CfnSchedule(
            scope,
            "Cron",
            description=f"Starts the {workflow.name} workflow",
            group_name=group.schedule_group_name,
            schedule_expression=workflow.cron,
            schedule_expression_timezone="UTC",
            flexible_time_window=scheduler.CfnSchedule.FlexibleTimeWindowProperty(mode="OFF"),
            target=scheduler.CfnSchedule.TargetProperty(
                arn=machine.state_machine_arn,
                role_arn=role.role_arn,
                input=json.dumps({}),
                retry_policy=scheduler.CfnSchedule.RetryPolicyProperty(
                    maximum_retry_attempts=MAX_RETRY_ATTEMPTS,
                    maximum_event_age_in_seconds=MAX_EVENT_AGE_SECONDS,
                ),
                dead_letter_config=scheduler.CfnSchedule.DeadLetterConfigProperty(arn=dead_letters.queue_arn),
            ),
        )
