"""Adjourned matches and breaks over HTTP on a local stack of its own (its clock moves): a match
adjourned with the photo of its position, resumed at another table from the same score; a cnb
break overrun that costs a penalty point by the schedule alone (R7.6, R7.7)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import requests

from tests.e2e.client import Client, players, tournament
from tests.e2e.day import checked_in_field


def _match(client: Client, tid: str, code: str) -> dict[str, Any]:
    reply = client.call("GET", f"/matches/{tid}.{code}")
    assert reply.status == 200, reply.body
    return dict(reply.body)


def cnb_pair_at_table(
    client: Client, stack: Any, prefix: str, **settings: Any
) -> tuple[str, dict[str, Any], dict[str, str]]:
    """A cnb page of two players (`settings`: more of the page's) drawn, both at their table:
    (its id, the match as drawn, user by Tavla ID)."""
    org = f"org-{prefix}"
    tid = tournament(client, org, capacity=2, rule_profile="cnb", **settings)
    entrants = players(client, prefix, 2)
    for user, tavla_id in entrants.items():
        assert client.call("POST", f"/tournaments/{tid}/registrations", user=user).status == 201
        reply = client.call("POST", f"/tournaments/{tid}/checkins", {"tavla_id": tavla_id}, user=org)
        assert reply.status == 200, reply.body
    assert client.call("POST", f"/tournaments/{tid}/rounds", user=org, groups=("organisers",)).status == 201
    stack.drain()
    [match] = [m for m in client.call("GET", f"/tournaments/{tid}/rounds/1").body["pairings"] if m["home"]]
    by_id = {t: u for u, t in entrants.items()}
    for side in ("home", "away"):
        user = by_id[match[side]["tavla_id"]]
        assert (
            client.call("POST", f"/matches/{match['id']}/presence", {"present": True}, user=user).status
            == 200
        )
    return tid, match, by_id


def away_overruns_a_break(
    client: Client, stack: Any, tid: str, match: dict[str, Any], user: str
) -> dict[str, Any]:
    """Away (`user`) takes their cnb break (one each) and is not back: nothing is owed 4:50 past
    its end, a point falls due at 5:00 by the schedule alone. The match after it."""
    before = _match(client, tid, match["code"])["score"]
    started = client.call("POST", f"/matches/{match['id']}/breaks", {}, user=user)
    assert started.status == 200, started.body
    shown = _match(client, tid, match["code"])["breaks"]
    assert (shown["left"], shown["running"]) == ({"home": 1, "away": 0}, ["away"])
    stack.advance(9 * 60 + 50)  # 4:50 over the break: still nothing owed
    assert _match(client, tid, match["code"])["score"] == before
    stack.advance(15)
    stack.drain()
    return _match(client, tid, match["code"])


def test_an_adjourned_match_resumes_at_another_table_and_an_overrun_break_costs_a_point(
    fresh_stack_factory,
) -> None:
    stack = fresh_stack_factory()
    client = Client(stack)
    organiser = "org-adjourn"
    tid, user_of = checked_in_field(client, organiser, "adjourn", 8, tables=3)
    assert (
        client.call("POST", f"/tournaments/{tid}/rounds", user=organiser, groups=("organisers",)).status
        == 201
    )
    stack.drain()
    first = _match(client, tid, "main.R1.1")
    home, away = first["home"]["tavla_id"], first["away"]["tavla_id"]
    for who in (home, away):
        assert (
            client.call(
                "POST", f"/matches/{first['id']}/presence", {"present": True}, user=user_of[who]
            ).status
            == 200
        )
    game = {"version": _match(client, tid, "main.R1.1")["version"], "game": {"winner": away}}
    assert client.call("PUT", f"/matches/{first['id']}/score", game, user=user_of[away]).status == 200

    # the referee photographs the position from the phone, straight into the private store
    form = client.call(
        "POST", f"/matches/{first['id']}/adjournment-photo", {"content_type": "image/jpeg"}, user=organiser
    )
    assert form.status == 200, form.body
    upload = requests.post(
        form.body["url"], data=form.body["fields"], files={"file": ("p.jpg", b"\xff\xd8jpeg")}, timeout=30
    )
    assert upload.status_code in (200, 201, 204), upload.text
    resume_by = datetime.fromisoformat(stack.now()) + timedelta(hours=3)
    body = {
        "reason": "The hall closes",
        "resume_by": resume_by.isoformat(),
        "cube_value": 2,
        "cube_owner": "away",
        "clock_home": 700,
        "clock_away": 655,
        "photo": form.body["key"],
    }
    adjourned = client.call("POST", f"/matches/{first['id']}/adjourn", body, user=organiser)
    assert adjourned.status == 200, adjourned.body
    stack.drain()
    assert _match(client, tid, "main.R1.4")["table"] == 1  # the queued match takes its table
    link = client.call("GET", f"/matches/{first['id']}/adjournment-photo", user=user_of[home])
    assert link.status == 200 and requests.get(link.body["url"], timeout=30).content == b"\xff\xd8jpeg"
    outsider = next(u for t, u in user_of.items() if t not in (home, away))
    assert client.call("GET", f"/matches/{first['id']}/adjournment-photo", user=outsider).status == 403

    assert client.call("POST", f"/matches/{first['id']}/resume", user=organiser).status == 200
    assert _match(client, tid, "main.R1.1")["state"] == "queued"  # every table is taken
    second = _match(client, tid, "main.R1.2")
    done = client.call(
        "POST", f"/matches/{second['id']}/confirm", {"home_points": 7, "away_points": 0}, user=organiser
    )
    assert done.status == 200, done.body
    stack.drain()
    resumed = _match(client, tid, "main.R1.1")
    assert (resumed["state"], resumed["table"], resumed["score"]) == ("called", 2, [0, 1])
    assert (resumed["adjournment"]["cube_value"], resumed["adjournment"]["clock_home"]) == (2, 700)
    game = {"version": resumed["version"], "game": {"winner": home}}
    assert client.call("PUT", f"/matches/{first['id']}/score", game, user=user_of[home]).body["score"] == [
        1,
        1,
    ]

    # cnb, 9 points: one break each; the break ends at +5 min, a point falls due 5 minutes later
    nine = {"default": 9, "semi_final": 9, "final": 9}
    cnb, match, by_id = cnb_pair_at_table(client, stack, "breaks", match_lengths=nine)
    h, a = match["home"]["tavla_id"], match["away"]["tavla_id"]
    game = {"version": _match(client, cnb, match["code"])["version"], "game": {"winner": h}}
    assert client.call("PUT", f"/matches/{match['id']}/score", game, user=by_id[h]).status == 200
    after = away_overruns_a_break(client, stack, cnb, match, by_id[a])
    assert (after["score"], after["breaks"]["overrun_points"]) == ([2, 0], {"away": 1}), after
