"""The partitioned full rebuild: one step per invocation, from the state machine or the local
runner (registry WORKFLOWS; services.full_rebuild)."""

from __future__ import annotations

from typing import Any

from tavla import clock
from tavla.observability import event_entry
from tavla.services import full_rebuild


def process(event: dict[str, Any]) -> dict[str, Any]:
    return full_rebuild.run_step(event, clock.now())


handler = event_entry(process)
