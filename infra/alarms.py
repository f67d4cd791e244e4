"""Where failures surface: the operators' topic and the alarms that publish to it.

Anything parked in the dead-letter queue (a forfeit, a notification, a cron tick that kept
failing after its retries) raises an alarm at once, and so does any error of a function
that runs asynchronously, before its retries run out. Operators subscribe to the topic
(e-mail, chat); its messages are encrypted with a key that CloudWatch may use, since
CloudWatch cannot publish to a topic under the AWS-managed SNS key.
"""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as actions
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from infra.lambdas import Lambdas

PERIOD = Duration.minutes(5)  # SQS publishes its metrics every five minutes


class Alarms(Construct):
    def __init__(
        self, scope: Construct, construct_id: str, *, lambdas: Lambdas, dead_letters: sqs.IQueue
    ) -> None:
        super().__init__(scope, construct_id)
        key = kms.Key(
            self,
            "TopicKey",
            description="Encrypts the operators' alarm topic",
            enable_key_rotation=True,
        )
        key.add_to_resource_policy(
            iam.PolicyStatement(
                principals=[iam.ServicePrincipal("cloudwatch.amazonaws.com")],
                actions=["kms:Decrypt", "kms:GenerateDataKey*"],
                resources=["*"],  # in a key policy, "*" is this key
            )
        )
        self.topic = sns.Topic(
            self, "Operators", display_name="Tavla operators", master_key=key, enforce_ssl=True
        )
        notify = actions.SnsAction(self.topic)
        self.dead_letters = cloudwatch.Alarm(
            self,
            "DeadLetters",
            alarm_description="Something was parked in the dead-letter queue after its retries: "
            "a forfeit, a notification or a scheduled run did not happen. Read the message, fix, "
            "and redrive it.",
            metric=dead_letters.metric_approximate_number_of_messages_visible(
                period=PERIOD, statistic="Maximum"
            ),
            threshold=1,
            comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
            evaluation_periods=1,
            treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING,
        )
        self.dead_letters.add_alarm_action(notify)
        self.errors: dict[str, cloudwatch.Alarm] = {}
        for spec in lambdas.specs:
            if not (spec.events or spec.cron or spec.scheduled):
                continue
            alarm = cloudwatch.Alarm(
                self,
                f"{spec.name.capitalize()}Errors",
                alarm_description=f"The asynchronously invoked {spec.name} function failed; it is "
                "retried, and lands in the dead-letter queue if it keeps failing.",
                metric=lambdas.by_name[spec.name].metric_errors(period=PERIOD, statistic="Sum"),
                threshold=1,
                comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                evaluation_periods=1,
                treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING,
            )
            alarm.add_alarm_action(notify)
            self.errors[spec.name] = alarm
