"""A 512-player Swiss round drawn through the API, on the local stack (DynamoDB Local).

Targets: the draw request itself makes at most ceil(matches / 25) + 5 DynamoDB
calls and answers within 2 s. The field (512 accounts, registrations and check-ins) and the
draw go through the functions' handlers, run in this process exactly as Lambda calls them,
against the stack's DynamoDB Local and bus, so its DynamoDB calls can be counted with
botocore's hooks. Round 2 is drawn too (after round 1's results are made official directly in
the table), which adds reading the earlier results. Also printed: how long until every player
of round 1 has been called (the `MatchesCalled` event's work: SMS, in-app notes, schedules).
"""

from __future__ import annotations

import math
import os
import tempfile
import threading
import time
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from tavla.rules.results import Result
from tavla.rules.states import State

PLAYERS = 512
ORGANISER = "bench-organiser"
SECONDS_TARGET = 2.0


@cache
def _api() -> Any:
    from tests.service.conftest import Api

    return Api()


def _call(method: str, template: str, user: str, groups: tuple[str, ...] = (), **request: Any) -> Any:
    reply = _api().call(method, template, user=user, groups=groups, **request)
    if reply.status >= 300:
        raise RuntimeError(f"{method} {template}: {reply.status} {reply.body}")
    return reply.body


def _enter_field() -> str:
    """512 accounts, registrations and check-ins through the same handlers, called in process."""
    from tests.service.helpers import tournament_body

    body = tournament_body(capacity=PLAYERS, format="swiss", swiss_rounds=5, name="Bench Swiss")
    tid = str(_call("POST", "/tournaments", ORGANISER, ("organisers",), body=body)["id"])
    _call("POST", "/players", ORGANISER, body={"name": "Bench Organiser"})
    params = {"tournament_id": tid}
    for i in range(PLAYERS):
        user = f"bench-player-{i}"
        # SMS only for those who chose it (no phone here takes push): every player does
        profile = {
            "name": f"Player {i}",
            "club": f"Club {i % 40}",
            "phone": f"+3069{i:08d}",
            "sms_opt_in": True,
        }
        tavla_id = _call("POST", "/players", user, body=profile)["tavla_id"]
        _call("POST", "/tournaments/{tournament_id}/registrations", user, params=params)
        _call(
            "POST",
            "/tournaments/{tournament_id}/checkins",
            ORGANISER,
            params=params,
            body={"tavla_id": tavla_id},
        )
    return tid


def _counted(action: Any) -> tuple[Any, int, float]:
    """Run `action`; its DynamoDB calls (printed with their durations) and its wall time."""
    from tavla.store.dynamo import client

    calls: list[tuple[str, float]] = []
    started_at: dict[tuple[int, str], float] = {}  # (thread, operation) -> start: batches run in parallel

    def before(event_name: str, **_: Any) -> None:
        started_at[(threading.get_ident(), event_name.rsplit(".", 1)[-1])] = time.perf_counter()

    def after(event_name: str, **_: Any) -> None:
        operation = event_name.rsplit(".", 1)[-1]
        calls.append((operation, time.perf_counter() - started_at.pop((threading.get_ident(), operation))))

    events = client().meta.events
    events.register("before-call.dynamodb.*", before)
    events.register("after-call.dynamodb.*", after)
    started = time.perf_counter()
    try:
        result = action()
    finally:
        events.unregister("before-call.dynamodb.*", before)
        events.unregister("after-call.dynamodb.*", after)
    total = time.perf_counter() - started
    spent: dict[str, list[float]] = {}
    for name, seconds in calls:
        spent.setdefault(name, []).append(seconds)
    print(
        "  DynamoDB: "
        + ", ".join(f"{name} x{len(t)} {sum(t) * 1000:.0f} ms" for name, t in spent.items())
        + " (parallel batches overlap)",
        flush=True,
    )
    return result, len(calls), total


def _draw_in_process(tid: str) -> Any:
    return _api().call(
        "POST", "/tournaments/{tournament_id}/rounds", params={"tournament_id": tid}, user=ORGANISER
    )


def _make_round_official(tid: str) -> None:
    from tavla.store import draws as draw_store

    records = draw_store.fixtures(draw_store.day(tid, with_rounds=False).tournament, 99)
    official = []
    for r in records:
        if r.state in ("called", "queued") and r.home and r.away:
            result = {"winner": r.home, "home_points": r.length, "away_points": 1, "how": "score"}
            official.append(replace(r, state=State.OFFICIAL, result=Result.from_json(result)))
    draw_store.write_fixtures(official)


def _wait_until_called(stack: Any, started: float, players: int, limit: float = 300.0) -> float | None:
    while time.perf_counter() - started < limit:
        stack.drain()
        if len(stack.sms()) >= players:
            return time.perf_counter() - started
        time.sleep(0.5)
    return None


def main() -> int:
    from local.env import handler_environment
    from tests.e2e.conftest import Stack
    from tests.service.conftest import reset_clients

    stack = Stack(Path(tempfile.mkdtemp(prefix="bench-draw-")), workers=4).start()
    failed = False
    try:
        os.environ.update(handler_environment(stack.endpoints["DynamoDB Local"], stack.endpoints["moto"]))
        os.environ["POWERTOOLS_METRICS_DISABLED"] = "true"  # the figures, not the EMF lines, on stdout
        reset_clients()  # clients cached by an earlier benchmark point at its moto
        entered = time.perf_counter()
        tid = _enter_field()
        print(f"field of {PLAYERS} entered in {time.perf_counter() - entered:.1f} s", flush=True)
        for number in (1, 2):
            reply, calls, seconds = _counted(lambda: _draw_in_process(tid))
            if reply.status != 201:
                raise RuntimeError(f"draw {number}: {reply.status} {reply.body}")
            matches = len(reply.body["pairings"])
            target = math.ceil(matches / 25) + 5
            ok = calls <= target and seconds <= SECONDS_TARGET
            failed |= not ok
            print(
                f"Swiss round {number} of {PLAYERS}: {matches} matches, {calls} DynamoDB calls "
                f"(target <= {target}), {seconds:.2f} s (target <= {SECONDS_TARGET:.0f} s) "
                f"{'ok' if ok else 'MISSED'}",
                flush=True,
            )
            if number == 1:
                called = _wait_until_called(stack, time.perf_counter() - seconds, PLAYERS)
                shown = f"{called:.1f} s" if called is not None else "not within 300 s"
                print(f"every player of round 1 called (SMS sent) {shown} after the draw began", flush=True)
                _make_round_official(tid)
    finally:
        stack.stop()
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
