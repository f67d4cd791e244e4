"""Bus events -> change hints and the tournaments' board deltas on the live channel. The
events come in SQS batches (the registry's `batch_seconds`): a tournament's board is read once
for what arrived together."""

from __future__ import annotations

import json
from typing import Any

from tavla.observability import event_entry, logger
from tavla.services import live


def deliver(event: dict[str, Any]) -> dict[str, Any]:
    """A batch delivered whole; if it fails, each event alone, so an event that cannot be
    delivered is the only one received again (and in the end dead-lettered), not its batch."""
    records = event.get("Records") or []
    events = [json.loads(r["body"]) for r in records]
    try:
        posted = live.deliver_batch(events)
        failed: list[str] = []
    except Exception:
        logger.exception("batch not delivered: each event alone", extra={"events": len(events)})
        posted, failed = 0, []
        for record, one in zip(records, events, strict=True):
            try:
                posted += live.deliver(one)
            except Exception:
                logger.exception("event not delivered", extra={"detail_type": one.get("detail-type")})
                failed.append(record["messageId"])
    logger.info("events handled", extra={"events": len(events), "posted": posted, "failed": len(failed)})
    return {"posted": posted, "batchItemFailures": [{"itemIdentifier": m} for m in failed]}


handler = event_entry(deliver, batched=True)
