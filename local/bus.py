"""EventBridge's delivery to Lambda: events put on the bus reach the functions that want them.

moto does the real part, matching each event against the rules the stack created from the
registry (source and detail-types) and sending it to the rule's SQS queue. This thread
drains those queues every 50 ms and invokes each function's handler with the EventBridge
event, one event per invocation (a function that takes batches gets what its queue holds, up
to EVENT_BATCH_SIZE, as an SQS batch); a failing event is retried twice, then parked in the
local dead letters (`GET /dev/dead-letters`), as the rule's dead-letter queue would hold it.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import TYPE_CHECKING, Any

from infra.registry import EVENT_BATCH_SIZE, FUNCTIONS
from local.aws import client
from local.deadletters import DeadLetters
from local.lambdas import Environments, HandlerError
from local.outbox import OutboxStream
from local.periodic import Periodic

if TYPE_CHECKING:
    from mypy_boto3_sqs import SQSClient
    from mypy_boto3_sqs.type_defs import DeleteMessageBatchRequestEntryTypeDef


log = logging.getLogger("local.bus")
ATTEMPTS = 3


# consumers a screen waits for: on AWS every consumer runs at once, here one thread would
# deliver them all and the screens' channel would wait behind ratings and notices, so these
# have a delivery thread of their own
FIRST = ("live",)
# consumers that take their events in batches (the registry's `batch_seconds`), as their SQS
# event source mapping invokes them on AWS
BATCHED = frozenset(f.name for f in FUNCTIONS if f.batch_seconds)


class Bus:
    def __init__(
        self,
        moto_url: str,
        queues: dict[str, str],
        environments: Environments,
        dead_letters: DeadLetters | None = None,
        outbox: OutboxStream | None = None,
    ) -> None:
        self._sqs: SQSClient = client("sqs", moto_url)
        self.dead_letters = dead_letters or DeadLetters()
        self._queues = queues  # function name -> queue URL
        self._environments = environments
        self._outbox = outbox  # where the events come from: drained first on every pass
        self._lock = threading.Lock()  # one delivery pass at a time (thread or drain)
        self._periodic = Periodic("bus", 0.05, self._deliver_pending, log, idle_interval=0.2)
        self._first_lock = threading.Lock()
        self._first = Periodic("bus-first", 0.05, self._deliver_first, log, idle_interval=0.2)
        self.delivered = 0

    def start(self) -> None:
        self._periodic.start()
        self._first.start()

    def stop(self) -> None:
        self._first.stop()
        self._periodic.stop()

    def _deliver_first(self) -> int:
        with self._first_lock:
            return sum(self._deliver_batch(f, url) for f, url in self._queues.items() if f in FIRST)

    def _deliver_pending(self) -> int:
        return self._drain(eager=False)

    def drain(self) -> int:
        """Publish what the outbox holds now (a failed batch is tried again at once) and deliver
        everything pending, including what the deliveries write; returns how many bus events
        were delivered."""
        return self._drain(eager=True)

    def _drain(self, *, eager: bool) -> int:
        with self._lock:
            total = 0
            while True:
                published = self._outbox.drain(eager=True) if eager and self._outbox is not None else 0
                delivered = self._deliver_first() + sum(
                    self._deliver_batch(f, url) for f, url in self._queues.items() if f not in FIRST
                )
                total += delivered
                if not delivered and not published:
                    return total

    def _deliver_batch(self, function: str, queue_url: str) -> int:
        if function in BATCHED:
            return self._deliver_together(function, queue_url, self._gathered(queue_url))
        messages = self._receive(queue_url)
        for message in messages:
            event = json.loads(message["Body"])
            trace = ""
            for attempt in range(1, ATTEMPTS + 1):
                try:
                    self._environments.invoke(function, event)
                    self.delivered += 1
                    break
                except HandlerError as error:
                    trace = error.trace
                    log.error(
                        "%s failed on %s (attempt %d):\n%s",
                        function,
                        event.get("detail-type"),
                        attempt,
                        error.trace,
                    )
            else:
                self._park(function, event, trace)
        self._delete(queue_url, messages)
        return len(messages)

    def _delete(self, queue_url: str, messages: list[Any]) -> None:
        """The messages handled (or parked) leave the queue, ten to a call."""
        for start in range(0, len(messages), 10):
            entries: list[DeleteMessageBatchRequestEntryTypeDef] = [
                {"Id": str(n), "ReceiptHandle": m["ReceiptHandle"]}
                for n, m in enumerate(messages[start : start + 10])
            ]
            self._sqs.delete_message_batch(QueueUrl=queue_url, Entries=entries)

    def _receive(self, queue_url: str) -> list[Any]:
        return list(self._sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10).get("Messages", []))

    def _gathered(self, queue_url: str) -> list[Any]:
        """What the queue holds now, up to EVENT_BATCH_SIZE messages (SQS hands out 10 at a time)."""
        messages: list[Any] = []
        while len(messages) < EVENT_BATCH_SIZE:
            received = self._receive(queue_url)
            if not received:
                break
            messages.extend(received)
        return messages

    def _deliver_together(self, function: str, queue_url: str, messages: list[Any]) -> int:
        """The messages as one SQS batch, as Lambda's event source mapping invokes the function;
        those it reports failed (all of them, when it raises) are sent again, in a batch of their
        own, up to ATTEMPTS times, then parked."""
        if not messages:
            return 0
        pending = {m["MessageId"]: m for m in messages}
        trace = ""
        for attempt in range(1, ATTEMPTS + 1):
            records = [
                {
                    "messageId": i,
                    "receiptHandle": m["ReceiptHandle"],
                    "body": m["Body"],
                    "eventSource": "aws:sqs",
                }
                for i, m in pending.items()
            ]
            try:
                answer = self._environments.invoke(function, {"Records": records}) or {}
                failed = {str(f["itemIdentifier"]) for f in answer.get("batchItemFailures") or ()}
                trace = f"{function} reported these events failed"
            except HandlerError as error:
                failed, trace = set(pending), error.trace
                log.error(
                    "%s failed on a batch of %d (attempt %d):\n%s", function, len(pending), attempt, trace
                )
            self.delivered += len(pending) - len(failed & set(pending))
            pending = {i: m for i, m in pending.items() if i in failed}
            if not pending:
                break
        for message in pending.values():
            self._park(function, json.loads(message["Body"]), trace)
        self._delete(queue_url, messages)
        return len(messages)

    def _park(self, function: str, event: dict[str, Any], trace: str) -> None:
        """An event that failed every attempt, kept as the rule's dead-letter queue would."""
        self.dead_letters.park(
            source="bus",
            name=str(event.get("id")),
            function=function,
            attempts=ATTEMPTS,
            event=event,
            error=trace,
        )
