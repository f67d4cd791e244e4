"""A tournament cancelled or postponed (R2, R3.5): money back in full, entrants told in their
language, the page and the schedules follow; both safe to repeat, and a draw and a cancellation
never both win."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest

from local.fake_provider import FakeProvider
from tavla import events
from tavla.store import keys
from tavla.store.dynamo import client, table_name
from tavla.store.schema import MAIN
from tests.service.conftest import Api, LambdaContext
from tests.service.day_helpers import checked_in_field, draw
from tests.service.helpers import ORGANISER, create_player, create_tournament, future, register
from tests.service.payment_helpers import deliver, pay_cash, planned_schedules, provider, signed

__all__ = ["provider"]  # the fixture

notify = importlib.import_module("functions.notify.handler")


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """Events the publisher put on the bus, as EventBridge delivers them to notify."""
    sent: list[dict[str, Any]] = []

    def put(kind: str, detail: dict[str, Any]) -> None:
        sent.append(
            {"id": f"e{len(sent)}", "detail-type": kind, "time": "2026-12-01T10:00:00Z", "detail": detail}
        )

    monkeypatch.setattr(events, "put_on_bus", put)
    yield sent


def told(published: list[dict[str, Any]], user: str) -> list[str]:
    for event in published:
        notify.handler(event, LambdaContext("notify"))
    return [n["message"] for n in api_feed(user)]


_API = Api()


def api_feed(user: str) -> list[dict[str, Any]]:
    return list(_API.call("GET", "/me/notifications", user=user).body)


def cancel(api: Api, tid: str, user: str = ORGANISER, **body: Any) -> Any:
    return api.call(
        "POST", "/tournaments/{tournament_id}/cancel", params={"tournament_id": tid}, body=body, user=user
    )


def postpone(api: Api, tid: str, body: dict[str, Any], user: str = ORGANISER) -> Any:
    return api.call(
        "POST", "/tournaments/{tournament_id}/postpone", params={"tournament_id": tid}, body=body, user=user
    )


def refunds(api: Api, tid: str) -> list[tuple[str, str, int, str]]:
    listed = api.call(
        "GET", "/tournaments/{tournament_id}/refunds", params={"tournament_id": tid}, user=ORGANISER
    )
    return sorted(
        (r["tavla_id"], r["method"], r["amount"]["amount"], r["status"]) for r in listed.body["refunds"]
    )


def test_a_cancelled_tournament_refunds_every_paid_entry_in_full_and_tells_every_entrant(
    api: Api, provider: FakeProvider, published: list[dict[str, Any]]
) -> None:
    """R3.5: whatever the refund policy, a cancellation gives everything back: the card payment
    through the provider, the cash one on the refund list; the unpaid entrant owes nothing.
    Registration closes, the page says cancelled, everyone hears it in Greek; again: no change."""
    tid = create_tournament(api, refund_policy={"kind": "none"})
    card, cash = create_player(api, "by-card"), create_player(api, "by-cash")
    create_player(api, "unpaid")
    for user in ("by-card", "by-cash", "unpaid"):
        assert register(api, tid, user).status == 201
    started = api.call(
        "POST",
        "/tournaments/{tournament_id}/payments/checkout",
        params={"tournament_id": tid},
        user="by-card",
    )
    payload = provider.completed_event(started.body["session_id"])
    assert deliver(api, payload, signed(payload)).status == 200
    pay_cash(api, tid, cash)

    reply = cancel(api, tid, reason="the venue flooded")
    assert reply.status == 200, reply.body
    assert (reply.body["changed"], reply.body["refunds_written"], reply.body["refunds_due"]["amount"]) == (
        True,
        2,
        2000,
    )
    assert refunds(api, tid) == sorted(
        [(card, "provider_refund", 2000, "done"), (cash, "bank_refund", 2000, "due")]
    )
    assert [r["amount"] for r in provider.refunds.values()] == [2000]
    page = api.call("GET", "/tournaments/{tournament_id}", params={"tournament_id": tid}).body
    assert (page["status"], page["cancel_reason"], page["checkin_open"]) == (
        "cancelled",
        "the venue flooded",
        False,
    )
    create_player(api, "latecomer")
    assert register(api, tid, "latecomer").status == 409
    for user in ("by-card", "by-cash", "unpaid"):
        [message] = told(published, user)
        assert "ακυρώθηκε" in message and "the venue flooded" in message

    again = cancel(api, tid, reason="twice")
    assert (again.status, again.body["changed"], again.body["refunds_written"]) == (200, False, 0)
    assert len(provider.refunds) == 1 and len(refunds(api, tid)) == 2
    assert len(told(published, "by-cash")) == 1  # told once
    assert cancel(api, tid, user="by-cash").status == 403


def test_a_day_under_way_is_cancelled_and_no_further_draw_is_made(api: Api) -> None:
    """R2: cancelled during the day (after the draw): no next draw, no score, declaration or
    confirmation of its matches any more, and it cannot be postponed."""
    tid, _ = checked_in_field(api, 4)
    drawn = draw(api, tid)
    assert drawn.status == 201
    match_id = next(p["id"] for p in drawn.body["pairings"] if p.get("away"))
    assert cancel(api, tid).status == 200
    assert draw(api, tid).status == 409
    where = {"match_id": match_id}
    before = api.call("GET", "/matches/{match_id}", params=where).body
    score = {"home_points": 9, "away_points": 2}
    for user in ("player-0", "player-1", "player-2", "player-3"):
        declared = api.call("POST", "/matches/{match_id}/report", params=where, body=score, user=user)
        assert declared.status in (403, 409), declared.body
        assert declared.status == 403 or declared.error == "tournament_cancelled"
    confirmed = api.call("POST", "/matches/{match_id}/confirm", params=where, body=score, user=ORGANISER)
    assert (confirmed.status, confirmed.error) == (409, "tournament_cancelled")
    assert api.call("GET", "/matches/{match_id}", params=where).body == before
    refused = postpone(api, tid, {"starts_at": future(20)})
    assert (refused.status, refused.error) == (409, "tournament_cancelled")


def test_a_draw_being_made_holds_off_a_cancellation(api: Api) -> None:
    """A draw's reservation and a cancellation are conditions on the same item: while a draw is
    being made the cancellation is refused (409) and nothing changes."""
    tid, _ = checked_in_field(api, 4)
    client().update_item(
        TableName=table_name(MAIN),
        Key=keys.tournament(tid),
        UpdateExpression="SET drawing = :d",
        ExpressionAttributeValues={":d": {"M": {"number": {"N": "1"}, "seed": {"N": "7"}}}},
    )
    refused = cancel(api, tid)
    assert (refused.status, refused.error) == (409, "draw_in_progress")
    assert (
        api.call("GET", "/tournaments/{tournament_id}", params={"tournament_id": tid}).body["status"]
        == "open"
    )


def test_a_postponed_tournament_moves_its_dates_and_schedules_and_refunds_a_withdrawal_in_full(
    api: Api, published: list[dict[str, Any]]
) -> None:
    """R3.5: postponed a week: start, close and payment deadline move by a week, the deadline's
    schedules with them; the entrant keeps the place, hears it in Greek, and withdrawing before
    the new close gives back everything (the policy said nothing)."""
    tid = create_tournament(api, refund_policy={"kind": "none"}, payment_deadline=future(8))
    stayer, leaver = create_player(api, "stayer"), create_player(api, "leaver")
    for user in ("stayer", "leaver"):
        assert register(api, tid, user).status == 201
    pay_cash(api, tid, leaver)
    before = api.call("GET", "/tournaments/{tournament_id}", params={"tournament_id": tid}).body
    week = timedelta(days=7)
    new_start = datetime.fromisoformat(before["starts_at"]) + week
    reply = postpone(api, tid, {"starts_at": new_start.isoformat()})
    assert reply.status == 200, reply.body
    for name in ("registration_closes_at", "payment_deadline"):
        assert datetime.fromisoformat(reply.body[name]) == datetime.fromisoformat(before[name]) + week
    assert datetime.fromisoformat(reply.body["postponed_from"]) == datetime.fromisoformat(before["starts_at"])
    deadlines = {p["deadline"] for p in planned_schedules().values() if p.get("step") == "release"}
    assert {datetime.fromisoformat(d) for d in deadlines} >= {
        datetime.fromisoformat(reply.body["payment_deadline"])
    }
    [message] = told(published, "stayer")
    assert "μετατέθηκε" in message
    again = postpone(api, tid, {"starts_at": new_start.isoformat()})
    assert again.status == 200 and again.body["starts_at"] == reply.body["starts_at"]
    assert len(told(published, "stayer")) == 1
    earlier = postpone(api, tid, {"starts_at": before["starts_at"]})
    assert earlier.status == 422
    gone = api.call(
        "DELETE",
        "/tournaments/{tournament_id}/registrations/me",
        params={"tournament_id": tid},
        user="leaver",
    )
    assert (gone.status, gone.body["refund_due"]["amount"]) == (200, 2000)
    entries = api.call("GET", "/tournaments/{tournament_id}/entries", params={"tournament_id": tid}).body
    assert stayer in str(entries)


def test_a_drawn_tournament_is_not_postponed(api: Api) -> None:
    tid, _ = checked_in_field(api, 4)
    assert draw(api, tid).status == 201
    refused = postpone(api, tid, {"starts_at": future(30)})
    assert (refused.status, refused.error) == (409, "not_postponable")
