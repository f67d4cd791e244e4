"""No-show over HTTP on the local stack (R6.1, R6.3): the deadline schedule fires by `/dev/clock`."""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Any

from local.aws import client as aws_client
from local.env import SCHEDULER_GROUP
from tests.e2e.client import Client
from tests.e2e.conftest import Stack
from tests.e2e.day import checked_in_field


def test_platform_forfeits_the_absent_player_when_the_platform_clock_passes_ten_minutes(stack) -> None:
    """R6.1, R6.3: the call schedules the deadline; the present player is never forfeited; the
    absent one is, 7-0, once the platform clock passes the call + 10 minutes, not before."""
    client = Client(stack)
    organiser = "org-noshow"
    tid, user_of = checked_in_field(client, organiser, "noshow", 2)
    drawn = client.call("POST", f"/tournaments/{tid}/rounds", user=organiser, groups=("organisers",))
    assert drawn.status == 201, drawn.body
    stack.drain()  # MatchesCalled -> tablecall (the deadline schedule) and notify (the calls)
    match = drawn.body["pairings"][0]
    home, away = match["home"]["tavla_id"], match["away"]["tavla_id"]
    for user in (user_of[home], user_of[away]):
        feed = client.call("GET", "/me/notifications", user=user).body
        assert [n["kind"] for n in feed] == ["table_call"], feed
    present = client.call("POST", f"/matches/{match['id']}/presence", {"present": True}, user=user_of[home])
    assert present.status == 200, present.body

    def state() -> dict:
        pairings = client.call("GET", f"/tournaments/{tid}/rounds/1").body["pairings"]
        return next(p for p in pairings if p["id"] == match["id"])

    called = datetime.fromisoformat(match["called_at"])
    to_deadline = (called - datetime.fromisoformat(stack.now())).total_seconds() + 600
    stack.advance(to_deadline - 5)
    assert state()["state"] == "called"
    stack.advance(7)
    stack.drain()
    decided = state()
    assert decided["state"] == "official", decided
    assert decided["result"]["how"] == "noshow"
    assert (decided["result"]["winner"], decided["result"]["home_points"]) == (home, 7)


def _deadline_schedules(stack: Stack, tid: str) -> list[dict[str, Any]]:
    """The no-show schedules of tournament `tid` as Scheduler holds them (to fire them again)."""
    scheduler = aws_client("scheduler", stack.endpoints["moto"])
    names = [s["Name"] for s in scheduler.list_schedules(GroupName=SCHEDULER_GROUP)["Schedules"]]
    found = [scheduler.get_schedule(Name=n, GroupName=SCHEDULER_GROUP) for n in names]
    return [s for s in found if json.loads(s["Target"]["Input"]).get("tournament_id") == tid]


def _fire_again(stack: Stack, schedule: dict[str, Any]) -> None:
    """Scheduler delivers at least once: the same schedule's event a second time."""
    name = f"again-{uuid.uuid4().hex[:20]}"
    aws_client("scheduler", stack.endpoints["moto"]).create_schedule(
        Name=name,
        GroupName=SCHEDULER_GROUP,
        ScheduleExpression=schedule["ScheduleExpression"],
        ScheduleExpressionTimezone=schedule.get("ScheduleExpressionTimezone", "UTC"),
        FlexibleTimeWindow={"Mode": "OFF"},
        ActionAfterCompletion="DELETE",
        Target=schedule["Target"],
    )
    stack.tick()
    stack.drain()
    left = aws_client("scheduler", stack.endpoints["moto"]).list_schedules(GroupName=SCHEDULER_GROUP)
    assert name not in [s["Name"] for s in left["Schedules"]], "the copy did not fire (or failed)"


def test_a_deadline_an_hour_late_and_again_forfeits_once_and_never_a_started_match(stack: Stack) -> None:
    """R6.1, R6.3: the deadline schedule fires an hour late, then a second time: the absent
    player is forfeited once; the match whose players came and started is never touched."""
    client = Client(stack)
    organiser = "org-noshow-late"
    tid, user_of = checked_in_field(client, organiser, "noshow-late", 4)
    drawn = client.call("POST", f"/tournaments/{tid}/rounds", user=organiser)
    assert drawn.status == 201, drawn.body
    stack.drain()  # MatchesCalled -> the deadline schedules
    absent, started = (m for m in drawn.body["pairings"] if m["state"] == "called")
    schedules = _deadline_schedules(stack, tid)
    assert schedules, "the call scheduled no deadline"
    there = absent["home"]["tavla_id"]
    assert (
        client.call(
            "POST", f"/matches/{absent['id']}/presence", {"present": True}, user=user_of[there]
        ).status
        == 200
    )
    for side in ("home", "away"):
        player = user_of[started[side]["tavla_id"]]
        reply = client.call("POST", f"/matches/{started['id']}/presence", {"present": True}, user=player)
        assert reply.status == 200, reply.body
    version = client.call("GET", f"/matches/{started['id']}").body["version"]
    game = {"version": version, "game": {"winner": started["home"]["tavla_id"]}}
    assert (
        client.call(
            "PUT", f"/matches/{started['id']}/score", game, user=user_of[game["game"]["winner"]]
        ).status
        == 200
    )

    def now(match: dict[str, Any]) -> dict[str, Any]:
        return dict(client.call("GET", f"/matches/{match['id']}").body)

    before = now(started)
    assert before["state"] == "playing", before
    stack.advance(70 * 60)  # the deadline (call + 10 min) fires an hour late
    stack.drain()
    forfeited = now(absent)
    assert (forfeited["state"], forfeited["result"]["how"], forfeited["result"]["winner"]) == (
        "official",
        "noshow",
        there,
    )
    for schedule in schedules:  # every deadline delivered once more
        _fire_again(stack, schedule)
    assert now(absent) == forfeited
    assert now(started) == before
    trail = client.call("GET", f"/tournaments/{tid}/audit?limit=500", user=organiser).body["records"]
    forfeits = [r["details"] for r in trail if r["action"] == "noshow_forfeit"]
    assert [f["code"] for f in forfeits] == [absent["code"]], forfeits
