"""Events written with their change survive the bus being down (local stack over HTTP).

With the bus refusing every put (`POST /dev/bus`), a confirmation and a withdrawal still
answer 2xx: their events wait in the outbox. Once the bus is back, the table call (R6.2), its
no-show deadline (R6.3) and the promotion notice (R3.2) arrive, each once.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import boto3
import requests

from local.env import REGION, SCHEDULER_GROUP
from tests.e2e.client import Client, players, tournament
from tests.e2e.day import checked_in_field


@contextmanager
def _bus_down(stack: Any) -> Iterator[None]:
    """The bus refusing every put for the duration of a `with` block."""
    url = f"{stack.url}/dev/bus"
    assert requests.post(url, json={"refuse": True}, timeout=10).json() == {"refusing": True}
    try:
        yield
    finally:
        assert requests.post(url, json={"refuse": False}, timeout=10).json() == {"refusing": False}


def _kinds(client: Client, user: str) -> list[str]:
    return [n["kind"] for n in client.call("GET", "/me/notifications", user=user).body]


def _deadlines(stack: Any, tournament_id: str) -> list[str]:
    scheduler = boto3.client(
        "scheduler",
        endpoint_url=stack.endpoints["moto"],
        region_name=REGION,
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )
    listed = scheduler.list_schedules(GroupName=SCHEDULER_GROUP)["Schedules"]
    return [s["Name"] for s in listed if tournament_id in s["Name"]]


def test_with_the_bus_down_changes_succeed_and_their_events_arrive_once_it_is_back(stack: Any) -> None:
    """R3.2, R6.2, R6.3: a confirmation and a withdrawal answer 2xx while the bus refuses every
    put; nothing is told meanwhile; once the bus is back the newly called players hear their
    table, the no-show deadline is scheduled and the promoted player is told, each once."""
    client = Client(stack)
    organiser = "org-outbox"
    day, user_of = checked_in_field(client, organiser, "outbox", 4, tables=1)
    drawn = client.call("POST", f"/tournaments/{day}/rounds", user=organiser, groups=("organisers",))
    assert drawn.status == 201, drawn.body
    stack.drain()
    first, queued = sorted(drawn.body["pairings"], key=lambda p: p["state"] != "called")[:2]
    assert (first["state"], queued["state"]) == ("called", "queued"), drawn.body  # one table
    code = queued["id"].split(".", 1)[1]
    waiting_users = [user_of[queued[side]["tavla_id"]] for side in ("home", "away")]

    # a waiting list elsewhere: capacity 2, three entered
    listed = tournament(client, organiser, capacity=2)
    entrants = players(client, "outbox-list", 3)
    for user in entrants:
        assert client.call("POST", f"/tournaments/{listed}/registrations", user=user).status == 201
    leaver, _, promoted = list(entrants)

    with _bus_down(stack):
        score = {"home_points": 7, "away_points": 3}
        confirmed = client.call("POST", f"/matches/{first['id']}/confirm", score, user=organiser)
        assert confirmed.status == 200, confirmed.body
        withdrawn = client.call("DELETE", f"/tournaments/{listed}/registrations/me", user=leaver)
        assert withdrawn.status == 200 and withdrawn.body["promoted"] == entrants[promoted], withdrawn.body
        stack.drain()  # the bus refuses: everything stays in the outbox
        assert [_kinds(client, u) for u in waiting_users] == [[], []]
        assert _kinds(client, promoted) == []
        assert [n for n in _deadlines(stack, day) if code in n] == []

    stack.drain()
    stack.drain()  # a second pass finds nothing more to send
    assert [_kinds(client, u) for u in waiting_users] == [["table_call"], ["table_call"]]
    assert _kinds(client, promoted) == ["promoted"]
    assert len([n for n in _deadlines(stack, day) if code in n]) == 1, _deadlines(stack, day)
    # nothing of these two tournaments parked (the stack is shared: other tests park on purpose)
    parked = requests.get(f"{stack.url}/dev/dead-letters", timeout=10).json()["parked"]
    assert [p for p in parked if day in json.dumps(p) or listed in json.dumps(p)] == []
