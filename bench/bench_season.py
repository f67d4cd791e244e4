"""A synthetic national season on Amazon's DynamoDB Local: what the roll-ups cost.

    PYTHONPATH=shared:. .venv/bin/python -m bench.bench_season --players 20000 --tournaments 1000

Generates the record a season leaves (profiles, finished tournaments of 40 players and
`--matches` official matches each, their final standings), then measures:

1. the full rebuild from an empty rating state (the recovery path: everything written) and the
   nightly rebuild that finds nothing to repair (reads and compares only): time, peak memory
   (each in its own interpreter: ru_maxrss), DynamoDB calls and estimated capacity units;
2. one more finished tournament rolled up incrementally: its ResultConfirmed events through
   the ratings service and its TournamentFinished through the season service: calls and time;
3. GET /ratings through the rankings handler: p95 over first pages, deep pages and club lists,
   and the first page's DynamoDB calls.

Capacity units are estimated from item sizes with DynamoDB's rounding (read: 4 KB per unit,
strongly consistent; a Query rounds its total; write: 1 KB per unit per item, transactions
twice; each GSI whose key an update moves: 2 writes more), DynamoDB Local reports none.
`make bench` runs a small season (`--players 1000 --tournaments 30`).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench import FULL
from tavla.rules.results import Result
from tavla.rules.states import State

LAMBDA_LIMIT_S = 900
SMALL = ["--players", "1000", "--tournaments", "30"]


def _size(value: Any) -> int:
    """Approximate DynamoDB size of an attribute value (names and values, as bytes)."""
    if isinstance(value, dict):
        if len(value) == 1:
            (kind, inner), *_ = value.items()
            if kind in ("S", "N", "B"):
                return len(str(inner).encode())
            if kind in ("BOOL", "NULL"):
                return 1
            if kind == "L":
                return 3 + sum(_size(v) + 1 for v in inner)
            if kind == "M":
                return 3 + sum(len(k) + _size(v) + 1 for k, v in inner.items())
            if kind in ("SS", "NS"):
                return sum(len(str(v)) for v in inner)
        return sum(len(k) + _size(v) for k, v in value.items())
    return len(str(value))


@dataclass
class Meter:
    """DynamoDB calls and estimated capacity units, counted on the store's client."""

    calls: dict[str, int] = field(default_factory=dict)
    rcu: float = 0.0
    wcu: float = 0.0

    @property
    def total_calls(self) -> int:
        return sum(self.calls.values())

    def before(self, params: dict[str, Any], operation: str) -> None:
        self.calls[operation] = self.calls.get(operation, 0) + 1
        if operation == "PutItem":
            self.wcu += math.ceil(_size(params["Item"]) / 1024)
        elif operation in ("UpdateItem", "DeleteItem"):
            self.wcu += 1 + (6 if "rating_key" in str(params.get("UpdateExpression", "")) else 0)
        elif operation == "BatchWriteItem":
            for requests in params["RequestItems"].values():
                for r in requests:
                    item = r.get("PutRequest", {}).get("Item")
                    self.wcu += math.ceil(_size(item) / 1024) if item else 1
        elif operation == "TransactWriteItems":
            for t in params["TransactItems"]:
                (kind, body), *_ = t.items()
                size = _size(body.get("Item", {})) if kind == "Put" else 300
                extra = 6 if "rating_key" in str(body.get("UpdateExpression", "")) else 0
                self.wcu += 2 * math.ceil(size / 1024) + extra

    def after(self, parsed: dict[str, Any], operation: str, consistent: bool) -> None:
        factor = 1.0 if consistent else 0.5
        if operation == "GetItem" and "Item" in parsed:
            self.rcu += factor * math.ceil(_size(parsed["Item"]) / 4096)
        elif operation == "BatchGetItem":
            for items in parsed.get("Responses", {}).values():
                self.rcu += sum(factor * math.ceil(_size(i) / 4096) for i in items)
        elif operation in ("Query", "Scan"):
            total = sum(_size(i) for i in parsed.get("Items", []))
            self.rcu += factor * max(1, math.ceil(total / 4096))


@contextmanager
def metered() -> Iterator[Meter]:
    from tavla.store.dynamo import client

    meter = Meter()
    events = client().meta.events
    pending: dict[str, bool] = {}

    def before(params: dict[str, Any], model: Any, **_: Any) -> None:
        meter.before(params, model.name)
        pending["consistent"] = bool(params.get("ConsistentRead")) or model.name == "TransactWriteItems"

    def after(parsed: dict[str, Any], model: Any, **_: Any) -> None:
        meter.after(parsed, model.name, pending.get("consistent", False))

    events.register("provide-client-params.dynamodb.*", before, unique_id="season-meter-before")
    events.register("after-call.dynamodb.*", after, unique_id="season-meter-after")
    try:
        yield meter
    finally:
        events.unregister("provide-client-params.dynamodb.*", unique_id="season-meter-before")
        events.unregister("after-call.dynamodb.*", unique_id="season-meter-after")


# -- the synthetic season ----------------------------------------------------------------------

START = datetime(2026, 1, 10, 9, 0, tzinfo=UTC)
LENGTHS = (5, 7, 9, 11)
FIELD = 40  # players per tournament


def tavla_id(n: int) -> str:
    return f"P{n:06d}"


def _fixture(
    tid: str, m: int, home: str, away: str, length: int, result: dict[str, Any], official_at: datetime
) -> Any:
    """The `m`-th official match of a synthetic Swiss tournament (20 boards a round)."""
    from tavla.store.records import FixtureRecord

    rnd, board = divmod(m, FIELD // 2)
    return FixtureRecord(
        tournament_id=tid,
        code=f"main.S{rnd + 1}.{board + 1}",
        draw=rnd + 1,
        event="main",
        round=rnd + 1,
        label=f"Round {rnd + 1}",
        board=board + 1,
        stage="swiss",
        length=length,
        home_source={},
        away_source={},
        state=State.OFFICIAL,
        home=home,
        away=away,
        result=Result.from_json(result),
        official_at=official_at.isoformat(),
    )


def generate(players: int, tournaments: int, matches: int, seed: int) -> None:
    """Write the record of a season: profiles, finished tournaments, official matches, standings."""
    from tavla.rules.entrants import MatchRecord
    from tavla.rules.standings import table_standings
    from tavla.store import draws as draw_store
    from tavla.store import keys
    from tavla.store import tournaments as tournament_store
    from tavla.store.dynamo import batch_write
    from tavla.store.records import ProfileRecord, TournamentRecord
    from tavla.store.schema import MAIN

    rng = random.Random(seed)
    profiles = [
        {
            **keys.plain(keys.profile(tavla_id(n))),
            **ProfileRecord(
                tavla_id=tavla_id(n),
                name=f"Player {n}",
                created_at=START.isoformat(),
                rating=1500.0,
                rated_matches=0,
                club=f"Club {n % 400}",
                city=f"City {n % 50}",
            ).to_item(),
        }
        for n in range(players)
    ]
    batch_write(MAIN, profiles, [])
    strength = {tavla_id(n): rng.gauss(0, 1) for n in range(players)}
    items: list[dict[str, Any]] = []
    for t in range(tournaments):
        tid = f"{t + 1:016x}"
        day = START + timedelta(hours=t * 8)
        field_ = [tavla_id(n) for n in rng.sample(range(players), FIELD)]
        record = TournamentRecord(
            id=tid,
            status="finished",
            checkin_open=False,
            registered=FIELD,
            waiting=0,
            wait_seq=0,
            version=1,
            created_at=day.isoformat(),
            created_by="bench",
            staff={},
            settings={
                "name": f"Open {t}",
                "starts_at": day.isoformat(),
                "capacity": FIELD,
                "season_id": "s2026",
                "level": rng.choice(("local", "local", "regional", "national", "major")),
                "format": "swiss",
            },
            draws=99,
            finished_at=(day + timedelta(hours=7)).isoformat(),
        )
        items.append(tournament_store._item(record))
        played: list[MatchRecord] = []
        per_round = FIELD // 2
        for m in range(matches):
            rnd, board = divmod(m, per_round)
            if board == 0:
                order = field_[:]
                rng.shuffle(order)
            home, away = order[2 * board], order[2 * board + 1]
            length = rng.choice(LENGTHS)
            home_won = rng.random() < 1 / (1 + 10 ** (strength[away] - strength[home]))
            loser_points = rng.randrange(0, length)
            hp, ap = (length, loser_points) if home_won else (loser_points, length)
            forfeit = rng.random() < 0.01
            if forfeit:
                hp, ap = (length, 0) if home_won else (0, length)
            official_at = day + timedelta(minutes=40 * rnd + board)
            result = {
                "winner": home if home_won else away,
                "home_points": hp,
                "away_points": ap,
                "forfeit": forfeit,
                "how": "forfeit" if forfeit else "score",
            }
            fixture = _fixture(tid, m, home, away, length, result, official_at)
            items.append(draw_store.fixture_item(fixture))
            played.append(
                MatchRecord(
                    round=rnd + 1,
                    home=home,
                    away=away,
                    home_points=hp,
                    away_points=ap,
                    winner=home if home_won else away,
                    forfeit=forfeit,
                )
            )
        rows = table_standings(field_, played)
        items.append(
            {
                **keys.plain(keys.standings(tid)),
                "tournament_id": tid,
                "finished_at": record.finished_at,
                "announced": True,
                "events": [
                    {
                        "event": "main",
                        "rows": [
                            {"player": {"tavla_id": r.player_id}, "place": r.place, "place_to": r.place_to}
                            for r in rows
                        ],
                    }
                ],
            }
        )
        if len(items) > 5000:
            batch_write(MAIN, items, [])
            items = []
        if (t + 1) % 100 == 0:
            print(f"    generated {t + 1} tournaments", file=sys.stderr, flush=True)
    batch_write(MAIN, items, [])


# -- the measurements --------------------------------------------------------------------------


def _child(mode: str) -> dict[str, Any]:
    """Run one rebuild in a fresh interpreter (its own peak memory) against the same tables."""
    out = subprocess.run(
        [sys.executable, "-m", "bench.bench_season", "--child", mode],
        env=os.environ.copy(),
        stdout=subprocess.PIPE,  # stderr: the child's progress, straight to the parent's
        text=True,
        check=False,
    )
    if out.returncode:
        raise SystemExit(f"the {mode} child failed (its stderr is above)")
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


NOW = datetime(2027, 1, 1, tzinfo=UTC)


def partitioned() -> dict[str, Any]:
    """The full rebuild through the registry's workflow steps, run in order as the local stack
    runs them (local.workflows); per step: items, total and slowest item (what one Lambda run
    must fit), and the wall time the state machine would take with each map's concurrency."""
    from infra.registry import workflow
    from local import workflows
    from tavla.services import full_rebuild

    flow = workflow("rebuild")
    timings: dict[str, list[float]] = {}
    peaks: dict[str, float] = {}

    def invoke(_: str, event: dict[str, Any]) -> Any:
        t0 = time.perf_counter()
        out = full_rebuild.run_step(event, NOW)
        timings.setdefault(event["step"], []).append(time.perf_counter() - t0)
        peaks[event["step"]] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        brief = {k: v for k, v in out.items() if isinstance(v, int | float | str | bool)}
        print(  # progress on stderr (the parent's log): a run cut short still tells what it did
            f"    step {event['step']} #{len(timings[event['step']])}: {timings[event['step']][-1]:.1f} s, "
            f"peak {peaks[event['step']]:.0f} MB {json.dumps(brief)}",
            file=sys.stderr,
            flush=True,
        )
        return out

    state = workflows.run(flow, invoke)
    steps = {}
    wall = 0.0
    for step in flow.steps:
        times = timings.get(step.name, [])
        waves = max(1, step.max_concurrency)
        step_wall = max(max(times, default=0.0), sum(times) / waves) if step.map_over else sum(times)
        wall += step_wall
        steps[step.name] = {
            "items": len(times),
            "total_s": round(sum(times), 1),
            "slowest_item_s": round(max(times, default=0.0), 1),
            "wall_s_at_concurrency": round(step_wall, 1),
            "peak_mb_after": round(peaks.get(step.name, 0.0), 1),
        }
    return {"steps": steps, "wall_s": round(wall, 1), "state_check": state.get("check")}


def child(mode: str) -> None:
    from tavla.services import rebuild

    with metered() as meter:
        started = time.perf_counter()
        detail = partitioned() if mode == "full" else rebuild.nightly(NOW, repair=True).summary()
        seconds = time.perf_counter() - started
    print(
        json.dumps(
            {
                "mode": mode,
                "seconds": round(seconds, 1),
                "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                "calls": meter.total_calls,
                "by_operation": meter.calls,
                "rcu": round(meter.rcu),
                "wcu": round(meter.wcu),
                "report": detail,
            }
        )
    )


def incremental(players: int, matches: int, seed: int) -> dict[str, Any]:
    """One more finished tournament, rolled up as the bus would: calls and time per event."""
    from tavla.services import progress, ratings, season
    from tavla.store import draws as draw_store
    from tavla.store.dynamo import batch_write
    from tavla.store.schema import MAIN

    rng = random.Random(seed + 1)
    tid = "f" * 16
    field_ = [tavla_id(n) for n in rng.sample(range(players), FIELD)]
    day = datetime(2026, 12, 30, 9, 0, tzinfo=UTC)

    fixtures = []
    for m in range(matches):
        rnd, board = divmod(m, FIELD // 2)
        if board == 0:
            order = field_[:]
            rng.shuffle(order)
        length = rng.choice(LENGTHS)
        fixtures.append(
            _fixture(
                tid,
                m,
                order[2 * board],
                order[2 * board + 1],
                length,
                {"winner": order[2 * board], "home_points": length, "away_points": 1},
                day + timedelta(minutes=40 * rnd + board),
            )
        )
    batch_write(MAIN, [draw_store.fixture_item(f) for f in fixtures], [])
    per_result: list[tuple[int, float]] = []
    with metered() as meter:
        started = time.perf_counter()
        for f in fixtures:
            before, t0 = meter.total_calls, time.perf_counter()
            ratings.apply_result(progress.result_event(tid, f), datetime(2026, 12, 31, tzinfo=UTC))
            per_result.append((meter.total_calls - before, time.perf_counter() - t0))
        rating_seconds, rating_calls = time.perf_counter() - started, meter.total_calls
        rating_wcu, rating_rcu = meter.wcu, meter.rcu
        detail = {
            "tournament_id": tid,
            "finished_at": day.isoformat(),
            "level": "national",
            "season_id": "s2026",
            "disqualified": [],
            "events": {
                "main": [{"tavla_id": p, "place": i + 1, "place_to": i + 1} for i, p in enumerate(field_)]
            },
        }
        t0 = time.perf_counter()
        season.count_tournament(detail)
        season_seconds = time.perf_counter() - t0
    calls = sorted(c for c, _ in per_result)
    return {
        "results": len(fixtures),
        "ratings_calls": rating_calls,
        "ratings_calls_per_result_median": calls[len(calls) // 2],
        "ratings_calls_per_result_max": calls[-1],
        "ratings_seconds": round(rating_seconds, 2),
        "ratings_ms_per_result": round(1000 * rating_seconds / len(fixtures), 1),
        "ratings_wcu": round(rating_wcu),
        "ratings_rcu": round(rating_rcu),
        "season_calls": meter.total_calls - rating_calls,
        "season_seconds": round(season_seconds, 3),
        "season_wcu": round(meter.wcu - rating_wcu),
    }


def list_latency(samples: int) -> dict[str, Any]:
    import importlib

    from tests.service.conftest import Api, LambdaContext

    api = Api()
    handler = importlib.import_module("functions.rankings.handler").handler
    context = LambdaContext("rankings")
    with metered() as meter:
        handler(api.event("GET", "/ratings")[1], context)
    first_calls = meter.total_calls
    times = []
    cursor = None
    for n in range(samples):
        query: dict[str, str] = {"limit": "50"}
        if n % 3 == 1 and cursor:
            query["after"] = cursor
        if n % 3 == 2:
            query["club"] = f"Club {n % 400}"
        t0 = time.perf_counter()
        reply = handler(api.event("GET", "/ratings", query=query)[1], context)
        times.append(time.perf_counter() - t0)
        body = json.loads(reply["body"])
        assert reply["statusCode"] == 200, body
        if n % 3 != 2:
            cursor = body.get("next")
    times.sort()
    return {
        "requests": samples,
        "p50_ms": round(1000 * times[len(times) // 2], 1),
        "p95_ms": round(1000 * times[int(len(times) * 0.95)], 1),
        "first_page_calls": first_calls,
    }


def _in_memory() -> type:
    from local import npm
    from local.dynamodb import DynamoDBLocal

    class InMemory(DynamoDBLocal):
        """DynamoDB Local with `-inMemory`: the bench keeps nothing, and disk is not what it measures."""

        def launch(self) -> None:
            jar = npm.dynamodb_jar()
            self.data_dir.mkdir(parents=True, exist_ok=True)
            command = [
                "java",
                f"-Djava.library.path={jar.parent / 'DynamoDBLocal_lib'}",
                "-jar",
                str(jar),
                "-sharedDb",
                "-inMemory",
                "-port",
                str(self.port),
            ]
            log = (self.data_dir / "dynamodb-local.log").open("ab")
            self._process = subprocess.Popen(command, cwd=jar.parent, stdout=log, stderr=subprocess.STDOUT)
            log.close()

    return InMemory


@contextmanager
def dynamodb_local() -> Iterator[None]:
    import boto3

    from local.dynamodb import ensure_tables, physical_name
    from tavla.store.schema import TABLES

    with tempfile.TemporaryDirectory(prefix="bench-season-") as data:
        db = _in_memory()(Path(data))
        db.start(timeout=900)  # a JVM under `nice -n 19` on a busy machine
        try:
            os.environ.update(
                AWS_DEFAULT_REGION="eu-central-1",
                AWS_ACCESS_KEY_ID="bench",
                AWS_SECRET_ACCESS_KEY="bench",
                AWS_ENDPOINT_URL_DYNAMODB=db.url,
                EVENT_BUS_NAME="bench-bus",
            )
            for spec in TABLES:
                os.environ[spec.env_var] = physical_name(spec)
            ensure_tables(boto3.client("dynamodb"))
            yield
        finally:
            db.stop()


def run(players: int, tournaments: int, matches: int, seed: int) -> int:
    print(
        f"season: {players} players, {tournaments} tournaments x {matches} matches (DynamoDB Local)",
        flush=True,
    )
    with dynamodb_local():
        t0 = time.perf_counter()
        generate(players, tournaments, matches, seed)
        print(f"  generated the record in {time.perf_counter() - t0:.0f} s", flush=True)
        full = _child("full")
        print(
            f"  full rebuild, partitioned steps (empty state, everything written): {json.dumps(full)}",
            flush=True,
        )
        nightly = _child("nightly")
        print(f"  nightly rebuild (nothing to repair): {json.dumps(nightly)}", flush=True)
        inc = incremental(players, matches, seed)
        print(f"  one more finished tournament, incrementally: {json.dumps(inc)}", flush=True)
        lists = list_latency(150)
        print(f"  GET /ratings: {json.dumps(lists)}", flush=True)
    slowest = max(s["slowest_item_s"] for s in full["report"]["steps"].values())
    fits = max(slowest, nightly["seconds"]) < LAMBDA_LIMIT_S / 2
    peak = max(full["peak_mb"], nightly["peak_mb"])
    print(
        f"  every Lambda run (15 min) with a 2x margin: {'yes' if fits else 'NO'} "
        f"(slowest rebuild step {slowest} s, rebuild wall at the maps' concurrency "
        f"{full['report']['wall_s']} s, nightly {nightly['seconds']} s, peak {peak} MB)"
    )
    clean = nightly["report"]["clean"]  # the nightly compare after the partitioned rebuild
    return 0 if clean else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--tournaments", type=int, default=100)
    parser.add_argument("--matches", type=int, default=100, help="official matches per tournament")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--child", choices=("full", "nightly"))
    args = parser.parse_args(([] if FULL else SMALL) if argv is None and __name__ != "__main__" else argv)
    if args.child:
        child(args.child)
        return 0
    return run(args.players, args.tournaments, args.matches, args.seed)


if __name__ == "__main__":
    sys.exit(main())
