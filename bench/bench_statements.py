"""A 50,000-line bank statement imported in the background, on DynamoDB Local and the local
stack's S3 (moto): how long the request takes to refuse or queue it, and how fast the
statements job imports it (lines per second; target: well within the job's 900 s timeout).

The request (the payments function) and the job (the statements function) run in this
process, against the local stack's DynamoDB Local and moto, as their Lambdas would. The
statement: 64 players' entry fees among transfers that pay nothing here, as a club's
account shows them. `python -m bench bench_statements` (LINES=5000 for a quick look).
"""

from __future__ import annotations

import logging
import os
import tempfile
import time
from pathlib import Path

from bench.bench_draw import _api

LINES = int(os.environ.get("LINES", "50000"))
PLAYERS = 64
TIMEOUT_SECONDS = 900  # the statements function's (infra/registry.py)
# a third of the timeout spare; a job cut short is delivered again and goes on from its progress
TARGET_SECONDS = TIMEOUT_SECONDS * 2 / 3
REQUEST_TARGET_SECONDS = 10  # the payments function has 29


def _statement(codes: list[str], lines: int) -> str:
    rows = ["Date;Amount;Description;Payer;Id"]
    every = max(1, lines // len(codes))
    paid = iter(codes)
    for i in range(lines):
        code = next(paid, None) if i % every == 0 else None
        text = f"Entry fee {code}" if code else f"dues {i}"  # short: 50,000 lines within the 2 MB limit
        rows.append(f"{1 + i % 28:02d}/11/2026;{20 if code else 5 + i % 40},00;{text};P{i % 997};T{i}")
    return "\n".join(rows)


MAPPING = {
    "value_date": "Date",
    "amount": "Amount",
    "reference": "Description",
    "payer": "Payer",
    "transaction_id": "Id",
    "decimal_comma": True,
    "date_format": "31/12/2026",
    "delimiter": ";",
}


def main() -> int:
    from local.env import handler_environment
    from tavla import clock
    from tavla.services import statements
    from tests.e2e.conftest import Stack
    from tests.service.conftest import reset_clients
    from tests.service.helpers import ORGANISER, create_player, create_tournament, register

    stack = Stack(Path(tempfile.mkdtemp(prefix="bench-statements-")), workers=1).start()
    try:
        os.environ.update(handler_environment(stack.endpoints["DynamoDB Local"], stack.endpoints["moto"]))
        os.environ["POWERTOOLS_METRICS_DISABLED"] = "true"
        logging.getLogger("tavla").setLevel(logging.WARNING)
        reset_clients()
        api = _api()
        tid = create_tournament(api, capacity=PLAYERS)
        codes = []
        for i in range(PLAYERS):
            create_player(api, f"payer-{i}")
            codes.append(str(register(api, tid, f"payer-{i}").body["checkin_code"]))
        content = _statement(codes, LINES)
        started = time.perf_counter()
        reply = api.call(
            "POST",
            "/tournaments/{tournament_id}/bank-statements",
            params={"tournament_id": tid},
            body={"format": "csv", "content": content, "mapping": MAPPING},
            user=ORGANISER,
        )
        queued = time.perf_counter() - started
        assert reply.status == 202, reply.body
        started = time.perf_counter()
        outcome = statements.run_import(tid, reply.body["statement_id"], clock.now())
        took = time.perf_counter() - started
        rate = LINES / took
        print(
            f"statement of {LINES} lines ({len(content) / 1e6:.1f} MB): request read and queued it in "
            f"{queued:.2f} s (target <= {REQUEST_TARGET_SECONDS} s); the job imported it in {took:.1f} s "
            f"= {rate:.0f} lines/s (target <= {TARGET_SECONDS:.0f} s, the timeout {TIMEOUT_SECONDS} s); "
            f"counts {outcome['counts']}",
            flush=True,
        )
        return 0 if took <= TARGET_SECONDS and queued <= REQUEST_TARGET_SECONDS else 1
    finally:
        stack.stop()
        reset_clients()


if __name__ == "__main__":
    raise SystemExit(main())
