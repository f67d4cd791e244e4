"""The domain event bus, the rules that route its events to functions, and where failed
asynchronous invocations end up (cron ticks are EventBridge Scheduler schedules: infra/scheduler.py).

Services write events as outbox items with their change; the table's stream feeds them (new
outbox items only) to the one function that `drains_outbox`, which alone may put on the bus.
Everything invoked asynchronously (outbox stream, bus events, cron ticks, one-time schedules)
has retries, and what still fails lands in one encrypted dead-letter queue, so nothing is lost
silently.
"""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_lambda_destinations as destinations
from aws_cdk import aws_lambda_event_sources as sources
from aws_cdk import aws_sqs as sqs
from cdk_nag import NagSuppressions
from constructs import Construct

from infra.lambdas import Lambdas
from infra.registry import EVENT_BATCH_SIZE, EVENT_SOURCE, OUTBOX_PREFIX, OUTBOX_TABLE, Function
from infra.tables import Tables

RETRY_ATTEMPTS = 2  # the maximum for Lambda's asynchronous invocations
MAX_EVENT_AGE = Duration.hours(6)
OUTBOX_BATCH = 100  # stream records per publisher invocation
# the outbox's stream keeps retrying a refused put (the bus may be down for a while) until
# MAX_EVENT_AGE; Lambda's upper bound on stream retries
OUTBOX_RETRIES = 10_000
# new outbox items only: no other item of the table, no update or delete, wakes the publisher
OUTBOX_FILTER = {
    "eventName": lambda_.FilterRule.is_equal("INSERT"),
    "dynamodb": {"Keys": {"pk": {"S": lambda_.FilterRule.begins_with(OUTBOX_PREFIX)}}},
}


class Events(Construct):
    """Bus, rules and the dead-letter queue of every asynchronous trigger."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        lambdas: Lambdas,
        tables: Tables,
    ) -> None:
        super().__init__(scope, construct_id)
        functions, by_name = lambdas.specs, lambdas.by_name
        # the queues of the functions that take their events in batches, by function name
        self.queues: dict[str, sqs.Queue] = {}
        self.bus = events.EventBus(self, "Bus", description="Tavla domain events")
        self.dead_letters = sqs.Queue(
            self,
            "DeadLetters",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            retention_period=Duration.days(14),
        )
        NagSuppressions.add_resource_suppressions(
            self.dead_letters,
            [
                {
                    "id": "AwsSolutions-SQS3",
                    "reason": "This queue is itself the dead-letter destination of the event rules "
                    "and of the functions' asynchronous invocations.",
                }
            ],
        )
        for spec in functions:
            function = by_name[spec.name]
            if spec.events:
                self._on_events(spec, function)
            if spec.drains_outbox:
                self._on_outbox(function, tables.by_name[OUTBOX_TABLE.name])
            if spec.events or spec.cron or spec.scheduled:
                function.configure_async_invoke(
                    retry_attempts=RETRY_ATTEMPTS,
                    max_event_age=MAX_EVENT_AGE,
                    on_failure=destinations.SqsDestination(self.dead_letters),
                )
            if spec.publishes_events:
                self.bus.grant_put_events_to(function)
                function.add_environment("EVENT_BUS_NAME", self.bus.event_bus_name)

    def _target(self, function: lambda_.Function) -> targets.LambdaFunction:
        return targets.LambdaFunction(
            function,
            retry_attempts=RETRY_ATTEMPTS,
            max_event_age=MAX_EVENT_AGE,
            dead_letter_queue=self.dead_letters,
        )

    def _on_outbox(self, function: lambda_.Function, table: dynamodb.Table) -> None:
        """The table's stream, new outbox items only, in batches; a failed record (the bus
        refused it) is retried with what follows it in its shard, the rest are not; after
        MAX_EVENT_AGE the batch's place in the stream goes to the dead-letter queue (its events
        stay in the outbox, from where they can be put on the bus again)."""
        function.add_event_source(
            sources.DynamoEventSource(
                table,
                starting_position=lambda_.StartingPosition.TRIM_HORIZON,
                batch_size=OUTBOX_BATCH,
                max_batching_window=Duration.seconds(0),
                report_batch_item_failures=True,
                bisect_batch_on_error=True,
                retry_attempts=OUTBOX_RETRIES,
                max_record_age=MAX_EVENT_AGE,
                on_failure=sources.SqsDlq(self.dead_letters),
                filters=[lambda_.FilterCriteria.filter(OUTBOX_FILTER)],
            )
        )

    def _on_events(self, spec: Function, function: lambda_.Function) -> None:
        target = self._batched(spec, function) if spec.batch_seconds else self._target(function)
        events.Rule(
            self,
            f"{spec.name.capitalize()}Events",
            event_bus=self.bus,
            description=f"Domain events for {spec.name}",
            event_pattern=events.EventPattern(source=[EVENT_SOURCE], detail_type=list(spec.events)),
            targets=[target],
        )

    def _batched(self, spec: Function, function: lambda_.Function) -> targets.SqsQueue:
        """The rule's events go to a queue of the function's own, which invokes it with what
        gathered over `batch_seconds` (up to EVENT_BATCH_SIZE events); an event whose record the
        function reports failed is received again, and after RETRY_ATTEMPTS more it goes to
        the dead-letter queue, like a failed asynchronous invocation."""
        queue = sqs.Queue(
            self,
            f"{spec.name.capitalize()}Queue",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            retention_period=MAX_EVENT_AGE,
            visibility_timeout=Duration.seconds(6 * spec.timeout_seconds),  # Lambda's advice
            dead_letter_queue=sqs.DeadLetterQueue(
                max_receive_count=RETRY_ATTEMPTS + 1, queue=self.dead_letters
            ),
        )
        self.queues[spec.name] = queue
        function.add_event_source(
            sources.SqsEventSource(
                queue,
                batch_size=EVENT_BATCH_SIZE,
                max_batching_window=Duration.seconds(spec.batch_seconds),
                report_batch_item_failures=True,
            )
        )
        return targets.SqsQueue(
            queue,
            retry_attempts=RETRY_ATTEMPTS,
            max_event_age=MAX_EVENT_AGE,
            dead_letter_queue=self.dead_letters,
        )
