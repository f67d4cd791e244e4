"""The Super Final's invitations (R10.4, R5.7): frozen at the season's close, answered by the
invited players by a deadline, passed down the frozen list on a decline or a missed deadline."""

from __future__ import annotations

import importlib
from datetime import date, timedelta
from typing import Any

import pytest
import responses

from tavla import clock, events
from tavla.services import live as live_service
from tests.push_browser import Browser
from tests.service.conftest import Api, LambdaContext
from tests.service.helpers import bus_taking
from tests.service.payment_helpers import planned_schedules
from tests.service.season_helpers import Published, bus, deliver, entered, event, finish, play_out, season_fn

__all__ = ["bus"]

notify = importlib.import_module("functions.notify.handler")
ADMIN = {"user": "fed", "groups": ("admins",)}
SEASON = "s-final"
USERS = ["a", "b", "c", "d", "e", "f", "g", "h"]


def _tavla_id(api: Api, user: str) -> str:
    return str(api.call("GET", "/me", user=user).body["tavla_id"])


def closed_season(
    api: Api, bus: Published, seats: int = 3, reserves: int = 2, before_close: Any = None, **more: Any
) -> list[str]:
    """A season whose 8-player knockout is counted, closed by its schedule: the Tavla IDs in
    season order (the frozen list: `seats` invited, then `reserves`)."""
    today = clock.now().date()
    api.call("POST", "/players", body={"name": "Organiser O"}, user="season-org")
    body = {
        "name": "Final season",
        "starts_on": (today - timedelta(days=10)).isoformat(),
        "ends_on": (today + timedelta(days=1)).isoformat(),
        "organiser": _tavla_id(api, "season-org"),
        "settings": {"super_final_size": seats, "super_final_reserves": reserves, **more},
    }
    put = api.call("PUT", "/seasons/{season_id}", params={"season_id": SEASON}, body=body, **ADMIN)
    assert put.status == 200, put.body
    deliver(bus)
    tid, _ = entered(api, USERS, season_id=SEASON, level="regional")
    play_out(tid, lambda m: m.home < m.away)
    finish(api, tid)
    deliver(bus)
    rows = api.call("GET", "/seasons/{season_id}/standings", params={"season_id": SEASON}).body["rows"]
    if before_close is not None:
        before_close()
    clock.advance(timedelta(days=2))
    assert season_fn.handler({"close_season": SEASON}, LambdaContext("season"))["outcome"] == "closed"
    return [r["tavla_id"] for r in rows]


def user_of(api: Api, tavla_id: str) -> str:
    return next(u for u in USERS if _tavla_id(api, u) == tavla_id)


def answer(api: Api, user: str, what: str) -> Any:
    return api.call(
        "POST", f"/seasons/{{season_id}}/invitations/me/{what}", params={"season_id": SEASON}, user=user
    )


def replies(api: Api, **who: Any) -> Any:
    return api.call("GET", "/seasons/{season_id}/invitations/replies", params={"season_id": SEASON}, **who)


def deadlines() -> dict[str, dict[str, Any]]:
    """The invitations' deadline schedules by invited player."""
    planned = planned_schedules().values()
    return {p["invitation_deadline"]["tavla_id"]: p for p in planned if "invitation_deadline" in p}


def invited_on(bus: Published) -> list[str]:
    return [d["invited"][0]["tavla_id"] for k, d in bus if k == events.SUPER_FINAL_INVITED]


def test_the_close_invites_the_leaders_and_schedules_each_deadline(api: Api, bus: Published) -> None:
    """R10.4: at the close the top 3 are invited (in season order, lives by place, R5.7), each
    deadline a one-time schedule on the season function; the reserves wait; the players
    find their invitation under /me/invitations."""
    order = closed_season(api, bus)
    assert invited_on(bus) == order[:3]
    for kind, detail in list(bus):
        season_fn.handler(event(kind, detail), LambdaContext("season"))
    assert sorted(deadlines()) == sorted(order[:3])
    assert all(n.startswith("season-invite") for n in planned_schedules() if "close" not in n)
    staff = replies(api, **ADMIN).body
    assert [i["tavla_id"] for i in staff["pending"]] == order[:3]
    assert [r["tavla_id"] for r in staff["reserves"]] == order[3:5]
    assert [i["lives"] for i in staff["pending"]] == [4, 4, 4]
    mine = api.call("GET", "/me/invitations", user=user_of(api, order[0])).body["invitations"]
    assert [(i["season_id"], i["status"], i["place"]) for i in mine] == [(SEASON, "pending", 1)]
    assert api.call("GET", "/me/invitations", user=user_of(api, order[5])).body["invitations"] == []


def test_answers_are_the_invited_players_own_once_and_before_the_deadline(api: Api, bus: Published) -> None:
    """R10.4: accepting twice is one accept; the other answer after it is 409; a player not
    invited holds nothing to answer (404); a decline passes the seat to the first reserve, who
    is told; the public sees only who accepted, the organiser and admins every answer."""
    order = closed_season(api, bus)
    bus.clear()
    first, second = user_of(api, order[0]), user_of(api, order[1])
    assert answer(api, first, "accept").status == 200
    again = answer(api, first, "accept")
    assert (again.status, again.body["status"]) == (200, "accepted")
    assert (answer(api, first, "decline").status, answer(api, first, "decline").error) == (
        409,
        "invitation_answered",
    )
    outsider = answer(api, user_of(api, order[6]), "accept")
    assert (outsider.status, outsider.error) == (404, "invitation_not_found")
    assert answer(api, second, "decline").status == 200
    assert invited_on(bus) == [order[3]]
    [passed] = [d for k, d in bus if k == events.SUPER_FINAL_SEAT_PASSED]
    assert (passed["tavla_id"], passed["reason"]) == (order[1], "declined")
    [(kind, detail)] = [(k, d) for k, d in bus if k == events.SUPER_FINAL_INVITED]
    notify.handler(event(kind, detail), LambdaContext("notify"))
    feed = api.call("GET", "/me/notifications", user=user_of(api, order[3])).body
    assert [n["kind"] for n in feed] == ["super_final"] and "θέση 4 στη σεζόν" in feed[0]["message"]
    public = api.call("GET", "/seasons/{season_id}/invitations", params={"season_id": SEASON}).body
    assert [p["tavla_id"] for p in public["accepted"]] == [order[0]] and "pending" not in public
    for who in (ADMIN, {"user": "season-org"}):
        staff = replies(api, **who).body
        assert [i["tavla_id"] for i in staff["declined"]] == [order[1]]
        assert [i["tavla_id"] for i in staff["pending"]] == [order[2], order[3]]
        assert [r["tavla_id"] for r in staff["reserves"]] == [order[4]]
    assert replies(api, user=first).status == 403


def test_a_missed_deadline_passes_the_seat_once_however_often_or_late_it_fires(
    api: Api, bus: Published
) -> None:
    """R10.4: the deadline's schedule fired early changes nothing; fired late it passes the seat
    to the next on the list and tells the player; fired again it changes nothing; the player's
    accept after the deadline is 409 and takes no seat."""
    order = closed_season(api, bus, invitation_reply_days=3)
    for kind, detail in list(bus):
        season_fn.handler(event(kind, detail), LambdaContext("season"))
    bus.clear()
    late, accepted_one = deadlines()[order[2]], deadlines()[order[0]]
    assert answer(api, user_of(api, order[0]), "accept").status == 200
    assert season_fn.handler(late, LambdaContext("season"))["outcome"] == "not_yet"
    clock.advance(timedelta(days=5))  # two days late
    refused = answer(api, user_of(api, order[2]), "accept")
    assert (refused.status, refused.error) == (409, "invitation_closed")
    assert season_fn.handler(late, LambdaContext("season"))["outcome"] == "expired"
    assert season_fn.handler(late, LambdaContext("season"))["outcome"] == "answered"
    assert season_fn.handler(accepted_one, LambdaContext("season"))["outcome"] == "answered"
    assert invited_on(bus) == [order[3]]  # order[1]'s deadline has not fired yet: one seat passed
    [(kind, detail)] = [(k, d) for k, d in bus if k == events.SUPER_FINAL_SEAT_PASSED]
    notify.handler(event(kind, detail), LambdaContext("notify"))
    feed = api.call("GET", "/me/notifications", user=user_of(api, order[2])).body
    assert [n["kind"] for n in feed] == ["super_final_lapsed"]
    staff = replies(api, **ADMIN).body
    assert [i["tavla_id"] for i in staff["expired"]] == [order[2]]
    assert [p["tavla_id"] for p in staff["accepted"]] == [order[0]]


def test_an_answer_deletes_its_deadline_and_one_left_behind_changes_nothing(
    api: Api, bus: Published, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R10.4: an accept and a decline each delete their deadline's schedule; when Scheduler
    refuses the deletion the answer stands all the same, and the schedule left behind, when it
    fires after the deadline, finds the answer and passes no seat."""
    from botocore.exceptions import ClientError

    from tavla import schedules

    order = closed_season(api, bus)
    for kind, detail in list(bus):
        season_fn.handler(event(kind, detail), LambdaContext("season"))
    bus.clear()
    assert answer(api, user_of(api, order[0]), "accept").status == 200
    assert answer(api, user_of(api, order[1]), "decline").status == 200
    assert sorted(deadlines()) == sorted([order[2]])  # the reserve's is scheduled off the bus
    left = deadlines()[order[2]]

    def refused(name: str) -> None:
        raise ClientError(
            {"Error": {"Code": "ThrottlingException", "Message": "slow down"}}, "DeleteSchedule"
        )

    monkeypatch.setattr(schedules, "delete", refused)
    assert answer(api, user_of(api, order[2]), "accept").status == 200
    assert deadlines()[order[2]] == left
    bus.clear()
    clock.advance(timedelta(days=8))
    assert season_fn.handler(left, LambdaContext("season"))["outcome"] == "answered"
    assert bus == []
    assert [p["tavla_id"] for p in replies(api, **ADMIN).body["accepted"]] == [order[0], order[2]]


def test_two_accepts_for_the_last_seat_cannot_both_win(api: Api, bus: Published) -> None:
    """R10.4: even with one invitation more pending than seats are open (as a race between a
    passing-on and a late answer could leave), the seat count's condition lets one accept in."""
    from tavla.store import invitations as store
    from tavla.store import keys
    from tavla.store.dynamo import client, serialize, table_name
    from tavla.store.records import InvitationRecord
    from tavla.store.schema import MAIN

    order = closed_season(api, bus, seats=2)
    assert answer(api, user_of(api, order[0]), "accept").status == 200
    extra = InvitationRecord(
        season_id=SEASON,
        tavla_id=order[2],
        order=2,
        place=3,
        lives=4,
        status=store.PENDING,
        invited_at=clock.now().isoformat(),
        reply_by=(clock.now() + timedelta(days=1)).isoformat(),
    )
    client().put_item(  # written past the seat count's conditions
        TableName=table_name(MAIN),
        Item=serialize({**keys.plain(keys.invitation(SEASON, order[2])), **extra.to_item()}),
    )
    assert answer(api, user_of(api, order[1]), "accept").status == 200
    full = answer(api, user_of(api, order[2]), "accept")
    assert (full.status, full.error) == (409, "super_final_full")
    assert len(replies(api, **ADMIN).body["accepted"]) == 2


def test_the_frozen_list_ignores_later_tournaments_and_settings(api: Api, bus: Published) -> None:
    """R10.4: after the close a tournament finished within the dates but counted late, and an
    attempt to change the settings, leave the standings and the frozen list as they were."""
    late: Published = []

    def finished_but_not_counted_yet() -> None:
        tid, _ = entered(api, ["i", "j", "k", "l"], season_id=SEASON, level="major")
        play_out(tid, lambda m: m.home < m.away)
        finish(api, tid)
        late.extend((k, d) for k, d in bus if k == events.TOURNAMENT_FINISHED)
        bus.clear()

    order = closed_season(api, bus, before_close=finished_but_not_counted_yet)
    before = replies(api, **ADMIN).body
    assert deliver(late) == [{"outcome": "counted", "players": 4}]
    changed = {
        "name": "x",
        "starts_on": date(2020, 1, 1).isoformat(),
        "ends_on": date(2030, 1, 1).isoformat(),
    }
    reply = api.call("PUT", "/seasons/{season_id}", params={"season_id": SEASON}, body=changed, **ADMIN)
    assert (reply.status, reply.error) == (409, "season_closed")
    rows = api.call("GET", "/seasons/{season_id}/standings", params={"season_id": SEASON}).body["rows"]
    assert [r["tavla_id"] for r in rows] == order
    assert replies(api, **ADMIN).body == before


def test_an_accept_a_decline_and_a_recount_each_tell_the_season_channel(
    api: Api, bus: Published, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The season's screens follow it by themselves: the standings ranked again, an accept, a
    decline (the seat passed on) and the reserve's invitation each put a hint on the season's
    public channel, naming no player; the organiser's replies mark the reserve invited."""
    everything: Published = []

    def put_on_bus(kind: str, detail: Any) -> None:
        bus.append((kind, detail))
        everything.append((kind, detail))

    monkeypatch.setattr(events, "put_on_bus", bus_taking(put_on_bus))
    order = closed_season(api, bus)
    ranked = [d for k, d in everything if k == events.SEASON_STANDINGS_CHANGED]
    assert ranked and all(d["season_id"] == SEASON for d in ranked)
    bus.clear()
    assert answer(api, user_of(api, order[0]), "accept").status == 200
    assert answer(api, user_of(api, order[1]), "decline").status == 200
    kinds = [k for k, _ in bus]
    assert kinds.count(events.SUPER_FINAL_ACCEPTED) == 1
    assert {events.SUPER_FINAL_SEAT_PASSED, events.SUPER_FINAL_INVITED} <= set(kinds)
    hints = live_service.hints_of([{"detail-type": k, "detail": d} for k, d in bus])
    assert {h.channel for h in hints} == {"season/s-final"}
    assert {h.type for h in hints} == {
        events.SUPER_FINAL_ACCEPTED,
        events.SUPER_FINAL_SEAT_PASSED,
        events.SUPER_FINAL_INVITED,
    }
    assert all(set(h.message()) == {"channel", "type", "version"} for h in hints)
    staff = replies(api, **ADMIN).body
    assert [(i["tavla_id"], i["reserve"]) for i in staff["pending"]] == [(order[2], False), (order[3], True)]
    assert [(p["tavla_id"], p["reserve"]) for p in staff["reserves"]] == [(order[4], True)]
    assert [(p["tavla_id"], p["reserve"]) for p in staff["accepted"]] == [(order[0], False)]


def test_the_invitation_reaches_the_players_phone_in_their_language_by_the_seasons_name(
    api: Api, bus: Published, push_service: responses.RequestsMock
) -> None:
    """R10.4, R6.2: the invited leader (Greek) and the second (Italian) each get the notice by
    push in their own language, naming the season as people call it ("Final season"), never
    its id; a lapsed invitation names it too."""
    order = closed_season(api, bus)
    greek, italian = user_of(api, order[0]), user_of(api, order[1])
    assert api.call("PATCH", "/me", body={"language": "el"}, user=greek).status == 200
    assert api.call("PATCH", "/me", body={"language": "it"}, user=italian).status == 200
    phones = {u: Browser(f"https://fcm.googleapis.com/fcm/send/{u}") for u in (greek, italian)}
    for user, browser in phones.items():
        assert api.call("PUT", "/me/push-subscriptions", body=browser.subscription(), user=user).status == 200
    for kind, detail in [(k, d) for k, d in bus if k == events.SUPER_FINAL_INVITED]:
        notify.handler(event(kind, detail), LambdaContext("notify"))

    def pushed(user: str) -> str:
        (call,) = [c for c in push_service.calls if c.request.url == phones[user].endpoint]
        body = call.request.body or b""
        return str(phones[user].read(body.encode() if isinstance(body, str) else bytes(body))["body"])

    assert "Προσκαλείστε στον Super Final της σεζόν Final season: θέση 1 στη σεζόν" in pushed(greek)
    assert "Sei invitato alla Super Final della stagione Final season: posizione 2" in pushed(italian)
    assert SEASON not in pushed(greek) + pushed(italian)
    lapsed = {"season_id": SEASON, "tavla_id": order[0], "reason": "expired", "at": clock.now().isoformat()}
    notify.handler(event(events.SUPER_FINAL_SEAT_PASSED, lapsed), LambdaContext("notify"))
    feed = api.call("GET", "/me/notifications", user=greek).body
    assert any("σεζόν Final season έληξε" in n["message"] for n in feed), feed


def test_an_invited_reserve_sees_on_their_card_that_they_came_from_the_reserve_list(
    api: Api, bus: Published
) -> None:
    """R10.4: a decline passes the seat to the first reserve: their own invitation says
    `reserve`, the players invited at the close do not."""
    order = closed_season(api, bus)
    assert answer(api, user_of(api, order[1]), "decline").status == 200

    def card(tavla_id: str) -> tuple[str, bool]:
        [mine] = api.call("GET", "/me/invitations", user=user_of(api, tavla_id)).body["invitations"]
        return mine["status"], mine["reserve"]

    assert [card(t) for t in order[:4]] == [
        ("pending", False),
        ("declined", False),
        ("pending", False),
        ("pending", True),
    ]
