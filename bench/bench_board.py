"""The venue board under watch: a 64-player single elimination mid-day.

Set-up on in-process moto: a tournament, its field of 64 as the first draw fixes it (written
as the draw would find it: registering and checking in 64 players through moto's
transactions takes minutes and is bench_calls' business), the draw through the API, half of
round 1 made official and 8 matches being played through `services.progress.settle`. Then
GET /tournaments/{id}/board:
- DynamoDB calls per request (target <= 3: tournament + field + tables, rounds, matches), and
  the same for the standings;
- p50 / p95 over 1,000 requests (200 unless BENCH_FULL=1) through the whole handler with
  DynamoDB's answers replayed as recorded on moto: the function's own work (routing, rules,
  models, JSON, ETag), which is what a Lambda bills beyond DynamoDB's few milliseconds per call;
- p50 / p95 over 50 requests (20) against moto itself (moto's in-process DynamoDB dominates them:
  they compare versions of this code, they do not predict the cloud);
- the body's size, raw and gzipped, and a 304's time (If-None-Match with the ETag).
"""

from __future__ import annotations

import gzip
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from botocore.client import BaseClient

from bench import size
from bench.bench_calls import _aws, _count
from bench.typical_requests import Answer, _recording
from tavla.rules.states import State

PLAYERS = 64
REQUESTS = size(200, 1_000)
ON_MOTO = size(20, 50)
NOT_MODIFIED = size(50, 100)
TARGET_CALLS = 3


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def _timed(action: Callable[[], Any], times: int) -> list[float]:
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def fixed_field(tournament_id: str, players: int) -> None:
    """The field of `players` written as the first draw fixes it (the service tests' helper)."""
    from tests.service.day_helpers import fixed_field as write_field

    write_field(tournament_id, players)


def _field(api: Any) -> str:
    """A tournament and its field of 64, as the first draw leaves it."""
    from tests.service.helpers import create_tournament

    tournament_id = create_tournament(api, capacity=PLAYERS, tables=24)
    fixed_field(tournament_id, PLAYERS)
    return tournament_id


def _mid_day(api: Any) -> str:
    """Drawn; 16 of round 1's 32 matches official; 8 being played (2-1, both players present)."""
    from tavla.services import progress
    from tavla.store import draws as draw_store
    from tavla.store.records import FixtureRecord
    from tests.service.board_helpers import NOW, settle
    from tests.service.day_helpers import draw

    tournament_id = _field(api)
    assert draw(api, tournament_id).status == 201
    for i in range(1, 17):
        settle(tournament_id, f"main.R1.{i}", i % 2 == 0, 7, 3)

    def live(match: FixtureRecord, _: progress.DayView) -> FixtureRecord:
        present = {"home": NOW.isoformat(), "away": NOW.isoformat()}
        return replace(match, state=State.PLAYING, present=present, score=(2, 1))

    called = [
        r.code
        for r in draw_store.fixtures(draw_store.day(tournament_id, with_rounds=False).tournament, 1)
        if r.state == "called"
    ]
    for code in called[:8]:
        progress.settle(tournament_id, code, live, lambda a, b: [], NOW)
    return tournament_id


@contextmanager
def _replaying(answers: list[Answer]) -> Iterator[None]:
    """AWS answers given back in the order they were recorded, request after request."""
    original = getattr(BaseClient, "_make_api_call")  # noqa: B009
    position = [0]

    def replay(client: BaseClient, operation: str, params: dict[str, Any]) -> Any:
        _, recorded_operation, response = answers[position[0] % len(answers)]
        assert recorded_operation == operation, (recorded_operation, operation)
        position[0] += 1
        return response

    setattr(BaseClient, "_make_api_call", replay)  # noqa: B010
    try:
        yield
    finally:
        setattr(BaseClient, "_make_api_call", original)  # noqa: B010


def main() -> int:
    with _aws():
        from tests.service.board_helpers import raw_call
        from tests.service.conftest import Api

        api = Api()
        started = time.perf_counter()
        tournament_id = _mid_day(api)
        print(f"set-up: {PLAYERS} players mid-day in {time.perf_counter() - started:.1f} s")
        params = {"tournament_id": tournament_id}
        board = "/tournaments/{tournament_id}/board"

        def get_board() -> dict[str, Any]:
            answer = raw_call(api, "GET", board, params=params)
            assert answer["statusCode"] == 200, answer
            return answer

        calls = _count(get_board)
        standings_calls = _count(
            lambda: raw_call(api, "GET", "/tournaments/{tournament_id}/standings", params=params)
        )
        answers: list[Answer] = []
        with _recording(answers):
            first = get_board()
        body = first["body"].encode()
        tag = first["headers"]["ETag"]
        on_moto = _timed(get_board, ON_MOTO)
        with _replaying(answers):
            own = _timed(get_board, REQUESTS)
            not_modified = _timed(
                lambda: raw_call(api, "GET", board, params=params, headers={"If-None-Match": tag}),
                NOT_MODIFIED,
            )
    verdict = f"(target <= {TARGET_CALLS})" if calls <= TARGET_CALLS else f"MISSED > {TARGET_CALLS}"
    print(f"dynamodb calls GET board ({PLAYERS} players, mid-day)  {calls}  {verdict}")
    print(f"dynamodb calls GET standings                     {standings_calls}")
    print(f"board body: {len(body):,} bytes, {len(gzip.compress(body)):,} gzipped")
    print(
        f"GET board x{REQUESTS}, DynamoDB answers replayed: p50 {statistics.median(own):.1f} ms, "
        f"p95 {_percentile(own, 0.95):.1f} ms"
    )
    print(
        f"GET board x{ON_MOTO} on in-process moto: p50 {statistics.median(on_moto):.1f} ms, "
        f"p95 {_percentile(on_moto, 0.95):.1f} ms"
    )
    print(f"GET board answered 304 (If-None-Match), replayed: p50 {statistics.median(not_modified):.1f} ms")
    return 0 if calls <= TARGET_CALLS else 1


if __name__ == "__main__":
    raise SystemExit(main())
