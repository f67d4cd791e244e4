"""`make bench`: every benchmark, one after another; exits 1 when any target is missed."""

from __future__ import annotations

import importlib
import sys

BENCHMARKS = (
    "bench_pairing",
    "bench_brackets",
    "bench_results",
    "bench_calls",
    "bench_board",
    "bench_draw",
    "bench_cost",
    "bench_coldstart",
    # issue 10: a synthetic national season on DynamoDB Local (small by default; see its --help)
    "bench_season",
)


def main() -> int:
    failed = []
    for name in BENCHMARKS:
        print(f"== {name}", flush=True)
        try:
            status = importlib.import_module(f"bench.{name}").main()
        except SystemExit as stop:
            status = stop.code
        if status:
            failed.append(name)
    if failed:
        print(f"targets missed in: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
