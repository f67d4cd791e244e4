"""A 512-player Swiss day on the local stack (DynamoDB Local): does the day scale as it grows?

    PYTHONPATH=shared:. .venv/bin/python -m bench.bench_day --players 512 --rounds 5

Round after round, through the functions' handlers:
1. a confirmation (the referee's `POST /matches/{id}/confirm`), `--sample` of them one after
   another in process, their DynamoDB calls counted: p50 per round (target: the last round
   within 1.2x of round 1) and calls per confirmation (target <= 6 in every round);
2. `--concurrent` confirmations of one round sent at once over real HTTP by `--clients`
   clients (503 busy sent again, as the API asks), in round 1 and the last: processed per
   second (target >= 10), then the state checked: each match official with its result, each
   confirmed exactly once in the audit trail;
3. the public board (`GET /tournaments/{id}/board` over HTTP) after the draw, after the
   confirmations and at the round's end: its size gzipped (target < 60 KB in every round).
`make bench` runs a smaller day (`--players 256 --rounds 3 --sample 8 --concurrent 32`) to
stay within minutes on a loaded machine; run it directly for the 512-player figures.
Before the confirmations, what the draw and the round before set off on the bus (every
player's table call, the no-show deadlines, the ratings, the board's deltas) is delivered, and
how long that took is printed: on AWS each consumer runs on instances of its own, while on the
local stack it would share the machine's cores with the confirmations measured.
The rest of each round is made official directly in the table (tables freed, as the last
confirmation would leave them), so the day reaches round 5 in minutes. The field is written
as the first draw fixes it (registering 512 players is bench_draw's business).
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import requests

from bench import FULL, machine_speed
from bench.bench_board import fixed_field
from bench.bench_draw import ORGANISER, _api, _call
from tests.service.helpers import dynamodb_calls

if TYPE_CHECKING:
    from tests.e2e.client import Client

RATIO_TARGET = 1.2  # the last round's confirmation p50 / round 1's
CALLS_TARGET = 6  # DynamoDB calls per confirmation
RATE_TARGET = 10.0  # confirmations processed per second, sent at once
BOARD_TARGET = 60_000  # bytes of the board gzipped
SMALL = ["--players", "256", "--rounds", "3", "--sample", "8", "--concurrent", "32"]


def _draw(tid: str) -> list[dict[str, Any]]:
    params = {"tournament_id": tid}
    return list(_call("POST", "/tournaments/{tournament_id}/rounds", ORGANISER, params=params)["pairings"])


def _confirm_body(match: dict[str, Any], rng: random.Random) -> dict[str, int]:
    """A plausible result: either side wins, the loser scored something."""
    length = int(match["length"])
    loser = rng.randrange(length)
    return (
        {"home_points": length, "away_points": loser}
        if rng.random() < 0.5
        else {
            "home_points": loser,
            "away_points": length,
        }
    )


def _confirm_in_process(match: dict[str, Any], rng: random.Random) -> tuple[float, int]:
    """One confirmation through the handler: (seconds, DynamoDB calls)."""
    body = _confirm_body(match, rng)
    started = time.perf_counter()
    replies: list[Any] = []
    calls = dynamodb_calls(
        lambda: replies.append(
            _api().call(
                "POST",
                "/matches/{match_id}/confirm",
                params={"match_id": match["id"]},
                body=body,
                user=ORGANISER,
            )
        )
    )
    seconds = time.perf_counter() - started
    if replies[0].status != 200:
        raise RuntimeError(f"confirm {match['code']}: {replies[0].status} {replies[0].body}")
    return seconds, len(calls)


def _board_size(client: Client, tid: str) -> tuple[int, int, float]:
    """The public board over HTTP: (bytes, bytes gzipped, seconds)."""
    started = time.perf_counter()
    reply = client.call("GET", f"/tournaments/{tid}/board")
    seconds = time.perf_counter() - started
    if reply.status != 200:
        raise RuntimeError(f"board: {reply.status} {reply.body}")
    body = json.dumps(reply.body, separators=(",", ":")).encode()
    return len(body), len(gzip.compress(body)), seconds


def _at_once(
    client: Client, tid: str, matches: list[dict[str, Any]], clients: int, rng: random.Random
) -> tuple[float, Counter[int], list[str]]:
    """Confirm `matches` at once over HTTP; (seconds until all processed, the answers by status
    (0: none within the client's timeout), what is wrong after)."""
    bodies = {m["id"]: _confirm_body(m, rng) for m in matches}
    token = client.token(ORGANISER)

    def send(match: dict[str, Any]) -> int:
        """The answer's status; 0 when none came within the client's timeout (sent again:
        confirming a result again as it is changes nothing)."""
        try:
            return client.call(
                "POST", f"/matches/{match['id']}/confirm", bodies[match["id"]], token=token
            ).status
        except requests.RequestException:
            return 0

    answers: Counter[int] = Counter()
    started = time.perf_counter()
    pending = list(matches)
    with ThreadPoolExecutor(max_workers=clients) as pool:
        for _ in range(20):
            statuses = list(pool.map(send, pending))
            answers.update(statuses)
            wrong = [s for s in statuses if s not in (0, 200, 503)]
            if wrong:
                raise RuntimeError(f"confirmations answered {Counter(wrong)}")
            pending = [m for m, s in zip(pending, statuses, strict=True) if s != 200]
            if not pending:
                break
    seconds = time.perf_counter() - started
    problems = [f"{len(pending)} still not confirmed after 20 waves"] if pending else []
    for m in matches:
        now = client.call("GET", f"/matches/{m['id']}").body
        want = bodies[m["id"]]
        got = now.get("result") or {}
        if now["state"] != "official" or (got.get("home_points"), got.get("away_points")) != (
            want["home_points"],
            want["away_points"],
        ):
            problems.append(f"{m['code']}: {now['state']} {got}")
    confirmed: Counter[str] = Counter()
    after: str | None = None
    while True:  # the whole trail, page after page where the route pages
        query = f"?limit=500{'&after=' + after if after else ''}"
        page = client.call("GET", f"/tournaments/{tid}/audit{query}", token=token).body
        confirmed.update(
            r["details"].get("match") for r in page["records"] if r["action"] == "result_confirmed"
        )
        after = page.get("next")
        if not after:
            break
    for m in matches:
        if confirmed[m["code"]] != 1:
            problems.append(f"{m['code']} confirmed {confirmed[m['code']]} times in the audit trail")
    return seconds, answers, problems


def _close_round(tid: str, rng: random.Random) -> None:
    """Every match still open made official directly, the tables freed (as the last confirmation
    leaves them)."""
    from tavla.rules.results import Result
    from tavla.rules.states import State
    from tavla.store import draws as draw_store
    from tavla.store import keys
    from tavla.store.dynamo import client, serialize, table_name
    from tavla.store.records import item_of
    from tavla.store.schema import MAIN

    current = draw_store.day(tid, with_rounds=False)
    assert current.tournament is not None
    official = []
    for r in draw_store.fixtures(current.tournament):
        if r.state in ("called", "queued", "playing") and r.home and r.away:
            winner = r.home if rng.random() < 0.5 else r.away
            points = (r.length, rng.randrange(r.length))
            home_points, away_points = points if winner == r.home else points[::-1]
            result = {
                "winner": winner,
                "home_points": home_points,
                "away_points": away_points,
                "how": "score",
            }
            official.append(
                replace(
                    r,
                    state=State.OFFICIAL,
                    result=Result.from_json(result),
                    table=None,
                    official_at=r.called_at,
                    version=r.version + 1,
                )
            )
    draw_store.write_fixtures(official)
    if current.tables is not None:
        freed = replace(current.tables, occupied={}, queue=(), version=current.tables.version + 1)
        item = {**keys.plain(keys.tables(tid)), **item_of(freed), "queue": []}
        client().put_item(TableName=table_name(MAIN), Item=serialize(item))


def run(players: int, rounds: int, sample: int, concurrent: int, clients: int, workers: int) -> int:
    from local.env import handler_environment
    from tests.e2e.client import Client
    from tests.e2e.conftest import Stack
    from tests.service.conftest import reset_clients
    from tests.service.helpers import tournament_body

    rng = random.Random(20261202)
    stack = Stack(Path(tempfile.mkdtemp(prefix="bench-day-")), workers=workers).start()
    missed: list[str] = []
    try:
        os.environ.update(handler_environment(stack.endpoints["DynamoDB Local"], stack.endpoints["moto"]))
        os.environ["POWERTOOLS_METRICS_DISABLED"] = "true"  # the figures, not the EMF lines, on stdout
        logging.getLogger("tavla").setLevel(logging.WARNING)  # nor a timing line per AWS call
        reset_clients()  # clients cached by an earlier benchmark point at its moto
        client = Client(stack)
        body = tournament_body(capacity=players, format="swiss", swiss_rounds=rounds, name="Bench Day")
        tid = str(_call("POST", "/tournaments", ORGANISER, ("organisers",), body=body)["id"])
        fixed_field(tid, players)
        p50s: dict[int, float] = {}
        for number in range(1, rounds + 1):
            started = time.perf_counter()
            pairings = _draw(tid)
            drawn = time.perf_counter() - started
            called = [m for m in pairings if m["state"] == "called"]
            boards = [_board_size(client, tid)]
            draining = time.perf_counter()
            stack.drain()
            delivered = time.perf_counter() - draining
            samples = [_confirm_in_process(m, rng) for m in called[:sample]]
            seconds = [s for s, _ in samples]
            calls = [c for _, c in samples]
            p50s[number] = statistics.median(seconds)
            print(
                f"round {number}: drawn in {drawn:.1f} s, what it set off delivered in {delivered:.1f} s; "
                f"confirmation x{len(samples)} one at a time: "
                f"p50 {p50s[number]:.3f} s, max {max(seconds):.3f} s; DynamoDB calls per confirmation "
                f"{min(calls)}-{max(calls)} (target <= {CALLS_TARGET})",
                flush=True,
            )
            if max(calls) > CALLS_TARGET:
                missed.append(f"calls per confirmation in round {number}")
            if number in (1, rounds) and concurrent:
                batch = called[sample : sample + concurrent]
                took, answers, problems = _at_once(client, tid, batch, clients, rng)
                rate = len(batch) / took
                after = "; ".join(problems[:5]) or "each official once, none lost"
                print(
                    f"round {number}: {len(batch)} confirmations sent at once by {clients} clients (HTTP): "
                    f"all processed in {took:.1f} s = {rate:.1f}/s (target >= {RATE_TARGET:.0f}/s), "
                    f"{answers[503]} answers 503, {answers[0]} timed out; state after: {after}",
                    flush=True,
                )
                if rate < RATE_TARGET:
                    missed.append(f"confirmations per second in round {number}")
                if problems:
                    missed.append(f"confirmations lost or applied twice in round {number}")
            boards.append(_board_size(client, tid))
            _close_round(tid, rng)
            boards.append(_board_size(client, tid))
            largest = max(boards, key=lambda b: b[1])
            gzipped = " / ".join(f"{b[1] / 1000:.1f}" for b in boards)
            print(
                f"round {number}: board (after the draw / after confirmations / round over) gzipped "
                f"{gzipped} KB (target < {BOARD_TARGET // 1000} KB), "
                f"largest {largest[0] / 1000:.0f} KB raw, answered in "
                f"{' / '.join(f'{b[2]:.2f}' for b in boards)} s",
                flush=True,
            )
            if largest[1] >= BOARD_TARGET:
                missed.append(f"board size in round {number}")
        ratio = p50s[rounds] / p50s[1]
        print(
            f"confirmation p50 round {rounds} / round 1: {ratio:.2f}x (target <= {RATIO_TARGET}x) "
            f"{'ok' if ratio <= RATIO_TARGET else 'MISSED'}"
        )
        if ratio > RATIO_TARGET:
            missed.append("confirmation p50 growth")
    finally:
        stack.stop()
    for what in missed:
        print(f"MISSED {what}")
    return 1 if missed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sample", type=int, default=12, help="confirmations timed one at a time per round")
    parser.add_argument("--concurrent", type=int, default=64, help="confirmations sent at once (0: none)")
    parser.add_argument("--clients", type=int, default=8, help="clients sending them")
    parser.add_argument("--workers", type=int, default=4, help="the local stack's worker processes")
    args = parser.parse_args(([] if FULL else SMALL) if argv is None and __name__ != "__main__" else argv)
    if __name__ == "__main__":  # run alone: say how fast the machine was, before and after
        print(f"this machine: 10 million Python loop steps in {machine_speed():.2f} s", flush=True)
    missed = run(args.players, args.rounds, args.sample, args.concurrent, args.clients, args.workers)
    if __name__ == "__main__":
        print(f"this machine: 10 million Python loop steps in {machine_speed():.2f} s", flush=True)
    return missed


if __name__ == "__main__":
    sys.exit(main())
