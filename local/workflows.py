"""Step Functions, locally: a registry workflow's steps run one after another through the same
function handler the state machine invokes (the partitioned full rebuild).

The state machine (infra/workflows.py) runs a map step's items side by side (a Distributed
Map); here they run in order, which gives the same result because the items of a map step
share no item (services.full_rebuild). The events are the ones the state machine sends:
{"step": name, "item": element} for a map step, {"step": name, "state": outputs so far} else.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from infra.registry import Workflow

log = logging.getLogger("local.workflows")

Invoke = Callable[[str, dict[str, Any]], Any]  # (function name, event) -> the handler's result


def run(workflow: Workflow, invoke: Invoke) -> dict[str, Any]:
    """Run every step of `workflow` in order; returns the final state (each step's output by name)."""
    state: dict[str, Any] = {}
    first, *rest = workflow.steps
    state[first.name] = invoke(workflow.function, {"step": first.name, "state": {}})
    for step in rest:
        if step.map_over:
            items = state[first.name][step.map_over]
            state[step.name] = [invoke(workflow.function, {"step": step.name, "item": i}) for i in items]
        else:
            state[step.name] = invoke(workflow.function, {"step": step.name, "state": dict(state)})
        log.info("workflow %s: step %s done", workflow.name, step.name)
    return state
