"""A nationwide Saturday on the local stack: many knockouts played at once over HTTP.

`--tournaments` knockouts of `--players` (default 20 of 64; `make bench`: 20 of 16) are
entered, then played at the same moment through the local stack's HTTP API (loopback only):
each tournament's referee table (one thread) draws, then reports and confirms every match as
it is called (every fourth board both players report first, as in tests/e2e/day.py), while
board readers (one per two tournaments, a phone polling every `--poll` s) read the boards.
A 503 is retried after its Retry-After, as a phone does, and counted. Then the same for one
tournament alone, and the ratio.

Checked at the end: no 5xx but the counted 503s; every match official, confirmed exactly once
(the audit trail); after each tournament is finished and the bus drained, each player's
`rated_matches` is the number of matches they played (ratings not doubled).
Printed: p50 / p95 of a confirmation, a report, a board read and a draw; wall time.
Bounded: `--budget` seconds for the whole run (setup included); past it the run stops and fails.

    PYTHONPATH=shared:. .venv/bin/python -m bench.bench_saturday --tournaments 20 --players 64
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from bench import FULL

SEVEN_POINTS = {"default": 7, "semi_final": 7, "final": 7}
# what `make bench` runs: 20 at once still, fields small enough for a loaded 2-core machine
# (20 x 64 took over 20 min there: 5-7 min to enter 1,344 players, ~10 min for the Saturday;
# run it with the flags above when the machine is free)
SMALL = ["--tournaments", "20", "--players", "16"]


class OutOfTime(Exception):
    """The run went past its budget."""


@dataclass
class Recorder:
    """Latencies by kind of request and every status answered (thread-safe)."""

    deadline: float
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter[int] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, kind: str, seconds: float, status: int) -> None:
        with self.lock:
            self.latencies[kind].append(seconds)
            self.statuses[status] += 1

    def check_time(self) -> None:
        if time.monotonic() > self.deadline:
            raise OutOfTime


class Http:
    """JSON over one keep-alive session per thread, tokens minted once per user."""

    def __init__(self, url: str, recorder: Recorder) -> None:
        self.url, self.recorder = url, recorder
        self._local = threading.local()
        self._tokens: dict[str, str] = {}

    def _session(self) -> requests.Session:
        if not hasattr(self._local, "session"):
            self._local.session = requests.Session()
        session: requests.Session = self._local.session
        return session

    def token(self, user: str) -> str:
        if user not in self._tokens:
            reply = self._session().post(
                f"{self.url}/dev/token", json={"user": user, "groups": ["organisers"]}
            )
            reply.raise_for_status()
            self._tokens[user] = str(reply.json()["token"])
        return self._tokens[user]

    def call(self, kind: str, method: str, path: str, body: Any = None, user: str | None = None) -> Any:
        """One request, its 503s retried after Retry-After; the body of the final answer."""
        headers = {"Authorization": f"Bearer {self.token(user)}"} if user else {}
        while True:
            self.recorder.check_time()
            started = time.perf_counter()
            reply = self._session().request(method, self.url + path, json=body, headers=headers, timeout=120)
            self.recorder.note(kind, time.perf_counter() - started, reply.status_code)
            if reply.status_code != 503:
                break
            time.sleep(float(reply.headers.get("retry-after", "1")))
        if reply.status_code >= 300:
            raise RuntimeError(f"{method} {path}: {reply.status_code} {reply.text[:300]}")
        return reply.json() if reply.content else None


@dataclass
class Tournament:
    id: str
    organiser: str
    users: dict[str, str]  # Tavla ID -> user


def enter(http: Http, name: str, players: int) -> Tournament:
    """A knockout of `players`, every player registered and checked in (setup, not measured)."""
    organiser = f"{name}-organiser"
    http.call("setup", "POST", "/players", {"name": f"Organiser {name}"}, organiser)
    body = {
        "name": f"{name} open",
        "venue": "Club house",
        "city": "Athens",
        "starts_at": "2027-06-05T09:00:00+00:00",
        "registration_closes_at": "2027-06-04T09:00:00+00:00",
        "capacity": players,
        "entry_fee": {"amount": 0, "currency": "EUR"},
        "rule_profile": "platform",
        "match_lengths": SEVEN_POINTS,
    }
    tid = str(http.call("setup", "POST", "/tournaments", body, organiser)["id"])
    users: dict[str, str] = {}
    for i in range(players):
        user = f"{name}-p{i:03d}"
        tavla_id = str(http.call("setup", "POST", "/players", {"name": f"Player {i}"}, user)["tavla_id"])
        http.call("setup", "POST", f"/tournaments/{tid}/registrations", None, user)
        http.call("setup", "POST", f"/tournaments/{tid}/checkins", {"tavla_id": tavla_id}, organiser)
        users[tavla_id] = user
    return Tournament(tid, organiser, users)


def play(http: Http, t: Tournament) -> None:
    """The referee table's day: draw, then report and confirm each called match until all are official."""
    drawn = http.call("draw", "POST", f"/tournaments/{t.id}/rounds", None, t.organiser)
    total = len(drawn["pairings"])
    done: set[str] = set()
    while len(done) < total:
        pairings = http.call("round", "GET", f"/tournaments/{t.id}/rounds/1")["pairings"]
        done = {m["id"] for m in pairings if m["state"] == "official"}
        called = [m for m in pairings if m["state"] == "called"]
        if not called and len(done) < total:
            time.sleep(0.05)  # a confirmation's table call is on its way
        for match in called:
            home, away, length = match["home"]["tavla_id"], match["away"]["tavla_id"], match["length"]
            score = {"home_points": length, "away_points": match["board"] % length}
            path = f"/matches/{match['id']}"
            if match["board"] % 4 == 1:
                for player in (home, away):
                    http.call("report", "POST", f"{path}/report", score, t.users[player])
                http.call("confirm", "POST", f"{path}/confirm", None, t.organiser)
            else:
                http.call("confirm", "POST", f"{path}/confirm", score, t.organiser)


def read_boards(
    http: Http, tournaments: list[Tournament], poll: float, stop: threading.Event, first: int
) -> None:
    i = first
    while not stop.is_set():
        http.call("board", "GET", f"/tournaments/{tournaments[i % len(tournaments)].id}/board")
        i += 1
        stop.wait(poll)


def saturday(http: Http, tournaments: list[Tournament], poll: float) -> float:
    """Every tournament played at once, boards read meanwhile; the wall time."""
    stop = threading.Event()
    readers = max(1, len(tournaments) // 2)
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=readers) as reading, ThreadPoolExecutor(len(tournaments)) as days:
        polls = [reading.submit(read_boards, http, tournaments, poll, stop, i) for i in range(readers)]
        try:
            for day in [days.submit(play, http, t) for t in tournaments]:
                day.result()
        finally:
            stop.set()
            for p in polls:
                p.result()
    return time.perf_counter() - started


def check(http: Http, tournaments: list[Tournament]) -> list[str]:
    """Every match official and confirmed once; after the finish, ratings counted once."""
    problems: list[str] = []
    played: Counter[str] = Counter()
    for t in tournaments:
        pairings = http.call("check", "GET", f"/tournaments/{t.id}/rounds/1")["pairings"]
        if any(m["state"] != "official" for m in pairings):
            problems.append(f"{t.id}: matches not official")
        trail = http.call("check", "GET", f"/tournaments/{t.id}/audit?limit=500", None, t.organiser)[
            "records"
        ]
        confirmed = Counter(r["details"].get("match") for r in trail if r["action"] == "result_confirmed")
        if confirmed != Counter(m["code"] for m in pairings):
            problems.append(f"{t.id}: confirmations {sum(confirmed.values())} for {len(pairings)} matches")
        played.update(p for m in pairings for p in (m["home"]["tavla_id"], m["away"]["tavla_id"]))
        http.call("finish", "POST", f"/tournaments/{t.id}/finish", None, t.organiser)

    def rated(tavla_id: str) -> int:
        return int(http.call("check", "GET", f"/players/{tavla_id}")["rated_matches"])

    counts: dict[str, int] = {}
    waiting = list(played)
    deadline = time.monotonic() + 300  # the ratings follow the finish on the bus
    while waiting:
        settle_bus(http.url)
        with ThreadPoolExecutor(max_workers=8) as pool:
            counts.update(zip(waiting, pool.map(rated, waiting), strict=True))
        waiting = [p for p in waiting if counts[p] < played[p]]
        if waiting and time.monotonic() > deadline:
            break
    wrong = {p: (counts[p], n) for p, n in played.items() if counts[p] != n}
    if wrong:
        sample = list(wrong.items())[:3]
        problems.append(f"{len(wrong)} players' rated_matches (rated, played) differ, e.g. {sample}")
    return problems


def settle_bus(url: str, limit: float = 600) -> None:
    """Deliver bus events until a pass delivers none (a finish sets off ratings, then more)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        reply = requests.post(f"{url}/dev/drain", timeout=limit)
        reply.raise_for_status()
        if not reply.json()["delivered"]:
            return
        time.sleep(0.5)


def p95(values: list[float]) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[94]


def figures(recorder: Recorder) -> dict[str, tuple[int, float, float]]:
    """(count, p50 ms, p95 ms) by kind of request."""
    return {
        kind: (len(values), 1000 * statistics.median(values), 1000 * p95(values))
        for kind, values in sorted(recorder.latencies.items())
        if kind in ("confirm", "report", "board", "draw")
    }


@contextmanager
def local_stack(workers: int) -> Iterator[Any]:
    from tests.e2e.conftest import Stack

    stack = Stack(Path(tempfile.mkdtemp(prefix="bench-saturday-")), workers=workers).start()
    try:
        yield stack
    finally:
        stack.stop()


def run(tournaments: int, players: int, workers: int, poll: float, budget: float) -> int:
    deadline = time.monotonic() + budget
    with local_stack(workers) as stack:
        setup = Recorder(deadline)
        http = Http(stack.url, setup)
        started = time.perf_counter()
        names = [f"sat{i:02d}" for i in range(tournaments)] + ["alone"]
        with ThreadPoolExecutor(max_workers=6) as pool:
            entered = list(pool.map(lambda n: enter(http, n, players), names))
        *many, alone = entered
        print(
            f"{len(entered)} fields of {players} entered in {time.perf_counter() - started:.0f} s", flush=True
        )

        results: dict[str, dict[str, tuple[int, float, float]]] = {}
        statuses: Counter[int] = Counter()
        for label, group in ((f"{tournaments} at once", many), ("1 alone", [alone])):
            recorder = Recorder(deadline)
            http.recorder = recorder
            wall = saturday(http, group, poll)
            results[label] = figures(recorder)
            statuses.update(recorder.statuses)
            requests_made = sum(recorder.statuses.values())
            print(
                f"{label}: {len(group)} x {players} players, {requests_made} requests in {wall:.1f} s "
                f"({requests_made / wall:.0f}/s), statuses {dict(sorted(recorder.statuses.items()))}",
                flush=True,
            )
            for kind, (count, p50, p95) in results[label].items():
                print(f"  {kind:8} n={count:5}  p50 {p50:7.0f} ms  p95 {p95:7.0f} ms", flush=True)
        http.recorder = Recorder(deadline)
        problems = check(http, entered)
    crowd, solo = results[f"{tournaments} at once"], results["1 alone"]
    for kind in ("confirm", "board"):
        if kind in crowd and kind in solo:
            print(
                f"p95 {kind}: {crowd[kind][2]:.0f} ms with {tournaments}, {solo[kind][2]:.0f} ms alone "
                f"(x{crowd[kind][2] / solo[kind][2]:.1f})"
            )
    server_errors = {s: n for s, n in statuses.items() if s >= 500}
    print(f"5xx: {server_errors or 'none'} (503s were retried after Retry-After)")
    for problem in problems:
        print(f"PROBLEM: {problem}")
    print(
        "every match official and confirmed once; ratings counted once" if not problems else "checks FAILED"
    )
    return 1 if problems or any(s != 503 for s in server_errors) else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tournaments", type=int, default=20)
    parser.add_argument("--players", type=int, default=64, help="a power of two: a knockout without byes")
    parser.add_argument("--workers", type=int, default=4, help="Lambda environments of the local stack")
    parser.add_argument("--poll", type=float, default=0.5, help="seconds between a board reader's reads")
    parser.add_argument("--budget", type=float, default=900, help="seconds for the whole run, setup included")
    args = parser.parse_args(([] if FULL else SMALL) if argv is None and __name__ != "__main__" else argv)
    try:
        return run(args.tournaments, args.players, args.workers, args.poll, args.budget)
    except OutOfTime:
        print(f"out of time: past {args.budget:.0f} s; try fewer --tournaments or --players")
        return 1


if __name__ == "__main__":
    sys.exit(main())
