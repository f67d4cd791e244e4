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
from tavla import clock, events
from tavla.services import full_rebuild, rebuild
from tavla.store import keys
from tavla.store.dynamo import client, table_name
from tavla.store.schema import MAIN
from tests.service.conftest import Api, LambdaContext
from tests.service.day_helpers import checked_in_field, draw
from tests.service.helpers import ORGANISER, bus_taking, create_player, create_tournament, future, register
from tests.service.payment_helpers import MAPPING, pay_cash, planned_schedules, provider, signed
from tests.service.payment_helpers import deliver as deliver_payment
from tests.service.season_helpers import Published, bus, deliver, entered, fibs, page, play_out, results

__all__ = ["bus", "provider"]  # the fixtures

notify = importlib.import_module("functions.notify.handler")


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """Events the publisher put on the bus, as EventBridge delivers them to notify."""
    sent: list[dict[str, Any]] = []

    def put(kind: str, detail: dict[str, Any]) -> None:
        sent.append(
            {"id": f"e{len(sent)}", "detail-type": kind, "time": "2026-12-01T10:00:00Z", "detail": detail}
        )

    monkeypatch.setattr(events, "put_on_bus", bus_taking(put))
    yield sent


def told(published: list[dict[str, Any]], user: str) -> list[str]:
    for event in published:
        notify.handler(event, LambdaContext("notify"))
    return [n["message"] for n in api_feed(user)]


_API = Api()


def api_feed(user: str) -> list[dict[str, Any]]:
    return list(_API.call("GET", "/me/notifications", user=user).body)


def cancel(api: Api, tid: str, user: str = ORGANISER, groups: tuple[str, ...] = (), **body: Any) -> Any:
    return api.call(
        "POST",
        "/tournaments/{tournament_id}/cancel",
        params={"tournament_id": tid},
        body=body,
        user=user,
        groups=groups,
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
    assert deliver_payment(api, payload, signed(payload)).status == 200
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


def _close(ratings: dict[str, tuple[float, int]]) -> dict[str, tuple[float, int]]:
    """Ratings to 1e-6: the independent recomputation adds in another order."""
    return {p: (round(r, 6), n) for p, (r, n) in ratings.items()}


def test_an_admin_takes_a_cancelled_days_results_out_of_the_ratings_as_a_rebuild_would(
    api: Api, bus: Published
) -> None:
    """Played results stay rated unless the admin says otherwise: an organiser may not say so
    (403, nothing changed); the admin's word takes the day's results out of every rating and
    history, later results are replayed without them, and every player's rating is what a
    recomputation of the other results and both rebuilds say. Audited; again, or a late copy of
    a result of that day: nothing moves."""
    cancelled, ids = entered(api, ["u-a", "u-b", "u-c", "u-d"])
    play_out(cancelled, lambda m: m.home < m.away)
    day_results = results(bus)
    deliver(bus)
    later, later_ids = entered(api, ["u-a", "u-c", "u-e", "u-f"])
    play_out(later, lambda m: m.home > m.away)
    kept = results(bus)
    deliver(bus)
    everybody = sorted({*ids, *later_ids})
    rated = {p: (page(api, p)["rating"], page(api, p)["rated_matches"]) for p in everybody}
    assert _close(rated) == _close({p: fibs(day_results + kept).get(p, (1500.0, 0)) for p in everybody})

    refused = cancel(api, cancelled, unrate=True)
    assert (refused.status, refused.error) == (403, "forbidden")
    assert (
        api.call("GET", "/tournaments/{tournament_id}", params={"tournament_id": cancelled}).body["status"]
        == "running"
    )
    reply = cancel(api, cancelled, user="fed", groups=("admins",), reason="flooded", unrate=True)
    assert reply.status == 200 and reply.body["changed"] and reply.body["unrated_at"], reply.body
    assert sorted(k for k, _ in bus) == [events.TOURNAMENT_CANCELLED, events.TOURNAMENT_UNRATED]
    deliver(bus)
    expected = fibs(kept)
    assert _close({p: (page(api, p)["rating"], page(api, p)["rated_matches"]) for p in everybody}) == _close(
        {p: expected.get(p, (1500.0, 0)) for p in everybody}
    )
    assert all(h["tournament_id"] != cancelled for p in everybody for h in page(api, p)["history"])
    finish = api.call(
        "POST", "/tournaments/{tournament_id}/finish", params={"tournament_id": cancelled}, user=ORGANISER
    )
    assert finish.status == 409  # never finished, so no season counts it
    assert rebuild.nightly(clock.now(), repair=False).clean
    chunk = full_rebuild.ledger({"tournaments": [cancelled, later]})
    assert (chunk["missing"], chunk["changed"], chunk["extra"]) == (0, 0, 0)
    trail = api.call(
        "GET", "/tournaments/{tournament_id}/audit", params={"tournament_id": cancelled}, user=ORGANISER
    ).body
    assert [r["action"] for r in trail["records"] if r["action"] == "tournament_cancelled"] == [
        "tournament_cancelled"
    ]
    assert any(r["details"].get("unrated") for r in trail["records"])

    now_rated = {p: page(api, p)["rating"] for p in everybody}
    again = cancel(api, cancelled, user="fed", groups=("admins",), unrate=True)
    assert (again.status, again.body["changed"], bus) == (200, False, [])
    bus.extend((events.RESULT_CONFIRMED, r) for r in day_results[:2])
    bus.append((events.TOURNAMENT_UNRATED, {"tournament_id": cancelled}))
    outcomes = [o["outcome"] for o in deliver(bus)]
    assert outcomes == ["not_rated", "not_rated", "unchanged"]
    assert {p: page(api, p)["rating"] for p in everybody} == now_rated


def test_results_are_unrated_by_an_admin_only_after_a_draw(api: Api) -> None:
    """Before the draw there is nothing to take out of the ratings: 422, and nothing cancelled."""
    tid = create_tournament(api)
    refused = cancel(api, tid, user="fed", groups=("admins",), unrate=True)
    assert refused.status == 422
    assert (
        api.call("GET", "/tournaments/{tournament_id}", params={"tournament_id": tid}).body["status"]
        == "open"
    )


def _checkout(api: Api, tid: str, user: str) -> str:
    started = api.call(
        "POST", "/tournaments/{tournament_id}/payments/checkout", params={"tournament_id": tid}, user=user
    )
    assert started.status in (200, 201), started.body
    return str(started.body["session_id"])


def _figures(api: Api, tid: str) -> dict[str, int]:
    body = api.call(
        "GET", "/tournaments/{tournament_id}/payments", params={"tournament_id": tid}, user=ORGANISER
    ).body
    return {k: v["amount"] for k, v in body["figures"].items()}


@pytest.mark.parametrize("read_before_the_cancel", [False, True])
def test_a_card_payment_arriving_after_the_cancellation_goes_back_through_the_provider(
    api: Api, provider: FakeProvider, monkeypatch: pytest.MonkeyPatch, read_before_the_cancel: bool
) -> None:
    """The player paid at the provider, the webhook came once the tournament was cancelled (or
    read the tournament open just before the cancellation committed): the payment is recorded
    and refunded in full through the provider at once, no pool counts it; the same webhook
    again and the cancellation again change nothing."""
    from tavla.store import snapshots

    tid = create_tournament(api, refund_policy={"kind": "none"})
    card = create_player(api, "late-card")
    assert register(api, tid, "late-card").status == 201
    session = _checkout(api, tid, "late-card")
    seen = snapshots.snapshot(tid)
    assert cancel(api, tid).body["refunds_written"] == 0
    if read_before_the_cancel:  # the webhook read the tournament open, then the cancel committed
        reads = [seen]
        real = snapshots.snapshot
        monkeypatch.setattr(snapshots, "snapshot", lambda *a, **k: reads.pop() if reads else real(*a, **k))
    payload = provider.completed_event(session)
    assert deliver_payment(api, payload, signed(payload)).status == 200
    assert [r["amount"] for r in provider.refunds.values()] == [2000]
    assert refunds(api, tid) == [(card, "provider_refund", 2000, "done")]
    figures = _figures(api, tid)
    assert (figures["received"], figures["refunded"], figures["collected"], figures["pool"]) == (
        2000,
        2000,
        0,
        0,
    )
    assert deliver_payment(api, payload, signed(payload)).status == 200
    assert cancel(api, tid).body["refunds_written"] == 0
    assert len(provider.refunds) == 1 and len(refunds(api, tid)) == 1


def test_a_bank_transfer_matched_after_the_cancellation_goes_on_the_refund_list(api: Api) -> None:
    """A transfer that arrives after the cancellation, matched by the statement's import: the
    whole amount is due back on the refund list (the organiser pays it), no pool counts it."""
    tid = create_tournament(api)
    tavla_id = create_player(api, "late-bank")
    code = register(api, tid, "late-bank").body["checkin_code"]
    assert cancel(api, tid).status == 200
    statement = "Date;Amount;Description;Payer\n" + f"01/11/2026;20,00;Entry fee {code};Giorgos Papadopoulos"
    imported = api.call(
        "POST",
        "/tournaments/{tournament_id}/bank-statements",
        params={"tournament_id": tid},
        body={"format": "csv", "content": statement, "mapping": MAPPING},
        user=ORGANISER,
    )
    assert imported.status == 200, imported.body
    assert [line["status"] for line in imported.body["lines"]] == ["matched"]
    assert refunds(api, tid) == [(tavla_id, "bank_refund", 2000, "due")]
    figures = _figures(api, tid)
    assert (figures["received"], figures["refunds_due"], figures["collected"], figures["pool"]) == (
        2000,
        2000,
        0,
        0,
    )
    assert cancel(api, tid).body["refunds_written"] == 0
    assert len(refunds(api, tid)) == 1
