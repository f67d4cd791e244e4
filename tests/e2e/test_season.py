"""A season from its opening to its Super Final over HTTP, on the platform clock (R10.4, R5.7).

One tournament of four players fills the season; the clock passes its end date and the
season's schedule closes it; the invited answer (an accept, a decline, a deadline missed) and
the seats pass down the frozen list; the final is created from those who accepted, with
their starting lives by season place, drawn and played as a lives event, and its winner is
the season's champion.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from local.aws import client as aws_client
from local.env import SCHEDULER_GROUP
from tests.e2e.client import Client, until
from tests.e2e.conftest import Stack
from tests.e2e.day import played_in_season

ATHENS = ZoneInfo("Europe/Athens")
ADMIN = ("admins",)
FED = "e2e-federation"  # the federation's admin: sets the season, organises its final


def _deadlines(stack: Stack, season_id: str) -> set[str]:
    """The invited players whose reply-deadline schedule Scheduler holds."""
    scheduler = aws_client("scheduler", stack.endpoints["moto"])
    names = [s["Name"] for s in scheduler.list_schedules(GroupName=SCHEDULER_GROUP)["Schedules"]]
    found = set()
    for name in names:
        payload = json.loads(scheduler.get_schedule(Name=name, GroupName=SCHEDULER_GROUP)["Target"]["Input"])
        target = payload.get("invitation_deadline") or {}
        if target.get("season_id") == season_id:
            found.add(str(target["tavla_id"]))
    return found


def test_a_season_opens_is_played_closes_by_its_schedule_and_crowns_its_super_final_champion(
    fresh_stack_factory: Callable[..., Stack],
) -> None:
    """R10.4, R5.7: a running season counts a finished tournament; at the end of its end date
    (venue time) its schedule closes it and invites the two leaders; an accept holds (its
    deadline's schedule deleted), a decline passes the seat to the first reserve, whose missed
    deadline passes it to the next; the final is created from the two who accepted with lives
    by season place (2 for the leader, 1 for the other): the leader loses the first match and
    still plays a second, wins it, and is the season's champion.

    Its own stack: the clock moves two days on, which the session's stack shares with tests
    that date their tournaments by the wall clock."""
    stack = fresh_stack_factory()
    client = Client(stack)
    run = uuid.uuid4().hex[:6]
    season = f"e2e-season-{run}"
    today = datetime.fromisoformat(stack.now()).astimezone(ATHENS).date()
    body = {
        "name": f"Season {run}",
        "starts_on": (today - timedelta(days=1)).isoformat(),
        "ends_on": today.isoformat(),
        "settings": {
            "super_final_size": 2,
            "super_final_reserves": 2,
            "invitation_reply_days": 1,
            "final_lives": {"tiers": [{"up_to_place": 1, "lives": 2}], "other_lives": 1},
        },
    }
    put = client.call("PUT", f"/seasons/{season}", body, user=FED, groups=ADMIN)
    assert (put.status, put.body["status"]) == (200, "running"), put.body
    listed = client.call("GET", f"/seasons?year={today.year}").body["seasons"]
    assert season in [s["id"] for s in listed]

    # Played: one knockout of four, its season points counted off the bus.
    day, standings = played_in_season(client, f"e2e-season-{run}", season)
    order = [r["tavla_id"] for r in standings]
    assert all(r["by_tournament"] == {day.id: r["points"]} for r in standings)
    user = day.players

    # Closed by its schedule at the end of its end date: the two leaders invited.
    now = datetime.fromisoformat(stack.now())
    closes = datetime.combine(today + timedelta(days=1), datetime.min.time(), ATHENS)
    stack.advance((closes - now).total_seconds() - 60)
    assert client.call("GET", f"/seasons/{season}").body["status"] == "running"
    stack.advance(120)
    stack.drain()
    closed = client.call("GET", f"/seasons/{season}").body
    assert (closed["status"], closed["to_invite"]) == ("closed", order[:2])
    replies = lambda: client.call(  # noqa: E731
        "GET", f"/seasons/{season}/invitations/replies", user=FED, groups=ADMIN
    ).body
    assert [i["tavla_id"] for i in replies()["pending"]] == order[:2]
    assert until(lambda: _deadlines(stack, season) == set(order[:2])), _deadlines(stack, season)

    # The leader accepts (the deadline's schedule goes); the second declines: the first reserve is invited.
    mine = client.call("GET", "/me/invitations", user=user[order[0]]).body["invitations"]
    assert [(i["season_id"], i["status"], i["lives"]) for i in mine] == [(season, "pending", 2)]
    accepted = client.call("POST", f"/seasons/{season}/invitations/me/accept", user=user[order[0]])
    assert (accepted.status, accepted.body["status"]) == (200, "accepted"), accepted.body
    declined = client.call("POST", f"/seasons/{season}/invitations/me/decline", user=user[order[1]])
    assert (declined.status, declined.body["status"]) == (200, "declined"), declined.body
    stack.drain()
    assert until(lambda: _deadlines(stack, season) == {order[2]}), _deadlines(stack, season)
    feed = client.call("GET", "/me/notifications", user=user[order[2]]).body
    assert [n["kind"] for n in feed if n["kind"].startswith("super_final")] == ["super_final"], feed

    # The reserve lets the deadline pass: the seat goes to the next on the list, who accepts.
    reply_by = datetime.fromisoformat(replies()["pending"][0]["reply_by"])
    stack.advance((reply_by - datetime.fromisoformat(stack.now())).total_seconds() + 60)
    stack.drain()
    lapsed = client.call("GET", "/me/invitations", user=user[order[2]]).body["invitations"]
    assert [i["status"] for i in lapsed] == ["expired"]
    last = client.call("POST", f"/seasons/{season}/invitations/me/accept", user=user[order[3]])
    assert (last.status, last.body["status"]) == (200, "accepted"), last.body
    answers = replies()
    assert [p["tavla_id"] for p in answers["accepted"]] == [order[0], order[3]]
    assert [i["tavla_id"] for i in answers["declined"]] == [order[1]]
    assert [i["tavla_id"] for i in answers["expired"]] == [order[2]]
    assert answers["pending"] == [] and answers["reserves"] == []

    # The final: a lives event with the lives of each one's season place.
    starts = (datetime.fromisoformat(stack.now()) + timedelta(days=14)).isoformat()
    made = client.call(
        "POST",
        f"/seasons/{season}/super-final",
        {
            "venue": "Athens Hall",
            "starts_at": starts,
            "match_lengths": {"default": 3, "semi_final": 3, "final": 3},
        },
        user=FED,
        groups=ADMIN,
    )
    assert made.status == 201, made.body
    assert made.body["lives_by_player"] == {order[0]: 2, order[3]: 1}
    final = made.body["tournament_id"]
    _play_the_final(client, final, order[0], order[3])
    champion = until(lambda: client.call("GET", f"/seasons/{season}/invitations").body["champion"])
    assert champion and champion["tavla_id"] == order[0], champion


def _play_the_final(client: Client, final: str, leader: str, other: str) -> None:
    """Check both in, draw, the leader loses the first match and wins the second: the other
    player's one life is gone, the leader's second kept them in."""
    for player in (leader, other):
        checked = client.call(
            "POST", f"/tournaments/{final}/checkins", {"tavla_id": player}, user=FED, groups=ADMIN
        )
        assert checked.status == 200, checked.body
    for number, winner in ((1, other), (2, leader)):
        drawn = client.call("POST", f"/tournaments/{final}/rounds", user=FED, groups=ADMIN)
        assert drawn.status == 201, drawn.body
        [match] = client.call("GET", f"/tournaments/{final}/rounds/{number}").body["pairings"]
        home = match["home"]["tavla_id"]
        length = match["length"]
        score = {
            "home_points": length if winner == home else 0,
            "away_points": 0 if winner == home else length,
        }
        confirmed = client.call("POST", f"/matches/{match['id']}/confirm", score, user=FED, groups=ADMIN)
        assert confirmed.status == 200, confirmed.body
    done = client.call("POST", f"/tournaments/{final}/rounds", user=FED, groups=ADMIN)
    assert (done.status, done.error) == (409, "nothing_to_draw"), done.body
    finished = client.call("POST", f"/tournaments/{final}/finish", user=FED, groups=ADMIN)
    assert finished.status == 200, finished.body
