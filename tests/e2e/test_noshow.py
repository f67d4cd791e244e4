"""No-show over HTTP on the local stack (R6.1, R6.3): the deadline schedule fires by `/dev/clock`."""

from __future__ import annotations

from datetime import datetime

from tests.e2e.client import Client, drawn_platform_day


def test_platform_forfeits_the_absent_player_when_the_platform_clock_passes_ten_minutes(stack) -> None:
    """R6.1, R6.3: the call schedules the deadline; the present player is never forfeited; the
    absent one is, 7-0, once the platform clock passes the call + 10 minutes, not before."""
    client = Client(stack)
    organiser = "org-noshow"
    tid, field, drawn = drawn_platform_day(client, organiser, "noshow", 2)
    assert drawn.status == 201, drawn.body
    stack.drain()  # MatchesCalled -> tablecall (the deadline schedule) and notify (the calls)
    match = drawn.body["pairings"][0]
    user_of = {t: u for u, t in field.items()}
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
