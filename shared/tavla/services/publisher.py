"""The one publisher: the outbox items a batch of the table's stream brings are put on the bus,
then deleted.

A batch costs a few calls whatever its size: one read of which items are still in the outbox,
a PutEvents per ten events, a delete per 25 (three calls per event, when each went alone, were
most of the publisher's work in a busy venue's burst of results).
At least once: a stream record delivered again (a retried batch) finds its item gone and is
skipped, but a crash between the put and the delete puts the event on the bus twice; every
event carries its id (`event_id` in the detail) so that consumers recognise the repeat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tavla import events, observability
from tavla.store import outbox


def publish(images: Sequence[Mapping[str, Any] | None]) -> list[int]:
    """Publish the events the new outbox items `images` hold (what is not one, or is published
    already, is skipped); the positions of those the bus did not take, left in the outbox."""
    held = [(i, outbox.from_image(image)) for i, image in enumerate(images) if image]
    found = [(i, event) for i, event in held if event is not None]
    if not found:
        return []
    waiting = outbox.pending([event.event_id for _, event in found])
    # an item written again after it was published comes twice in a batch: put once
    first = {event.event_id: i for i, event in reversed(found)}
    due = [(i, event) for i, event in found if event.event_id in waiting and first[event.event_id] == i]
    refused = set(events.put_on_bus([(event.detail_type, event.on_the_bus()) for _, event in due]))
    put = [event.event_id for n, (_, event) in enumerate(due) if n not in refused]
    if put:
        outbox.remove(put)
        observability.count(observability.EVENT_PUBLISHED, len(put))
    return [due[n][0] for n in sorted(refused)]
