"""Faults injected into DynamoDB writes on the local stack (`POST /dev/faults`), over HTTP.

The promise: a throttled or conflicting write ends in a retry or a clean 503 with Retry-After,
never in half a change. For every write of the day (draw, presence, score entry, report,
confirmation, appeal and its decision, conduct, no-show) a fault that outlasts every retry
answers 503 `busy` with Retry-After, the state read back afterwards is the state before, and
the same request sent again completes the change exactly once. A draw whose environment is
killed between its matches and its publication publishes nothing, and drawing again publishes
that round once.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

import pytest

from tavla.store.dynamo import ATTEMPTS
from tests.e2e.client import Client, Reply
from tests.e2e.conftest import Stack
from tests.e2e.day import SEVEN_POINTS, TournamentDay, checked_in_field

CONFLICT = {"kind": "conflict", "next": 4}  # the transaction's own 3 retries spent
THROTTLE = {"kind": "throttle", "next": ATTEMPTS}  # botocore's attempts spent


@pytest.fixture
def faults_off(stack: Stack) -> Iterator[None]:
    stack.faults()
    yield
    stack.faults()


def _refused_then_done(
    stack: Stack,
    fault: dict[str, Any],
    send: Callable[[], Reply],
    read: Callable[[], Any],
    done: int = 200,
) -> Reply:
    """Send under `fault`: a 503 with Retry-After and the state as it was; the fault off, the
    same request again: `done`."""
    stack.drain()  # the bus is quiet: what the fault meets is this request's writes
    before = read()
    stack.faults(**fault)
    refused = send()
    switch = stack.faults()
    assert switch["injected"] >= 1, switch
    assert (refused.status, refused.body["error"]["code"]) == (503, "busy"), refused
    assert int(refused.headers["retry-after"]) >= 1
    assert read() == before, "a refused write left part of its change behind"
    again = send()
    assert again.status == done, again.body
    return again


def _audit(client: Client, tid: str, organiser: str) -> Counter[str]:
    records = client.call("GET", f"/tournaments/{tid}/audit?limit=500", user=organiser).body["records"]
    return Counter(r["action"] for r in records)


def test_every_write_of_the_day_refused_by_a_fault_is_a_503_and_completes_once_when_sent_again(
    stack: Stack, faults_off: None
) -> None:
    """R5, R6.1, R6.3, R7.5, R8.2, R9.1, R9.3 under faults: each write of a 4-player day, its
    fault past every retry: 503 + Retry-After, nothing changed; sent again: done, once."""
    client = Client(stack)
    organiser = "org-faults-day"
    tid, user = checked_in_field(client, organiser, "faults-day", 4)

    def rounds() -> Any:
        return client.call("GET", f"/tournaments/{tid}/rounds").body

    def match(match_id: str) -> Callable[[], Any]:
        return lambda: client.call("GET", f"/matches/{match_id}").body

    # the draw: reserved, its matches written, its publication refused
    publish = {**CONFLICT, "skip": 1, "operations": ["TransactWriteItems"], "function": "draw"}
    drawn = _refused_then_done(
        stack, publish, lambda: client.call("POST", f"/tournaments/{tid}/rounds", user=organiser), rounds, 201
    )
    a, b = (m for m in drawn.body["pairings"] if m["state"] == "called")
    home, away = a["home"]["tavla_id"], a["away"]["tavla_id"]
    path = f"/matches/{a['id']}"

    _refused_then_done(
        stack,
        {**THROTTLE, "function": "presence"},
        lambda: client.call("POST", f"{path}/presence", {"present": True}, user=user[home]),
        match(a["id"]),
    )
    game = {"version": match(a["id"])()["version"], "game": {"winner": home}}
    _refused_then_done(
        stack,
        {**CONFLICT, "function": "result"},
        lambda: client.call("PUT", f"{path}/score", game, user=user[home]),
        match(a["id"]),
    )
    final = {"home_points": 7, "away_points": 1}
    _refused_then_done(
        stack,
        {**CONFLICT, "function": "result"},
        lambda: client.call("POST", f"{path}/report", final, user=user[home]),
        match(a["id"]),
    )
    assert client.call("POST", f"{path}/report", final, user=user[away]).status == 200
    _refused_then_done(
        stack,
        {**CONFLICT, "function": "result"},
        lambda: client.call("POST", f"{path}/confirm", user=organiser),
        match(a["id"]),
    )
    appeal = {"kind": "score", "statement": "The last game was a gammon, not a single."}
    lodged = _refused_then_done(
        stack,
        {**CONFLICT, "function": "appeal"},
        lambda: client.call("POST", f"{path}/appeals", appeal, user=user[away]),
        match(a["id"]),
        201,
    )
    decision = {"reasoning": "The score sheet, signed by both, says a single game.", "outcome": "dismissed"}
    _refused_then_done(
        stack,
        {**THROTTLE, "kind": "throttling", "function": "appeal"},
        lambda: client.call("POST", f"/appeals/{lodged.body['id']}/decision", decision, user=organiser),
        match(a["id"]),
    )
    leaver = b["home"]["tavla_id"]
    out = _refused_then_done(
        stack,
        {**CONFLICT, "function": "conduct"},
        lambda: client.call("POST", f"/tournaments/{tid}/withdrawals", {"tavla_id": leaver}, user=organiser),
        match(b["id"]),
        201,
    )
    assert out.body["forfeited"] == [b["id"]]

    # the final is called; the first attempt of its no-show deadline meets conflicts only
    stack.drain()
    final_match = next(m for m in _pairings(client, tid) if m["state"] == "called")
    there = final_match["home"]["tavla_id"]
    reply = client.call("POST", f"/matches/{final_match['id']}/presence", {"present": True}, user=user[there])
    assert reply.status == 200, reply.body
    # only the final's forfeit meets the faults: other tests' deadlines on this shared stack and
    # this day's earlier ones fire meanwhile (the local scheduler also ticks by itself)
    stack.faults(
        **CONFLICT, function="noshow", touching=[f"TOURNAMENT#{tid}", f"MATCH#{final_match['code']}"]
    )
    fired = stack.advance(_seconds_to_deadline(stack, final_match) + 1)["fired"]
    assert stack.faults()["injected"] == CONFLICT["next"]  # one forfeit's 4 attempts: it failed
    assert not [name for name in fired if final_match["code"] in name], fired
    for _ in range(10):  # Scheduler's retries (the local scheduler's next ticks)
        decided = match(final_match["id"])()
        if decided["state"] != "called":
            break
        stack.tick()
        stack.drain()
    assert (decided["state"], decided["result"]["how"], decided["result"]["winner"]) == (
        "official",
        "noshow",
        there,
    )

    trail = _audit(client, tid, organiser)
    assert trail["draw_reserved"] == trail["draw_published"] == 1
    assert trail["result_confirmed"] == 1 and trail["noshow_forfeit"] == 1
    assert trail["appeal_lodged"] == trail["appeal_decided"] == 1, trail
    assert [r["number"] for r in rounds()["rounds"]] == [1]
    assert client.call("POST", f"/tournaments/{tid}/finish", user=organiser).status == 200


def _pairings(client: Client, tid: str) -> list[dict[str, Any]]:
    count = len(client.call("GET", f"/tournaments/{tid}/rounds").body["rounds"])
    return [
        m
        for n in range(1, count + 1)
        for m in client.call("GET", f"/tournaments/{tid}/rounds/{n}").body["pairings"]
    ]


def _seconds_to_deadline(stack: Stack, match: dict[str, Any]) -> float:
    called = datetime.fromisoformat(match["called_at"])
    return (called - datetime.fromisoformat(stack.now())).total_seconds() + 600


def test_a_draw_killed_between_its_matches_and_its_publication_publishes_nothing_then_once(
    stack: Stack, faults_off: None
) -> None:
    """R5, R5.1: the environment dies at the publishing transaction (its matches written):
    readers see no round; drawing again publishes that round, once, its matches once."""
    client = Client(stack)
    organiser = "org-faults-kill"
    tid, _ = checked_in_field(client, organiser, "faults-kill", 8)
    stack.faults(kind="kill", next=1, skip=1, operations=["TransactWriteItems"], function="draw")
    killed = client.call("POST", f"/tournaments/{tid}/rounds", user=organiser)
    assert killed.status == 500, killed.body
    assert stack.faults()["injected"] == 1
    assert client.call("GET", f"/tournaments/{tid}/rounds").body["rounds"] == []
    assert client.call("GET", f"/tournaments/{tid}/rounds/1").status == 404
    board = client.call("GET", f"/tournaments/{tid}/board").body
    assert (board["current"], board["queue"], board["brackets"]) == ([], [], []), board
    assert not any(t.get("match") for t in board["tables"]), board["tables"]
    again = client.call("POST", f"/tournaments/{tid}/rounds", user=organiser)
    assert again.status == 201, again.body
    assert client.call("POST", f"/tournaments/{tid}/rounds", user=organiser).status == 409
    rounds = client.call("GET", f"/tournaments/{tid}/rounds").body["rounds"]
    assert [(r["number"], r["matches"]) for r in rounds] == [(1, 7)]  # the whole bracket of 8
    published = client.call("GET", f"/tournaments/{tid}/rounds/1").body["pairings"]
    assert sorted(m["code"] for m in published) == sorted({m["code"] for m in again.body["pairings"]})
    trail = _audit(client, tid, organiser)
    assert trail["draw_reserved"] == trail["draw_published"] == 1, trail


def test_a_draw_throttled_at_its_reservation_leaves_nothing_and_draws_on_the_next_call(
    stack: Stack, faults_off: None
) -> None:
    """R4.2, R5: the reservation (which also closes check-in and fixes the field) throttled past
    botocore's retries: 503, check-in still open, no round; sent again: one round."""
    client = Client(stack)
    organiser = "org-faults-reserve"
    tid, _ = checked_in_field(client, organiser, "faults-reserve", 4)

    def state() -> Any:
        summary = client.call("GET", f"/tournaments/{tid}").body
        return summary, client.call("GET", f"/tournaments/{tid}/rounds").body

    _refused_then_done(
        stack,
        {**THROTTLE, "operations": ["TransactWriteItems"], "function": "draw"},
        lambda: client.call("POST", f"/tournaments/{tid}/rounds", user=organiser),
        state,
        201,
    )
    assert [r["number"] for r in client.call("GET", f"/tournaments/{tid}/rounds").body["rounds"]] == [1]


def test_a_day_with_a_third_of_its_writes_conflicting_ends_with_every_result_official_once(
    stack: Stack, faults_off: None
) -> None:
    """R7.5, R5.5: one write in three meets a conflict (transactions, single writes, batches):
    the platform's retries absorb them or the phone retries a 503; every match official once."""
    client = Client(stack)
    day = TournamentDay(client, "faults-share", 8, rule_profile="platform", match_lengths=SEVEN_POINTS)
    day.enter_field()
    stack.drain()
    stack.faults(kind="conflict", share=0.34)
    try:
        day.run()
    finally:
        switch = stack.faults()
    # the switch fails exactly one write in three of those the day made; how many writes a
    # day of 7 matches makes depends on its retries, so the floor is one conflict per match
    assert switch["injected"] == math.floor(switch["seen"] * 0.34) >= 7, switch
    matches = day.matches()
    assert len(matches) == 7 and all(m["state"] == "official" for m in matches)
    trail = _audit(client, day.id, day.organiser)
    assert trail["result_confirmed"] == 7, trail
    assert trail["draw_published"] == 1
    day.finish()
