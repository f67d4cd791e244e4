"""The table's stream (new outbox items only) -> the bus: the batch's events put on the bus
together, failures reported per record so only they (and what follows) are retried.

Not Powertools' batch processor: it hands records over one by one, and the point here is one
read, one put and one delete for the records together."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.data_classes import DynamoDBStreamEvent

from tavla.observability import event_entry
from tavla.services import publisher


def publish(event: dict[str, Any]) -> dict[str, Any]:
    changes = [r.dynamodb for r in DynamoDBStreamEvent(event).records]
    failed = publisher.publish([c.new_image if c else None for c in changes])
    numbers = [c.sequence_number if c else None for c in changes]
    # Lambda retries from the first failed record, not the whole batch
    return {"batchItemFailures": [{"itemIdentifier": numbers[i]} for i in failed]}


handler = event_entry(publish)
