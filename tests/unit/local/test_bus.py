"""The local bus invokes a function that takes batches as its SQS event source mapping would:
what its queue holds in one invocation, the records it reports failed again in a batch of their
own, and after the last attempt those alone are parked as dead letters."""

from __future__ import annotations

import json
from typing import Any

from local.bus import ATTEMPTS, BATCHED, Bus
from local.deadletters import DeadLetters
from local.lambdas import HandlerError


class Queue:
    """What the bus asks of SQS: the messages once, then what it deletes."""

    def __init__(self, bodies: list[dict[str, Any]]) -> None:
        self.messages = [
            {"MessageId": f"m{i}", "ReceiptHandle": f"r{i}", "Body": json.dumps(b)}
            for i, b in enumerate(bodies)
        ]
        self.deleted: list[str] = []

    def receive_message(self, **_: Any) -> dict[str, Any]:
        messages, self.messages = self.messages, []
        return {"Messages": messages}

    def delete_message_batch(self, *, Entries: list[dict[str, str]], **_: Any) -> None:
        assert len(Entries) <= 10  # SQS's limit
        self.deleted += [e["ReceiptHandle"] for e in Entries]


class Function:
    """A batching function that fails on the events marked bad (or raises, when told to)."""

    def __init__(self, raises: bool = False) -> None:
        self.batches: list[list[str]] = []
        self.raises = raises

    def invoke(self, function: str, event: dict[str, Any]) -> dict[str, Any]:
        records = event["Records"]
        self.batches.append([json.loads(r["body"])["id"] for r in records])
        if self.raises:
            raise HandlerError(function, "Traceback ...\nRuntimeError: the channel is down")
        bad = [r["messageId"] for r in records if json.loads(r["body"]).get("bad")]
        return {"batchItemFailures": [{"itemIdentifier": m} for m in bad]}


def _bus(queue: Queue, function: Function) -> Bus:
    bus = Bus("http://127.0.0.1:1", {}, function, DeadLetters())  # type: ignore[arg-type]
    bus._sqs = queue  # type: ignore[assignment]
    return bus


def test_a_batch_is_one_invocation_and_only_its_failed_event_is_tried_again_then_parked() -> None:
    (name,) = BATCHED
    queue = Queue([{"id": "a"}, {"id": "b", "bad": True}, {"id": "c"}])
    function = Function()
    bus = _bus(queue, function)
    assert bus._deliver_batch(name, "queue-url") == 3
    assert function.batches == [["a", "b", "c"]] + [["b"]] * (ATTEMPTS - 1)
    assert [p["name"] for p in bus.dead_letters.list()] == ["b"]
    assert bus.delivered == 2
    assert sorted(queue.deleted) == ["r0", "r1", "r2"]


def test_a_batch_whose_function_raises_is_parked_whole_after_the_last_attempt() -> None:
    (name,) = BATCHED
    queue = Queue([{"id": "a"}, {"id": "b"}])
    function = Function(raises=True)
    bus = _bus(queue, function)
    bus._deliver_batch(name, "queue-url")
    assert function.batches == [["a", "b"]] * ATTEMPTS
    parked = bus.dead_letters.list()
    assert sorted(p["name"] for p in parked) == ["a", "b"]
    assert all(p["error"] == "RuntimeError: the channel is down" for p in parked)
    assert bus.delivered == 0
