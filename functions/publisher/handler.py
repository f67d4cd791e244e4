"""The table's stream (new outbox items only) -> the bus: each record put on the bus once it is
in the outbox, failures reported per record so only they (and what follows) are retried."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord

from tavla.observability import event_entry
from tavla.services import publisher

processor = BatchProcessor(event_type=EventType.DynamoDBStreams)


def _record(record: DynamoDBRecord) -> None:
    image = record.dynamodb.new_image if record.dynamodb else None
    if image:
        publisher.publish(image)


def publish(event: dict[str, Any]) -> dict[str, Any]:
    # {"batchItemFailures": [...]}: Lambda retries from the first failed record, not the batch
    return dict(process_partial_response(event=event, record_handler=_record, processor=processor))


handler = event_entry(publish)
