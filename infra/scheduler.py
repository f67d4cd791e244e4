"""EventBridge Scheduler: the group that holds one-time schedules (no-show forfeits), the
registry's cron schedules (the nightly rebuild) and the role the Scheduler service
assumes to invoke their targets.

The invoke role may invoke exactly the functions marked `scheduled` or with a `cron`, and send
what still fails after the schedule's retries to the dead-letter queue; a function that `schedules`
others may create and delete schedules in this group only, and pass this role only. The
variables it gets are the ones `tavla.schedules` reads.
"""

from __future__ import annotations

import json

from aws_cdk import Fn, Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_scheduler as scheduler
from aws_cdk import aws_sqs as sqs
from cdk_nag import NagSuppressions
from constructs import Construct

from infra.lambdas import Lambdas
from tavla.schedules import (
    DEAD_LETTER_ENV,
    GROUP_ENV,
    MAX_EVENT_AGE_SECONDS,
    MAX_RETRY_ATTEMPTS,
    ROLE_ENV,
    SELF_ARN_PREFIX_ENV,
)


class Scheduling(Construct):
    """The schedule group, the invoke role, and the grants and variables of schedulers."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        lambdas: Lambdas,
        dead_letters: sqs.IQueue,
    ) -> None:
        super().__init__(scope, construct_id)
        functions, by_name = lambdas.specs, lambdas.by_name
        stack = Stack.of(self)
        self.group = scheduler.ScheduleGroup(self, "Group")
        self.invoke_role = iam.Role(
            self,
            "InvokeRole",
            assumed_by=iam.ServicePrincipal(
                "scheduler.amazonaws.com", conditions={"StringEquals": {"aws:SourceAccount": stack.account}}
            ),
            description="Assumed by EventBridge Scheduler to invoke the scheduled functions",
        )
        targets = {f.name for f in functions if f.scheduled or f.cron}
        for spec in functions:
            if not set(spec.schedules) <= {f.name for f in functions if f.scheduled}:
                raise ValueError(
                    f"{spec.name} schedules {spec.schedules}, but only {targets} are `scheduled`"
                )
        dead_letters.grant_send_messages(self.invoke_role)
        scheduled = [by_name[name].function_arn for name in sorted(targets)]
        if scheduled:
            self.invoke_role.add_to_policy(
                iam.PolicyStatement(actions=["lambda:InvokeFunction"], resources=scheduled)
            )
        for spec in functions:
            if spec.cron:
                self._cron(spec.name, spec.cron, by_name[spec.name].function_arn, dead_letters)
        schedules_in_group = stack.format_arn(
            service="scheduler", resource="schedule", resource_name=f"{self.group.schedule_group_name}/*"
        )
        specs = {spec.name: spec for spec in functions}
        for spec in functions:
            if not spec.schedules:
                continue
            function = by_name[spec.name]
            function.add_to_role_policy(
                iam.PolicyStatement(
                    actions=["scheduler:CreateSchedule", "scheduler:DeleteSchedule"],
                    resources=[schedules_in_group],
                )
            )
            function.add_to_role_policy(
                iam.PolicyStatement(actions=["iam:PassRole"], resources=[self.invoke_role.role_arn])
            )
            function.add_environment(GROUP_ENV, self.group.schedule_group_name)
            function.add_environment(ROLE_ENV, self.invoke_role.role_arn)
            function.add_environment(DEAD_LETTER_ENV, dead_letters.queue_arn)
            for target in spec.schedules:
                if target == spec.name:
                    function.add_environment(
                        SELF_ARN_PREFIX_ENV,
                        Fn.sub("arn:${AWS::Partition}:lambda:${AWS::Region}:${AWS::AccountId}:function:"),
                    )
                else:
                    function.add_environment(specs[target].arn_env_var, by_name[target].function_arn)
            assert function.role is not None
            NagSuppressions.add_resource_suppressions(
                function.role,
                [
                    {
                        "id": "AwsSolutions-IAM5",
                        "reason": "One-time schedules are named per match at run time; the "
                        "wildcard is confined to this stack's schedule group.",
                        "appliesTo": [
                            {
                                "regex": "/^Resource::arn:<AWS::Partition>:scheduler:"
                                "(<AWS::Region>|[a-z0-9-]+):<AWS::AccountId>:schedule/.*/\\*$/"
                            }
                        ],
                    }
                ],
                apply_to_children=True,
            )

    def _cron(self, name: str, cron: str, function_arn: str, dead_letters: sqs.IQueue) -> None:
        """A recurring schedule in the group: the function gets EventBridge's "Scheduled Event"
        shape (what its handler and the local stack's cron read), retried, then dead-lettered."""
        expression = cron if cron.startswith(("cron(", "rate(")) else f"cron({cron})"
        scheduler.CfnSchedule(
            self,
            f"{name.capitalize()}Cron",
            description=f"Runs {name} on its schedule",
            group_name=self.group.schedule_group_name,
            schedule_expression=expression,
            schedule_expression_timezone="UTC",
            flexible_time_window=scheduler.CfnSchedule.FlexibleTimeWindowProperty(mode="OFF"),
            target=scheduler.CfnSchedule.TargetProperty(
                arn=function_arn,
                role_arn=self.invoke_role.role_arn,
                input=json.dumps({"detail-type": "Scheduled Event", "source": "aws.scheduler", "detail": {}}),
                retry_policy=scheduler.CfnSchedule.RetryPolicyProperty(
                    maximum_retry_attempts=MAX_RETRY_ATTEMPTS,
                    maximum_event_age_in_seconds=MAX_EVENT_AGE_SECONDS,
                ),
                dead_letter_config=scheduler.CfnSchedule.DeadLetterConfigProperty(arn=dead_letters.queue_arn),
            ),
        )
