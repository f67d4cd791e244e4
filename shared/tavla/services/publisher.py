"""The one publisher: an outbox item the table's stream brings is put on the bus, then deleted.

At least once: a stream record delivered again (a retried batch) finds its item gone and is
skipped, but a crash between the put and the delete puts the event on the bus twice; every
event carries its id (`event_id` in the detail) so that consumers recognise the repeat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tavla import events, observability
from tavla.store import outbox


def publish(image: Mapping[str, Any]) -> bool:
    """Publish the event a new outbox item holds; False when it is not one or already published."""
    pending = outbox.from_image(image)
    if pending is None or not outbox.pending(pending.event_id):
        return False
    events.put_on_bus(pending.detail_type, pending.on_the_bus())
    outbox.remove(pending.event_id)
    observability.count(observability.EVENT_PUBLISHED)
    return True
