"""`make bench`: every benchmark, one after another; exits 1 when any target is missed."""

from __future__ import annotations

import importlib
import os
import sys

BENCHMARKS = (
    "bench_pairing",
    "bench_brackets",
    "bench_results",
    "bench_calls",
    "bench_board",
    "bench_draw",
    # a 512-player Swiss day on DynamoDB Local: confirmations by round, at once, the board (see its --help)
    "bench_day",
    "bench_cost",
    "bench_coldstart",
    # a synthetic national season on DynamoDB Local (small by default; see its --help)
    "bench_season",
    # many knockouts played at once over the local stack's HTTP, then one alone (see its --help)
    "bench_saturday",
)


def main() -> int:
    from tests.service.conftest import reset_clients

    failed = []
    for name in BENCHMARKS:
        print(f"== {name}", flush=True)
        environment = dict(os.environ)
        try:
            status = importlib.import_module(f"bench.{name}").main()
        except SystemExit as stop:
            status = stop.code
        finally:  # each benchmark starts from the same environment, not the last one's endpoints
            os.environ.clear()
            os.environ.update(environment)
            reset_clients()
        if status:
            failed.append(name)
    if failed:
        print(f"targets missed in: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
