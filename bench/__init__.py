"""The benchmarks of `make bench`. Each runs small by default, so the whole run finishes in
minutes on a shared development machine; `BENCH_FULL=1` runs each at the size its docstring
states (its targets are the same either way)."""

from __future__ import annotations

import os
import time

FULL = os.environ.get("BENCH_FULL") == "1"


def size(small: int, full: int) -> int:
    """A repetition count: `full` under BENCH_FULL=1, else `small`."""
    return full if FULL else small


def machine_speed() -> float:
    """Seconds for ten million steps of a Python loop, the best of three: the same code's
    figures differ by several times between days on a shared machine, so each run says how fast
    this one was and figures from different days compare through it."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        total = 0
        for step in range(10_000_000):
            total += step
        best = min(best, time.perf_counter() - started)
    return best
