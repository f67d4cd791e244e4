"""Cold start: what Lambda's init phase pays to import each function's handler module.

For every registry function, fresh interpreters import the handler module (with all its
module-level work); the baseline is a fresh interpreter that only does
`import boto3; boto3.client("dynamodb")`. Medians of several runs; the ratio is printed
against the issue's target of 1.25.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

from infra.registry import FUNCTIONS

RUNS = 7
TARGET_RATIO = 1.25
BASELINE = "import boto3; boto3.client('dynamodb')"
# Where the time goes: floors set by the libraries every HTTP function uses (not gated).
REFERENCES = {
    "boto3 + pydantic": "import boto3, pydantic",
    "boto3 + Powertools resolver": (
        "import boto3; from aws_lambda_powertools.event_handler import APIGatewayHttpResolver as R; R()"
    ),
    "boto3 + Powertools resolver with validation": (
        "import boto3; from aws_lambda_powertools.event_handler import APIGatewayHttpResolver as R;"
        " R(enable_validation=True)"
    ),
}


def _median_seconds(code: str) -> float:
    env = {**os.environ, "AWS_DEFAULT_REGION": "eu-central-1", "PYTHONDONTWRITEBYTECODE": "0"}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)  # warm the bytecode cache
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    baseline = _median_seconds(BASELINE)
    print(f"cold start baseline (boto3 + dynamodb client): {baseline * 1000:.0f} ms")
    for name, code in REFERENCES.items():
        seconds = _median_seconds(code)
        print(f"cold start reference {name:<44} {seconds * 1000:5.0f} ms  ratio {seconds / baseline:.2f}")
    worst = 0.0
    for function in FUNCTIONS:
        seconds = _median_seconds(f"import {function.module}")
        ratio = seconds / baseline
        worst = max(worst, ratio)
        print(f"cold start {function.name:<14} {seconds * 1000:5.0f} ms  ratio {ratio:.2f}")
    verdict = "met" if worst <= TARGET_RATIO else "MISSED"
    print(f"cold start worst ratio {worst:.2f} (target {TARGET_RATIO}): {verdict}")
    return 0 if worst <= TARGET_RATIO else 1


if __name__ == "__main__":
    raise SystemExit(main())
