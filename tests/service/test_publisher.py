"""The one publisher: the table's stream -> the bus, at least once, each event with its id; and
the consumers of events delivered twice (R3.2, R6.2, R6.3)."""

from __future__ import annotations

import importlib
import json
from functools import cache
from typing import Any

import pytest
from moto.backends import get_backend

from tavla import events
from tavla.store import outbox
from tavla.store.dynamo import serialize
from tavla.store.schema import MAIN
from tavla.store.transactions import Transaction
from tests.service.conftest import REGION, Api, LambdaContext, Stream
from tests.service.helpers import bus_taking, create_player, create_tournament, dynamodb_calls, register

publisher = importlib.import_module("functions.publisher.handler")
notify = importlib.import_module("functions.notify.handler")

PROMOTED = outbox.Event(events.REGISTRATION_PROMOTED, {"tournament_id": "t1", "tavla_id": "P1"})
CALLED = outbox.Event(events.MATCHES_CALLED, {"tournament_id": "t1", "at": "x", "codes": ["a"]})


@pytest.fixture(autouse=True)
def by_hand(stream: Stream) -> None:
    """The stream is played by hand here: records are handed to the publisher's handler."""
    stream.paused = True


@pytest.fixture
def bus(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """What reaches the bus; a detail with "refuse" in it is refused, as EventBridge may."""
    put: list[tuple[str, dict[str, Any]]] = []

    def put_on_bus(kind: str, detail: dict[str, Any]) -> None:
        if detail.get("refuse"):
            raise RuntimeError("EventBridge refused the entry")
        put.append((kind, detail))

    monkeypatch.setattr(events, "put_on_bus", bus_taking(put_on_bus))
    return put


def written(*events_: outbox.Event) -> list[dict[str, Any]]:
    """Write the events (one change) and return the stream records their items make."""
    tx = Transaction()
    outbox.add(tx, events_)
    tx.run()
    return [
        {
            "eventID": str(n),
            "eventName": "INSERT",
            "eventSource": "aws:dynamodb",
            "dynamodb": {
                "Keys": serialize({"pk": image["pk"], "sk": image["sk"]}),
                "NewImage": serialize(image),
                "SequenceNumber": f"{100 + n}",
                "StreamViewType": "NEW_IMAGE",
            },
        }
        for n, image in enumerate(tx.new_items(MAIN))
    ]


def deliver(records: list[dict[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = publisher.handler({"Records": records}, LambdaContext("publisher"))
    return result


def test_each_outbox_item_goes_on_the_bus_with_its_id_and_leaves_the_outbox(bus: list[Any]) -> None:
    assert deliver(written(PROMOTED, CALLED)) == {"batchItemFailures": []}
    assert bus == [
        (events.REGISTRATION_PROMOTED, {**PROMOTED.detail, "event_id": PROMOTED.id}),
        (events.MATCHES_CALLED, {**CALLED.detail, "event_id": CALLED.id}),
    ]
    assert outbox.waiting() == []


def test_a_refused_put_fails_that_record_alone_and_it_stays_in_the_outbox(bus: list[Any]) -> None:
    """Partial batch failure: the stream retries from the failed record; what went out stays out."""
    refused = outbox.Event(events.MATCHES_CALLED, {"tournament_id": "t1", "refuse": True})
    records = written(PROMOTED, refused, CALLED)
    failed = records[1]["dynamodb"]["SequenceNumber"]
    assert deliver(records) == {"batchItemFailures": [{"itemIdentifier": failed}]}
    assert [detail["event_id"] for _, detail in bus] == [PROMOTED.id, CALLED.id]
    assert [w.event_id for w in outbox.waiting()] == [refused.id]
    # the stream hands the failed record and those after it again: only the failed one goes out
    bus.clear()
    deliver(records[1:])
    assert [w.event_id for w in outbox.waiting()] == [refused.id]
    assert bus == []


def test_a_stream_record_delivered_twice_is_published_once(bus: list[Any]) -> None:
    records = written(PROMOTED)
    deliver(records)
    deliver(records)
    assert [detail["event_id"] for _, detail in bus] == [PROMOTED.id]


def test_what_is_not_a_new_outbox_item_is_left_alone(bus: list[Any]) -> None:
    other = {
        "eventID": "9",
        "eventName": "INSERT",
        "dynamodb": {
            "Keys": serialize({"pk": "TOURNAMENT#t1", "sk": "META"}),
            "NewImage": serialize({"pk": "TOURNAMENT#t1", "sk": "META"}),
            "SequenceNumber": "900",
        },
    }
    assert deliver([other]) == {"batchItemFailures": []}
    assert bus == []


class PutEvents:
    """EventBridge's PutEvents as the publisher meets it: each call's entries kept; an entry whose
    detail says "refuse" refused (FailedEntryCount); `down`: no answer at all."""

    def __init__(self) -> None:
        self.calls: list[list[dict[str, Any]]] = []
        self.down = False

    def put_events(self, Entries: list[dict[str, Any]]) -> dict[str, Any]:
        self.calls.append(Entries)
        if self.down:
            raise ConnectionError("EventBridge did not answer")
        answers = [
            {"ErrorCode": "InternalFailure"} if "refuse" in e["Detail"] else {"EventId": "x"} for e in Entries
        ]
        return {"FailedEntryCount": sum("ErrorCode" in a for a in answers), "Entries": answers}


@pytest.fixture
def eventbridge(monkeypatch: pytest.MonkeyPatch) -> PutEvents:
    fake = PutEvents()
    monkeypatch.setattr(events, "_client", cache(lambda: fake))  # cached, as the client it stands for
    return fake


def test_a_batch_of_25_events_takes_one_read_three_puts_and_one_delete(eventbridge: PutEvents) -> None:
    """A busy venue's results arrive together: the publisher's calls do not grow one by one."""
    many = [outbox.Event(events.RESULT_CONFIRMED, {"tournament_id": "t1", "n": n}) for n in range(25)]
    records = written(*many)
    calls = dynamodb_calls(lambda: deliver(records))
    assert calls == ["BatchGetItem", "BatchWriteItem"]
    assert [len(c) for c in eventbridge.calls] == [10, 10, 5]
    put = [json.loads(e["Detail"])["event_id"] for c in eventbridge.calls for e in c]
    assert put == [e.id for e in many]
    assert outbox.waiting() == []


def test_an_event_twice_in_one_batch_goes_on_the_bus_once(eventbridge: PutEvents) -> None:
    """Published, then written again by a retried change: its item's two inserts share a batch."""
    records = written(PROMOTED)
    again = [
        {**records[0], "eventID": "again", "dynamodb": {**records[0]["dynamodb"], "SequenceNumber": "999"}}
    ]
    assert deliver(records + again) == {"batchItemFailures": []}
    assert [len(c) for c in eventbridge.calls] == [1]
    assert outbox.waiting() == []


def test_events_too_large_for_one_call_go_in_several(eventbridge: PutEvents) -> None:
    """EventBridge takes at most 256 KB a call: three events of 100 KB need two."""
    large = [
        outbox.Event(events.ENTRIES_CHANGED, {"tournament_id": f"t{n}", "pad": "x" * 100_000})
        for n in range(3)
    ]
    assert deliver(written(*large)) == {"batchItemFailures": []}
    assert [len(c) for c in eventbridge.calls] == [2, 1]
    assert outbox.waiting() == []


def test_an_entry_eventbridge_refuses_fails_alone_and_stays_in_the_outbox(eventbridge: PutEvents) -> None:
    refused = outbox.Event(events.MATCHES_CALLED, {"tournament_id": "t1", "refuse": True})
    records = written(PROMOTED, refused, CALLED)
    failed = records[1]["dynamodb"]["SequenceNumber"]
    assert deliver(records) == {"batchItemFailures": [{"itemIdentifier": failed}]}
    assert len(eventbridge.calls) == 1
    assert [w.event_id for w in outbox.waiting()] == [refused.id]


def test_the_bus_not_answering_fails_the_batch_after_one_call_and_keeps_every_event(
    eventbridge: PutEvents,
) -> None:
    many = [outbox.Event(events.RESULT_CONFIRMED, {"tournament_id": "t1", "n": n}) for n in range(25)]
    records = written(*many)
    eventbridge.down = True
    answer = deliver(records)
    assert [f["itemIdentifier"] for f in answer["batchItemFailures"]] == [
        r["dynamodb"]["SequenceNumber"] for r in records
    ]
    assert len(eventbridge.calls) == 1  # the rest is not tried against a bus that does not answer
    assert len(outbox.waiting()) == 25
    eventbridge.down = False
    assert deliver(records) == {"batchItemFailures": []}
    assert outbox.waiting() == []


def test_the_bus_down_a_withdrawal_still_succeeds_and_the_promoted_player_is_told_once_it_is_back(
    api: Api, stream: Stream, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R3.2: the promotion is saved with its event whatever the bus does; the player hears of it
    once the bus takes it, once, even when it is put on the bus twice."""
    stream.paused = False
    tid = create_tournament(api, capacity=2)
    ids = [create_player(api, f"u{i}") for i in range(3)]
    for i in range(3):
        register(api, tid, f"u{i}")

    def bus_down(*_: Any) -> None:
        raise RuntimeError("EventBridge did not answer")

    with monkeypatch.context() as down:
        down.setattr(events, "put_on_bus", bus_taking(bus_down))
        path = "/tournaments/{tournament_id}/registrations/me"
        reply = api.call("DELETE", path, params={"tournament_id": tid}, user="u0")
        assert reply.status == 200 and reply.body["promoted"] == ids[2]
    # the promotion, and the entry lists' live hint, both kept
    assert sorted(w.detail_type for w in outbox.waiting()) == [
        events.ENTRIES_CHANGED,
        events.REGISTRATION_PROMOTED,
    ]

    delivered: list[dict[str, Any]] = []

    def to_notify(kind: str, detail: dict[str, Any]) -> None:
        event = {"id": f"eb-{len(delivered)}", "detail-type": kind, "detail": detail}
        event["time"] = "2026-12-01T10:00:00Z"
        delivered.append(event)
        notify.handler(event, LambdaContext("notify"))

    monkeypatch.setattr(events, "put_on_bus", bus_taking(to_notify))
    [pending] = [w for w in outbox.waiting() if w.detail_type == events.REGISTRATION_PROMOTED]
    stream.redeliver()
    delivered[:] = [d for d in delivered if d["detail-type"] == events.REGISTRATION_PROMOTED]
    notify.handler({**delivered[0], "id": "eb-again"}, LambdaContext("notify"))  # EventBridge repeats it
    assert outbox.waiting() == []
    feed = api.call("GET", "/me/notifications", user="u2").body
    assert [n["kind"] for n in feed] == ["promoted"]
    assert delivered[0]["detail"]["event_id"] == pending.event_id


def test_a_promotion_delivered_twice_sends_one_sms(api: Api) -> None:
    """R3.2: a repeated event (another EventBridge id, the same outbox id) is one notice, one SMS."""
    tid = create_tournament(api, capacity=2)
    tavla_id = create_player(api, "p1")
    register(api, tid, "p1")
    body = {"phone": "+306971234567", "sms_opt_in": True}
    assert api.call("PATCH", "/me", body=body, user="p1").status == 200
    detail = {"tournament_id": tid, "tournament_name": "Open", "tavla_id": tavla_id, "event_id": "ev-1"}
    for eventbridge_id in ("eb-1", "eb-2"):
        event = {"id": eventbridge_id, "detail-type": events.REGISTRATION_PROMOTED, "detail": detail}
        notify.handler({**event, "time": "2026-12-01T10:00:00Z"}, LambdaContext("notify"))
    assert [n["kind"] for n in api.call("GET", "/me/notifications", user="p1").body] == ["promoted"]
    sent = get_backend("sns")["123456789012"][REGION].sms_messages
    assert [phone for phone, _ in sent.values()] == ["+306971234567"]
