"""The benchmarks of `make bench`. Each runs small by default, so the whole run finishes in
minutes on a shared development machine; `BENCH_FULL=1` runs each at the size its docstring
states (its targets are the same either way)."""

from __future__ import annotations

import os

FULL = os.environ.get("BENCH_FULL") == "1"


def size(small: int, full: int) -> int:
    """A repetition count: `full` under BENCH_FULL=1, else `small`."""
    return full if FULL else small
