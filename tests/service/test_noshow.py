"""Table call and no-show (R6.1-R6.3, R7.6): deadline schedules, penalty points, forfeits.

The bus and Scheduler are played by hand: `Day.pump()` hands the `MatchesCalled` events the
services published to the `tablecall` (and `notify`) handlers, `Day.fire()` invokes `noshow`
with every schedule due by the platform clock, as EventBridge Scheduler would, and deletes it.
"""

from __future__ import annotations

import importlib
import json
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import boto3
import pytest
from moto.backends import get_backend

from tavla import clock, events
from tavla.store import draws as draw_store
from tavla.store.records import FixtureRecord
from tests.service.conftest import REGION, SCHEDULER_GROUP, Api, LambdaContext
from tests.service.day_helpers import checked_in_field, draw
from tests.service.helpers import ORGANISER, appoint_referee, bus_taking, create_player

tablecall = importlib.import_module("functions.tablecall.handler")
noshow = importlib.import_module("functions.noshow.handler")
notify = importlib.import_module("functions.notify.handler")

MATCH = "main.R1.1"


@dataclass
class Day:
    api: Api
    tournament_id: str
    players: list[str]
    published: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    pumped: int = 0  # events of `published` already delivered

    def pump(self, *, notices: bool = False) -> list[dict[str, Any]]:
        """Deliver the MatchesCalled events published since the last pump, as EventBridge would."""
        delivered = []
        while self.pumped < len(self.published):
            kind, detail = self.published[self.pumped]
            self.pumped += 1
            if kind != events.MATCHES_CALLED:
                continue
            event = bus_event(kind, detail)
            tablecall.handler(event, LambdaContext("tablecall"))
            if notices:
                notify.handler(event, LambdaContext("notify"))
            delivered.append(event)
        return delivered

    def fire(self, moment: datetime | None = None) -> list[dict[str, Any]]:
        """Invoke `noshow` with every schedule due by `moment` (default: the platform clock),
        then delete it.

        A schedule's moment is whole seconds (rounded up): what is due within that second fires.
        The second is taken from `moment`, not from the clock read later, which has moved on.
        """
        fired = []
        now = moment or clock.now()
        this_second = now.replace(microsecond=0) + (timedelta(seconds=1) if now.microsecond else timedelta())
        for schedule in schedules():
            if due(schedule) <= this_second:
                payload = json.loads(schedule["Target"]["Input"])
                noshow.handler(payload, LambdaContext("noshow"))
                scheduler().delete_schedule(Name=schedule["Name"], GroupName=SCHEDULER_GROUP)
                fired.append(payload)
        return fired

    def at(self, minutes: float, seconds: float = 0) -> list[dict[str, Any]]:
        """Move the clock to `minutes` after the call of main.R1.1, deliver and fire what is due."""
        called = datetime.fromisoformat(str(self.match().called_at))
        moment = called + timedelta(minutes=minutes, seconds=seconds)
        clock.advance(moment - clock.now())
        self.pump()
        return self.fire(moment)

    def match(self, code: str = MATCH) -> FixtureRecord:
        return next(
            r
            for r in draw_store.fixtures(draw_store.day(self.tournament_id).tournament, 99)
            if r.code == code
        )

    def side_of(self, side: str, code: str = MATCH) -> tuple[str, str]:
        """(Tavla ID, user) of `side` of match `code`."""
        tavla_id = getattr(self.match(code), side)
        return tavla_id, f"player-{self.players.index(tavla_id)}"

    def presence(self, side: str, body: dict[str, Any], user: str = ORGANISER, code: str = MATCH) -> Any:
        tavla_id, _ = self.side_of(side, code)
        return self.api.call(
            "POST",
            "/matches/{match_id}/presence",
            params={"match_id": f"{self.tournament_id}.{code}"},
            body={"tavla_id": tavla_id, **body},
            user=user,
        )


def bus_event(kind: str, detail: dict[str, Any]) -> dict[str, Any]:
    return {
        "version": "0",
        "id": str(uuid.uuid5(uuid.NAMESPACE_URL, json.dumps(detail, sort_keys=True))),
        "detail-type": kind,
        "source": "tavla",
        "time": clock.now().strftime("%Y-%m-%dT%H:%M:%SZ"),
        "detail": detail,
    }


def scheduler() -> Any:
    return boto3.client("scheduler")


def schedules() -> list[dict[str, Any]]:
    names = [s["Name"] for s in scheduler().list_schedules(GroupName=SCHEDULER_GROUP)["Schedules"]]
    return [scheduler().get_schedule(Name=n, GroupName=SCHEDULER_GROUP) for n in names]


def due(schedule: dict[str, Any]) -> datetime:
    expression = schedule["ScheduleExpression"]
    return datetime.fromisoformat(expression[3:-1] + "+00:00")


@pytest.fixture
def day(api: Api, monkeypatch: pytest.MonkeyPatch) -> Any:
    def start(players: int = 2, profile: str = "platform", **settings: Any) -> Day:
        published: list[tuple[str, dict[str, Any]]] = []
        monkeypatch.setattr(
            events, "put_on_bus", bus_taking(lambda kind, detail: published.append((kind, detail)))
        )
        lengths = {"default": 7, "semi_final": 7, "final": 7}  # 7-point matches, the final too
        settings = {"match_lengths": lengths, **settings}
        tournament_id, ids = checked_in_field(api, players, rule_profile=profile, **settings)
        assert draw(api, tournament_id).status == 201
        return Day(api, tournament_id, ids, published)

    return start


def confirmed(d: Day) -> list[dict[str, Any]]:
    return [detail for kind, detail in d.published if kind == events.RESULT_CONFIRMED]


def test_platform_forfeits_an_absent_player_at_ten_minutes_not_before(day: Any) -> None:
    """R6.1, R6.3: home at the table, away absent: still called at 9:59, forfeited 7-0 at 10:00."""
    d = day()
    d.pump()
    deadline = datetime.fromisoformat(str(d.match().called_at)) + timedelta(minutes=10)
    [schedule] = schedules()
    assert timedelta(0) <= due(schedule) - deadline < timedelta(seconds=1)  # rounded up, never early
    assert d.presence("home", {"present": True}).status == 200
    assert d.at(9, 59) == []
    assert d.match().state == "called"
    assert len(d.at(10)) == 1
    match = d.match()
    home, _ = d.side_of("home")
    assert match.state == "official"
    assert match.result is not None
    assert (match.result.winner, match.result.home_points, match.result.away_points) == (home, 7, 0)
    assert (match.result.how, match.result.forfeit) == ("noshow", True)
    assert [c["code"] for c in confirmed(d)] == [MATCH]


def test_hbf_gives_a_point_at_15_and_20_minutes_and_forfeits_past_half_the_length(day: Any) -> None:
    """R7.6 hbf, 7 points: a point at 15:00, 20:00, 25:00; the 4th (> 3.5) at 30:00 is the match."""
    d = day(profile="hbf")
    assert d.presence("home", {"present": True}).status == 200
    d.at(14, 59)
    assert d.match().late_points == {}
    for minute, points in ((15, 1), (20, 2), (25, 3)):
        assert len(d.at(minute)) == 1
        match = d.match()
        assert (match.state, dict(match.late_points)) == ("called", {"away": points}), minute
    board = d.api.call("GET", "/tournaments/{tournament_id}/board", params={"tournament_id": d.tournament_id})
    [shown] = [t["match"] for t in board.body["tables"] if t["match"] and t["match"]["code"] == MATCH]
    assert shown["score"] == [3, 0]  # the live score counts the late player's points for the opponent
    d.at(30)
    match = d.match()
    assert match.state == "official" and match.result is not None
    assert (match.result.how, match.result.away_points, match.result.home_points) == ("noshow", 0, 7)
    assert schedules() == []


def test_cnb_gives_the_first_point_at_five_minutes(day: Any) -> None:
    """R7.6 cnb: the first penalty point once 5 minutes have run out, the next at 10."""
    d = day(profile="cnb")
    assert d.presence("away", {"present": True}).status == 200
    d.at(4, 59)
    assert d.match().late_points == {}
    d.at(5)
    assert dict(d.match().late_points) == {"home": 1}
    d.at(10)
    assert dict(d.match().late_points) == {"home": 2}


def test_a_present_player_is_never_forfeited_and_the_schedule_goes(day: Any) -> None:
    """R6.3: both marked present -> the match's own deadline schedule is deleted; a late one is a no-op."""
    d = day()
    d.pump()
    payload = json.loads(schedules()[0]["Target"]["Input"])
    assert d.presence("home", {"present": True}).status == 200
    reply = d.presence("away", {"present": True})
    assert reply.status == 200 and reply.body["present"] == ["home", "away"]
    assert schedules() == []
    clock.advance(timedelta(minutes=11))
    noshow.handler(payload, LambdaContext("noshow"))
    assert d.match().state == "called" and d.match().result is None


def test_both_absent_are_flagged_for_the_referee_not_forfeited(day: Any) -> None:
    """R6.3: nobody came: flagged both_absent, no forfeit; marking one present clears the flag."""
    d = day()
    d.at(10)
    match = d.match()
    assert (match.state, match.flags, match.result) == ("called", ("both_absent",), None)
    assert d.presence("home", {"present": True}).status == 200
    assert d.match().flags == ()


def test_a_schedule_delivered_twice_forfeits_once(day: Any) -> None:
    """R6.3: at-least-once delivery: the second run finds the match decided and changes nothing."""
    d = day(profile="hbf")
    assert d.presence("away", {"present": True}).status == 200
    d.at(29)
    clock.advance(timedelta(minutes=1))
    payload = d.fire()[0]
    before = d.match()
    noshow.handler(payload, LambdaContext("noshow"))
    assert d.match() == before and before.state == "official"
    assert len(confirmed(d)) == 1
    audit = d.api.call(
        "GET", "/tournaments/{tournament_id}/audit", params={"tournament_id": d.tournament_id}, user=ORGANISER
    ).body
    records = audit["records"] if isinstance(audit, dict) else audit
    assert [r["action"] for r in records].count("noshow_forfeit") == 1


def test_matches_called_together_share_one_schedule_and_a_later_call_gets_its_own(day: Any) -> None:
    """R6.3: 8 players on 2 tables: the 2 first matches share a deadline; the next one called
    from the queue when a table frees up gets its own; delivering an event twice adds nothing."""
    d = day(players=8, tables=2)
    [event] = d.pump()
    assert len(schedules()) == 1
    assert len(json.loads(schedules()[0]["Target"]["Input"])["codes"]) == 2
    tablecall.handler(event, LambdaContext("tablecall"))  # the same event again
    assert len(schedules()) == 1
    clock.advance(timedelta(minutes=3))
    reply = d.presence("home", {"present": True}, code="main.R1.2")
    assert reply.status == 200
    d.at(10)  # R1.1: both absent (flagged); R1.2: away forfeited, its table goes to R1.3
    assert d.match("main.R1.2").state == "official"
    assert d.match("main.R1.3").state == "called"
    d.pump()
    [later] = schedules()
    assert json.loads(later["Target"]["Input"])["codes"] == ["main.R1.3"]


def test_a_player_marks_only_themself_present_and_only_in_time(day: Any) -> None:
    """R6.1: a player may say they are at their table, not for the opponent, not once too late;
    excusing is the referee's; the referee can still mark a player present after the deadline."""
    d = day()
    _, home_user = d.side_of("home")
    away_id, _ = d.side_of("away")
    assert d.presence("away", {"present": True}, user=home_user).status == 403
    assert d.presence("home", {"excused": True}, user=home_user).status == 403
    assert d.presence("home", {"present": True}, user=home_user).status == 200
    clock.advance(timedelta(minutes=10, seconds=1))
    _, away_user = d.side_of("away")
    late = d.presence("away", {"present": True}, user=away_user)
    assert (late.status, late.error) == (409, "too_late")
    ruled = d.presence("away", {"present": True})
    assert ruled.status == 200 and ruled.body["present"] == ["home", "away"]
    assert away_id


def test_a_late_arrival_under_hbf_keeps_the_points_of_its_arrival(day: Any) -> None:
    """R7.6 hbf: arriving at 17 minutes costs one point, and no later schedule adds more."""
    d = day(profile="hbf")
    assert d.presence("home", {"present": True}).status == 200
    d.at(15)
    clock.advance(timedelta(minutes=2))
    reply = d.presence("away", {"present": True})
    assert reply.status == 200 and reply.body["late_points"] == {"away": 1}
    d.at(40)
    match = d.match()
    assert (match.state, dict(match.late_points)) == ("called", {"away": 1})


def test_staff_call_again_restarts_the_clock(day: Any) -> None:
    """R6.1: a re-call at 8 minutes moves the forfeit to 18 minutes after the first call."""
    d = day()
    d.pump()
    first = datetime.fromisoformat(str(d.match().called_at))
    assert d.presence("home", {"present": True}).status == 200
    clock.advance(timedelta(minutes=8))
    reply = d.api.call(
        "POST", "/matches/{match_id}/call", params={"match_id": f"{d.tournament_id}.{MATCH}"}, user=ORGANISER
    )
    assert reply.status == 200 and reply.body["present"] == []
    d.pump()
    clock.advance(first + timedelta(minutes=10, seconds=2) - clock.now())
    d.fire()
    assert d.match().state == "called"
    assert d.presence("home", {"present": True}).status == 200
    d.at(10)  # 10 minutes after the re-call
    assert d.match().state == "official"


def test_called_players_are_told_their_table_and_opponent_once(
    day: Any, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R6.2: the call reaches each player in the feed, by SMS, and by e-mail where they chose it,
    naming table and opponent; an event delivered twice is one notice in the feed, one SMS and
    one e-mail."""
    sender = "calls@tavla.example"
    monkeypatch.setenv("NOTIFY_EMAIL_FROM", sender)
    boto3.client("ses").verify_email_identity(EmailAddress=sender)
    d = day()
    _, home_user = d.side_of("home")
    away_id, away_user = d.side_of("away")
    body = {"phone": "+306971234567", "sms_opt_in": True, "language": "en"}
    assert api.call("PATCH", "/me", body=body, user=home_user).status == 200
    body = {"email": "away@example.org", "notify_by_email": True}
    assert api.call("PATCH", "/me", body=body, user=away_user).status == 200
    [event] = d.pump(notices=True)
    notify.handler(event, LambdaContext("notify"))
    feed = api.call("GET", "/me/notifications", user=home_user).body
    assert [n["kind"] for n in feed] == ["table_call"]
    table = d.match().table
    assert f"table {table}" in feed[0]["message"]
    assert f"Player {d.players.index(away_id)}" in feed[0]["message"]
    assert feed[0]["data"]["table"] == str(table)
    sent = get_backend("sns")["123456789012"][REGION].sms_messages
    assert [phone for phone, text in sent.values() if f"table {table}" in text] == ["+306971234567"]
    mails = get_backend("ses")["123456789012"][REGION].sent_messages
    assert [m.destinations["ToAddresses"] for m in mails] == [["away@example.org"]]


def ruled(d: Day) -> list[dict[str, Any]]:
    """The NoShowRuled events on the bus, without the id each carries (a repeat would repeat it)."""
    return [
        {k: v for k, v in detail.items() if k != "event_id"}
        for kind, detail in d.published
        if kind == events.NOSHOW_RULED
    ]


def test_the_referee_is_told_of_a_forfeit_once(day: Any, api: Api) -> None:
    """R6.3: at the deadline the absent player is forfeited "and the referee is told": one notice
    in the referee's feed naming the player and the table, even when the schedule fires twice."""
    d = day()
    referee = "referee-with-profile"
    referee_id = create_player(api, referee, name="Referee Rena", language="en")
    appoint_referee(api, d.tournament_id, referee_id)
    assert d.presence("home", {"present": True}).status == 200
    away_id, _ = d.side_of("away")
    payload = d.at(10)[0]
    noshow.handler(payload, LambdaContext("noshow"))  # delivered again
    assert ruled(d) == [
        {"tournament_id": d.tournament_id, "code": MATCH, "outcome": "forfeited", "tavla_id": away_id}
    ]
    event = bus_event(events.NOSHOW_RULED, ruled(d)[0])
    notify.handler(event, LambdaContext("notify"))
    notify.handler(event, LambdaContext("notify"))
    feed = api.call("GET", "/me/notifications", user=referee).body
    assert [n["kind"] for n in feed] == ["noshow"]
    assert f"Player {d.players.index(away_id)}" in feed[0]["message"]
    assert f"table {d.match().table}" in feed[0]["message"]
    assert feed[0]["data"]["match_id"] == f"{d.tournament_id}.{MATCH}"


def test_the_referee_is_told_once_when_nobody_comes(day: Any) -> None:
    """R6.3: both absent under hbf: flagged at the first step, told once, not at every step."""
    d = day(profile="hbf")
    d.at(15)
    d.at(20)
    assert d.match().flags == ("both_absent",)
    assert ruled(d) == [{"tournament_id": d.tournament_id, "code": MATCH, "outcome": "both_absent"}]
