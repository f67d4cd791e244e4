"""`make bench`: every benchmark, one after another; exits 1 when any target is missed.

`python -m bench bench_day bench_cost` runs only those. Each benchmark's default size is one
that finishes in minutes on a shared development machine; each says how to run it full size.
"""

from __future__ import annotations

import importlib
import os
import sys
import time

from bench import machine_speed

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
    # fresh interpreters paired with the floor (COLDSTART_ROUNDS, COLDSTART_ALL: see its docstring)
    "bench_coldstart",
    # a synthetic national season on DynamoDB Local (small by default; see its --help)
    "bench_season",
    # many knockouts played at once over the local stack's HTTP, then one alone (see its --help)
    "bench_saturday",
    # a 50,000-line bank statement through the request and the background job (LINES= to change)
    "bench_statements",
)


def main(names: list[str]) -> int:
    from tests.service.conftest import reset_clients

    unknown = sorted(set(names) - set(BENCHMARKS))
    if unknown:
        print(f"no such benchmark: {', '.join(unknown)} (there are: {', '.join(BENCHMARKS)})")
        return 2
    print(f"== this machine: 10 million Python loop steps in {machine_speed():.2f} s", flush=True)
    failed = []
    began = time.monotonic()
    for name in [b for b in BENCHMARKS if not names or b in names]:
        print(f"== {name}", flush=True)
        environment = dict(os.environ)
        started = time.monotonic()
        try:
            status = importlib.import_module(f"bench.{name}").main()
        except SystemExit as stop:
            status = stop.code
        finally:  # each benchmark starts from the same environment, not the last one's endpoints
            os.environ.clear()
            os.environ.update(environment)
            reset_clients()
        print(f"== {name}: {time.monotonic() - started:.0f} s", flush=True)
        if status:
            failed.append(name)
    print(f"== all: {time.monotonic() - began:.0f} s")
    if failed:
        print(f"targets missed in: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
