"""Where failures surface: the operators' topic and the alarms that publish to it.

Anything parked in the dead-letter queue (a forfeit, a notification, a cron tick that kept
failing after its retries) raises an alarm at once, and so does any error of a function
that runs asynchronously, before its retries run out. Operators subscribe to the topic
(e-mail, chat); its messages are encrypted with a key that CloudWatch may use, since
CloudWatch cannot publish to a topic under the AWS-managed SNS key.

Given the stage, the stage's e-mail is subscribed and every function of the
registry gets its errors, throttles and p99 duration watched, every table its throttled
requests, the schedule group and the event rules their failed deliveries, each function that
takes its events in batches the age of its queue's oldest event, the HTTP API its 5xx
answers: nothing is listed by hand, so a new function is watched the day it is added.
docs/runbook.md says what each alarm means and what to do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from aws_cdk import Duration
from aws_cdk import aws_apigatewayv2 as apigwv2
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as actions
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_events as events
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_scheduler as scheduler
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from aws_cdk import aws_sqs as sqs
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

from infra.lambdas import Lambdas
from infra.registry import Function
from infra.stages import Stage

PERIOD = Duration.minutes(5)  # SQS publishes its metrics every five minutes
LATENCY_PERIODS = 3  # p99 above the limit for 15 minutes, not one slow cold start
TIMEOUT_SHARE = 0.8  # an asynchronous function alarms when its p99 nears its timeout
THROTTLE_GROUP = 10  # an alarm's metric math reads at most ten metrics
OUTBOX_BACKLOG_MS = 5 * 60 * 1000  # an event not on the bus 5 minutes after its change
# an event still in a batching function's queue 2 minutes after the bus took it: for the live
# channel, every screen at the venue that long behind
QUEUE_BACKLOG_SECONDS = 120


def _sum(namespace: str, metric: str, **dimensions: str) -> cloudwatch.Metric:
    """A service metric summed over the alarms' period."""
    return cloudwatch.Metric(
        namespace=namespace, metric_name=metric, dimensions_map=dimensions, period=PERIOD, statistic="Sum"
    )


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
        self.key = key
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
            if not (spec.events or spec.cron or spec.scheduled or spec.drains_outbox):
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
        self._notify = notify
        self.throttles: dict[str, cloudwatch.Alarm] = {}
        self.latency: dict[str, cloudwatch.Alarm] = {}
        self.others: list[cloudwatch.Alarm] = []

    @property
    def all(self) -> list[cloudwatch.Alarm]:
        return [
            self.dead_letters,
            *self.errors.values(),
            *self.throttles.values(),
            *self.latency.values(),
            *self.others,
        ]

    def _alarm(
        self, construct_id: str, description: str, metric: cloudwatch.IMetric, **options: object
    ) -> cloudwatch.Alarm:
        settings: dict[str, object] = {
            "threshold": 1,
            "comparison_operator": cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
            "evaluation_periods": 1,
            "treat_missing_data": cloudwatch.TreatMissingData.NOT_BREACHING,
            **options,
        }
        alarm = cloudwatch.Alarm(self, construct_id, alarm_description=description, metric=metric, **settings)  # type: ignore[arg-type]
        alarm.add_alarm_action(self._notify)
        return alarm

    def watch(
        self,
        *,
        stage: Stage,
        tables: dict[str, dynamodb.Table],
        schedule_group: scheduler.ScheduleGroup,
        rules: Sequence[events.Rule],
        queues: Mapping[str, sqs.IQueue],
        http_api: apigwv2.HttpApi,
        lambdas: Lambdas,
        workflows: dict[str, sfn.StateMachine],
    ) -> None:
        """The stage's alarms: everything below is derived from the registry."""
        self.topic.add_subscription(subscriptions.EmailSubscription(stage.alarm_email))
        for spec in lambdas.specs:
            self._watch_function(spec, lambdas, stage)
        self._watch_throttles(lambdas)
        for name, table in tables.items():
            throttled = cloudwatch.MathExpression(
                expression="reads + writes",
                using_metrics={
                    "reads": table.metric("ReadThrottleEvents", period=PERIOD, statistic="Sum"),
                    "writes": table.metric("WriteThrottleEvents", period=PERIOD, statistic="Sum"),
                },
                label=f"{name} throttled requests",
                period=PERIOD,
            )
            self.others.append(
                self._alarm(
                    f"{name.capitalize()}TableThrottles",
                    f"DynamoDB throttled requests on the {name} table (on demand: a hot partition "
                    "or a sudden peak above twice the previous one).",
                    throttled,
                )
            )
        group = schedule_group.schedule_group_name
        failed_schedules = cloudwatch.MathExpression(
            expression="errors + dropped + undelivered",
            using_metrics={
                name: _sum("AWS/Scheduler", metric, ScheduleGroup=group)
                for name, metric in (
                    ("errors", "TargetErrorCount"),
                    ("dropped", "InvocationDroppedCount"),
                    ("undelivered", "InvocationsFailedToBeSentToDeadLetterCount"),
                )
            },
            label="schedule failures",
            period=PERIOD,
        )
        self.others.append(
            self._alarm(
                "ScheduleFailures",
                "A one-time schedule (a no-show deadline) failed to invoke its function, was "
                "dropped, or could not reach the dead-letter queue.",
                failed_schedules,
            )
        )
        for spec in lambdas.specs:
            if spec.drains_outbox:
                waiting = lambdas.by_name[spec.name].metric(
                    "IteratorAge", period=PERIOD, statistic="Maximum", label="oldest outbox record"
                )
                self.others.append(
                    self._alarm(
                        "OutboxBacklog",
                        "Domain events written more than 5 minutes ago are still in the outbox: "
                        "the bus refuses them or the publisher fails. Calls, deadlines and notices "
                        "wait for them; the stream retries until they go or reach the dead letters.",
                        waiting,
                        threshold=OUTBOX_BACKLOG_MS,
                        comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
                    )
                )
        for name, queue in queues.items():
            self.others.append(
                self._alarm(
                    f"{name.capitalize()}QueueBacklog",
                    f"Events have waited more than {QUEUE_BACKLOG_SECONDS} s in the {name} "
                    "function's queue: it fails, is throttled or cannot keep up. The changes are "
                    "saved; what the function does with them (for the live channel: every screen "
                    "at the venue) is that far behind.",
                    queue.metric_approximate_age_of_oldest_message(period=PERIOD, statistic="Maximum"),
                    threshold=QUEUE_BACKLOG_SECONDS,
                    comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
                )
            )
        for rule in rules:
            rule_id = rule.node.id
            self.others.append(
                self._alarm(
                    f"{rule_id}FailedInvocations",
                    f"The EventBridge rule {rule_id} could not deliver an event or cron tick to its "
                    "function after its retries (it went to the dead-letter queue).",
                    _sum("AWS/Events", "FailedInvocations", RuleName=rule.rule_name),
                )
            )
        for name, machine in workflows.items():
            ended_badly = cloudwatch.MathExpression(
                expression="failed + timedout + aborted",
                using_metrics={
                    "failed": machine.metric_failed(period=PERIOD, statistic="Sum"),
                    "timedout": machine.metric_timed_out(period=PERIOD, statistic="Sum"),
                    "aborted": machine.metric_aborted(period=PERIOD, statistic="Sum"),
                },
                label=f"{name} executions that did not succeed",
                period=PERIOD,
            )
            self.others.append(
                self._alarm(
                    f"{name.capitalize()}WorkflowFailed",
                    f"An execution of the {name} state machine failed, timed out or was aborted: "
                    "its steps rewrite deterministic keys, so it can be started again as is.",
                    ended_badly,
                )
            )
        self.others.append(
            self._alarm(
                "Api5xx",
                "The HTTP API answered with 5xx: a function failed, timed out or was throttled; "
                "client input never yields a 5xx, so each one is a fault.",
                _sum("AWS/ApiGateway", "5xx", ApiId=http_api.api_id),
                threshold=5,
            )
        )

    def _watch_throttles(self, lambdas: Lambdas) -> None:
        """Throttles come from the account's concurrency, which every function shares: one alarm
        per ten functions (the most one alarm's math reads) names them, and the dashboard shows
        which was throttled; one alarm per function took 30 of CloudFormation's 500 resources."""
        specs = list(lambdas.specs)
        for n, start in enumerate(range(0, len(specs), THROTTLE_GROUP), start=1):
            group = specs[start : start + THROTTLE_GROUP]
            throttled = {
                f"f{i}": lambdas.by_name[spec.name].metric_throttles(period=PERIOD, statistic="Sum")
                for i, spec in enumerate(group)
            }
            names = ", ".join(spec.name for spec in group)
            self.throttles[f"group{n}"] = self._alarm(
                f"Throttles{n}",
                f"Lambda throttled one of these functions: {names}. The account's concurrency is "
                "exhausted; the operations dashboard shows which function.",
                cloudwatch.MathExpression(
                    expression=" + ".join(throttled),
                    using_metrics=throttled,
                    label="throttled invocations",
                    period=PERIOD,
                ),
            )

    def _watch_function(self, spec: Function, lambdas: Lambdas, stage: Stage) -> None:
        function = lambdas.by_name[spec.name]
        title = spec.name.capitalize()
        if spec.name not in self.errors:  # asynchronous functions have theirs already
            self.errors[spec.name] = self._alarm(
                f"{title}Errors",
                f"The {spec.name} function failed (an unhandled exception or a timeout): callers "
                "got a 5xx. Client input never does that, so it is a fault to look at.",
                function.metric_errors(period=PERIOD, statistic="Sum"),
            )
        limit_ms = TIMEOUT_SHARE * spec.timeout_seconds * 1000
        if spec.http:
            limit_ms = min(limit_ms, stage.p99_latency_ms)
        self.latency[spec.name] = self._alarm(
            f"{title}Latency",
            f"The {spec.name} function's p99 duration stayed above {int(limit_ms)} ms for "
            f"{LATENCY_PERIODS * 5} minutes.",
            function.metric_duration(period=PERIOD, statistic="p99"),
            threshold=int(limit_ms),
            comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
            evaluation_periods=LATENCY_PERIODS,
        )
