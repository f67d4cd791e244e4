"""The outbox's stream, read from DynamoDB Local as Lambda's event source mapping reads it.

The services write their events as outbox items with their change; DynamoDB Local keeps the
table's stream (new images) as the cloud does. This thread reads every shard in order, passes
the records the registry's filter would (inserted outbox items), and invokes the publisher
function (the one that `drains_outbox`) with each batch. A record it reports failed (the bus
refused) is handed again, with those after it in its shard, on the next pass, until it goes
or is older than the cloud's maximum record age; then it is parked in the local dead letters.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any

from infra.registry import FUNCTIONS, OUTBOX_PREFIX, OUTBOX_TABLE
from local.aws import client
from local.deadletters import DeadLetters
from local.dynamodb import physical_name
from local.lambdas import Environments, HandlerError
from local.periodic import Periodic

log = logging.getLogger("local.outbox")
BATCH = 100
# new shards are looked for once a second, not on every pass (the stream's shards change every
# few hours; each look is a DescribeStream of DynamoDB Local's every shard)
DISCOVERY_SECONDS = 1.0
MAX_RECORD_AGE_SECONDS = 6 * 3600  # the event source mapping's MaximumRecordAgeInSeconds
STREAM = {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}


def ensure_stream(dynamodb: Any) -> str:
    """The outbox table's stream ARN, the stream enabled first where a kept table has none."""
    name = physical_name(OUTBOX_TABLE)
    table = dynamodb.describe_table(TableName=name)["Table"]
    if not table.get("StreamSpecification", {}).get("StreamEnabled"):
        table = dynamodb.update_table(TableName=name, StreamSpecification=STREAM)["TableDescription"]
    return str(table["LatestStreamArn"])


def passes_filter(record: dict[str, Any]) -> bool:
    """The event source mapping's filter (infra.events.OUTBOX_FILTER): new outbox items only."""
    pk = record.get("dynamodb", {}).get("Keys", {}).get("pk", {}).get("S", "")
    return record.get("eventName") == "INSERT" and str(pk).startswith(OUTBOX_PREFIX)


def filter_before_parsing(response_dict: dict[str, Any], **_: Any) -> None:
    """GetRecords' answer cut to the records that pass the filter, before botocore parses it.

    The stream carries every write of the table (each result rewrites the table plan, a 30 KB
    image); in the cloud the event source mapping's filter drops them before the publisher is
    invoked. Parsed value by value and then dropped here, they took 7 % of the stack's Python
    time while 64 results were confirmed at once; the JSON is cut first instead."""
    if response_dict.get("status_code") != 200:
        return
    answer = json.loads(response_dict["body"])
    answer["Records"] = [r for r in answer.get("Records", []) if passes_filter(r)]
    response_dict["body"] = json.dumps(answer).encode()


class _Shard:
    def __init__(self, iterator: str | None) -> None:
        self.iterator = iterator
        self.waiting: list[dict[str, Any]] = []  # records handed again after a failure
        self.attempts = 0
        self.retry_at = 0.0  # a failed batch waits a little longer after each attempt


def _as_lambda_gets_it(record: dict[str, Any]) -> dict[str, Any]:
    """A stream record as Lambda hands it over: plain JSON (the creation time in epoch seconds)."""
    data = dict(record["dynamodb"])
    created = data.get("ApproximateCreationDateTime")
    data["ApproximateCreationDateTime"] = created.timestamp() if created is not None else time.time()
    return {
        "eventID": record.get("eventID"),
        "eventName": record.get("eventName"),
        "eventSource": "aws:dynamodb",
        "dynamodb": data,
    }


class OutboxStream:
    def __init__(self, dynamodb_url: str, environments: Environments, dead_letters: DeadLetters) -> None:
        self._dynamodb = client("dynamodb", dynamodb_url)
        self._streams = client("dynamodbstreams", dynamodb_url)
        self._streams.meta.events.register("before-parse.dynamodb-streams.GetRecords", filter_before_parsing)
        self._environments = environments
        self.dead_letters = dead_letters
        self._publisher = next(f.name for f in FUNCTIONS if f.drains_outbox)
        self._arn = ensure_stream(self._dynamodb)
        self._shards: dict[str, _Shard] = {}
        self._discovered_at = float("-inf")
        self._lock = threading.Lock()
        self._periodic = Periodic("outbox", 0.05, self.drain, log, idle_interval=0.2)
        self.published = 0

    def start(self) -> None:
        self._periodic.start()

    def stop(self) -> None:
        self._periodic.stop()

    def drain(self, *, eager: bool = False) -> int:
        """Hand every new outbox record to the publisher once; how many records went out.
        `eager`: a batch that failed is tried now, not after its back-off."""
        with self._lock:
            if eager or time.monotonic() >= self._discovered_at + DISCOVERY_SECONDS:
                self._discover()
                self._discovered_at = time.monotonic()
            return sum(self._pass(s_id, shard, eager) for s_id, shard in list(self._shards.items()))

    def _discover(self) -> None:
        description = self._streams.describe_stream(StreamArn=self._arn)["StreamDescription"]
        for shard in description.get("Shards", []):
            shard_id = shard["ShardId"]
            if shard_id not in self._shards:
                iterator = self._streams.get_shard_iterator(
                    StreamArn=self._arn, ShardId=shard_id, ShardIteratorType="TRIM_HORIZON"
                )["ShardIterator"]
                self._shards[shard_id] = _Shard(iterator)

    def _pass(self, shard_id: str, shard: _Shard, eager: bool) -> int:
        if not shard.waiting:
            if shard.iterator is None:
                return 0  # a closed shard, read to its end
            response = self._streams.get_records(ShardIterator=shard.iterator, Limit=BATCH)
            shard.iterator = response.get("NextShardIterator")
            shard.waiting = [_as_lambda_gets_it(r) for r in response.get("Records", []) if passes_filter(r)]
            shard.attempts = 0
        if not shard.waiting or (time.monotonic() < shard.retry_at and not eager):
            return 0
        batch = shard.waiting
        shard.attempts += 1
        try:
            result = self._environments.invoke(self._publisher, {"Records": batch})
            failed = [f["itemIdentifier"] for f in (result or {}).get("batchItemFailures", [])]
            error = "the publisher reported the record failed (the bus refused it)"
        except HandlerError as failure:  # the whole batch failed
            failed, error = [batch[0]["dynamodb"]["SequenceNumber"]], failure.trace
        if not failed:
            shard.waiting, shard.retry_at = [], 0.0
            self.published += len(batch)
            return len(batch)
        first = min(i for i, r in enumerate(batch) if r["dynamodb"]["SequenceNumber"] in failed)
        shard.waiting = batch[first:]
        shard.retry_at = time.monotonic() + min(0.05 * 2**shard.attempts, 1.0)
        oldest = float(shard.waiting[0]["dynamodb"]["ApproximateCreationDateTime"])
        if time.time() - oldest > MAX_RECORD_AGE_SECONDS:
            self.dead_letters.park(
                source="outbox",
                name=shard_id,
                function=self._publisher,
                attempts=shard.attempts,
                event={"Records": shard.waiting},
                error=error,
            )
            shard.waiting = []
        log.warning("%d outbox records not published yet (attempt %d)", len(shard.waiting), shard.attempts)
        return first
