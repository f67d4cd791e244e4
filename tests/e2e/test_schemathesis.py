"""The OpenAPI document tells the truth: schemathesis over every operation, as an organiser and a player.

On a stack of its own (its requests change data, and a fresh start keeps the run reproducible),
seeded with real ids; bounded and deterministic (see tests/e2e/fuzz.py). Zero server errors,
zero status codes the document does not list, zero responses that break their documented
content type or schema. A failure lists each finding with the curl line that reproduces it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from infra.registry import FUNCTIONS
from tests.e2e import fuzz
from tests.e2e.conftest import Stack

DETAIL_CHARS = 1200  # of each finding's text in the assertion message


@pytest.mark.parametrize("role", fuzz.ROLES)  # one stack each: the roles run side by side under xdist
def test_schemathesis_finds_no_server_error_undocumented_status_or_schema_mismatch(
    fresh_stack_factory: Callable[..., Stack], tmp_path: Path, role: str
) -> None:
    stack = fresh_stack_factory(workers=2)
    runs = fuzz.run(stack.url, tmp_path, roles=(role,))
    # schemathesis leaves out the operation that serves the document itself
    documented = {f"{r.method} {r.path}" for f in FUNCTIONS for r in f.routes()} - {"GET /openapi.json"}
    for done in runs:
        assert documented - done.tested == set(), f"{done.role}: not tested\n{done.output[-3000:]}"
    findings = [f for done in runs for f in done.failures]
    report = "\n\n".join(f"{f.role} | {f.operation} | {f.check}\n{f.detail[:DETAIL_CHARS]}" for f in findings)
    summary = ", ".join(f"{d.role}: {len(d.failures)} findings, exit {d.exit_code}" for d in runs)
    assert not findings, f"schemathesis: {summary}\n\n{report}"
    assert all(done.exit_code == 0 for done in runs), "\n".join(done.output[-3000:] for done in runs)
