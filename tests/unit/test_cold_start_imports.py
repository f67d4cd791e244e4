"""Cold start: what an HTTP function's init phase must not import (measured costs in the
README's cold-start section). A fresh interpreter imports each handler and lists what it
loaded, so a new eager import of one of these fails here before `make bench` sees it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from infra.registry import FUNCTIONS

# module -> why it stays out of the init phase
DEFERRED = {
    "aws_lambda_powertools.event_handler.openapi.models": "~0.1 s; only the OpenAPI document reads it",
    "email_validator": "~35 ms; loaded by the first e-mail validated",
    "tavla.rules.profiles": "~60 ms; loaded by the requests that resolve rules",
    "aws_lambda_powertools.utilities.idempotency": "~0.1 s; loaded by requests with an Idempotency-Key",
    "networkx": "~0.5 s; loaded by the draws that pair by matching (Swiss, lives)",
}


def test_no_http_handler_imports_what_only_some_requests_need() -> None:
    env = {**os.environ, "AWS_DEFAULT_REGION": "eu-central-1", "POWERTOOLS_TRACE_DISABLED": "true"}
    for function in FUNCTIONS:
        if not function.http:
            continue
        code = (
            f"import json, sys, {function.module}; "
            f"print(json.dumps([m for m in {sorted(DEFERRED)!r} if m in sys.modules]))"
        )
        result = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        loaded = json.loads(result.stdout.strip().splitlines()[-1])
        assert loaded == [], {m: DEFERRED[m] for m in loaded} | {"function": function.name}
