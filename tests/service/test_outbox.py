"""The outbox: a change and the events it describes are written together or not at all."""

from __future__ import annotations

import pytest

from tavla import events
from tavla.store import outbox
from tavla.store.schema import MAIN
from tavla.store.transactions import Cancelled, Transaction
from tests.service.conftest import Stream

CALLED = outbox.Event(
    events.MATCHES_CALLED, {"tournament_id": "t1", "at": "2026-12-01T10:00:00+00:00", "codes": ["a"]}
)


def _change(tx: Transaction, *, exists: bool | None = None) -> None:
    condition = {True: "attribute_exists(pk)", False: "attribute_not_exists(pk)", None: None}[exists]
    tx.put("thing", MAIN, {"pk": "THING#1", "sk": "THING", "n": 1}, condition=condition)


@pytest.fixture(autouse=True)
def no_stream(stream: Stream) -> None:
    """These tests read the outbox itself: nothing publishes it meanwhile."""
    stream.paused = True


def test_an_event_is_written_with_its_change() -> None:
    tx = Transaction()
    _change(tx)
    outbox.add(tx, [CALLED])
    tx.run()
    [waiting] = outbox.waiting()
    assert (waiting.event_id, waiting.detail_type, dict(waiting.detail)) == (
        CALLED.id,
        events.MATCHES_CALLED,
        dict(CALLED.detail),
    )
    assert waiting.on_the_bus() == {**CALLED.detail, "event_id": CALLED.id}


def test_a_cancelled_change_writes_no_event() -> None:
    """A change whose condition fails is not written, and neither is its event."""
    tx = Transaction()
    _change(tx, exists=True)  # nothing there yet: the condition fails
    outbox.add(tx, [CALLED])
    with pytest.raises(Cancelled):
        tx.run()
    assert outbox.waiting() == []


def test_the_same_change_names_the_same_event_and_writes_it_once() -> None:
    """A retried identical change writes the same outbox item again, not a second event."""
    twin = outbox.Event(events.MATCHES_CALLED, dict(CALLED.detail))
    other = outbox.Event(events.MATCHES_CALLED, {**CALLED.detail, "codes": ["b"]})
    assert twin.id == CALLED.id != other.id
    assert outbox.Event(events.TOURNAMENT_FINISHED, {"x": 1}, key="t1").id == (
        outbox.Event(events.TOURNAMENT_FINISHED, {"x": 2}, key="t1").id
    ), "a keyed event is named by its key"
    for event in (CALLED, twin):
        outbox.write([event])
    tx = Transaction()
    outbox.add(tx, [CALLED, twin])  # named twice in one change: one item
    assert len(tx) == 1
    assert [w.event_id for w in outbox.waiting()] == [CALLED.id]


def test_an_event_only_change_is_its_own_transaction() -> None:
    outbox.write([CALLED, outbox.Event(events.SUPER_FINAL_INVITED, {"season_id": "s", "invited": []})])
    assert {w.detail_type for w in outbox.waiting()} == {events.MATCHES_CALLED, events.SUPER_FINAL_INVITED}
