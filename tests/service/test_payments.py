"""Entry-fee money: ledgers, payments at the venue, card checkout and its webhook."""

from __future__ import annotations

import csv
import io
import json
import time
from datetime import UTC, datetime, timedelta

import pytest

from local.fake_provider import FakeProvider
from tests.service.board_helpers import raw_call
from tests.service.conftest import Api
from tests.service.helpers import ORGANISER, appoint_referee, create_player, create_tournament, register
from tests.service.payment_helpers import deliver, ledger_of, provider, signed

__all__ = ["provider"]  # the fixture

PAID_PATH = "/tournaments/{tournament_id}/payments"


def _entered(api: Api, **settings) -> tuple[str, str]:
    tid = create_tournament(api, **settings)
    tavla_id = create_player(api, "payer")
    assert register(api, tid, "payer").status == 201
    return tid, tavla_id


def _venue(api: Api, tid: str, tavla_id: str, amount: int, user: str = ORGANISER, **extra):
    return api.call(
        "POST",
        PAID_PATH,
        params={"tournament_id": tid},
        body={
            "tavla_id": tavla_id,
            "method": "cash",
            "amount": {"amount": amount, "currency": "EUR"},
            **extra,
        },
        user=user,
    )


def _checkout(api: Api, tid: str, user: str = "payer"):
    return api.call(
        "POST", "/tournaments/{tournament_id}/payments/checkout", params={"tournament_id": tid}, user=user
    )


def test_a_new_registration_owes_its_fee(api: Api) -> None:
    """R3.3: the ledger says what is due, nothing paid, the whole fee outstanding, in cents."""
    tid, tavla_id = _entered(api)
    ledger = ledger_of(api, tid, tavla_id, ORGANISER)
    assert ledger["due"] == {"amount": 2000, "currency": "EUR"}
    assert (ledger["paid"]["amount"], ledger["balance"], ledger["outstanding"]["amount"]) == (0, -2000, 2000)
    assert ledger["entries"] == []


def test_a_division_has_its_own_fee(api: Api) -> None:
    """R3.3, R3.7: a division's fee is what its players owe."""
    divisions = [
        {"id": "open", "name": "Open"},
        {"id": "novice", "name": "Novice", "entry_fee": {"amount": 1000, "currency": "EUR"}},
    ]
    tid = create_tournament(api, divisions=divisions)
    tavla_id = create_player(api, "novice")
    reply = api.call(
        "POST",
        "/tournaments/{tournament_id}/registrations",
        params={"tournament_id": tid},
        body={"division": "novice"},
        user="novice",
    )
    assert reply.status == 201, reply.body
    assert ledger_of(api, tid, tavla_id, ORGANISER)["due"]["amount"] == 1000


def test_cash_at_the_venue_is_recorded_by_staff_with_a_receipt(api: Api) -> None:
    """R3.3: a referee records cash at the table; the ledger shows it, who recorded it, the receipt."""
    tid, tavla_id = _entered(api)
    referee = create_player(api, "ref-1")
    appoint_referee(api, tid, referee)
    reply = _venue(api, tid, tavla_id, 2000, user="ref-1", receipt="A-0017")
    assert reply.status == 201, reply.body
    assert (reply.body["paid"]["amount"], reply.body["balance"], reply.body["outstanding"]["amount"]) == (
        2000,
        0,
        0,
    )
    [payment] = reply.body["entries"]
    assert (payment["method"], payment["receipt"], payment["recorded_by"]) == ("cash", "A-0017", referee)
    audit = api.call(
        "GET", "/tournaments/{tournament_id}/audit", params={"tournament_id": tid}, user=ORGANISER
    )
    recorded = [a for a in audit.body["records"] if a["action"] == "payment_recorded"]
    assert recorded and recorded[0]["details"]["amount"] == 2000, audit.body


def test_a_venue_payment_for_someone_not_entered_changes_nothing(api: Api) -> None:
    """R3.3: staff cannot record money for a player with no entry: 409, the ledger untouched."""
    tid, _ = _entered(api)
    stranger = create_player(api, "stranger")
    reply = _venue(api, tid, stranger, 2000)
    assert (reply.status, reply.error) == (409, "not_registered")
    assert (
        api.call("GET", PAID_PATH, params={"tournament_id": tid}, user=ORGANISER).body["collected"]["amount"]
        == 0
    )


def test_a_negative_or_fractional_amount_is_refused(api: Api) -> None:
    """Money is integer cents, and a payment moves some: -1, 0 or 12.5 is a 422, nothing recorded."""
    tid, tavla_id = _entered(api)
    for amount in (-1, 0, 12.5):
        reply = _venue(api, tid, tavla_id, amount)  # type: ignore[arg-type]
        assert reply.status == 422, (amount, reply.body)
    assert ledger_of(api, tid, tavla_id, ORGANISER)["entries"] == []


def test_my_payments_show_my_ledger_only(api: Api) -> None:
    """R12.1: a player sees their own ledger, not anyone else's."""
    tid, tavla_id = _entered(api)
    other = create_player(api, "other")
    assert register(api, tid, "other").status == 201
    assert _venue(api, tid, other, 500).status == 201
    mine = api.call("GET", "/me/payments", user="payer")
    assert mine.status == 200, mine.body
    [ledger] = mine.body["ledgers"]
    assert (ledger["tavla_id"], ledger["paid"]["amount"]) == (tavla_id, 0)
    assert other not in json.dumps(mine.body)


def test_the_export_lists_every_movement_in_cents(api: Api) -> None:
    """R3.3: the organiser's CSV: one line per movement, amounts in cents, who recorded it."""
    tid, tavla_id = _entered(api)
    _venue(api, tid, tavla_id, 1500, receipt="R1")
    _venue(api, tid, tavla_id, 500, receipt="=HYPERLINK(1)")
    reply = raw_call(
        api,
        "GET",
        "/tournaments/{tournament_id}/payments/export",
        params={"tournament_id": tid},
        user=ORGANISER,
    )
    assert reply["statusCode"] == 200 and reply["headers"]["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(reply["body"])))
    assert [(r["tavla_id"], r["amount_cents"], r["receipt"]) for r in rows] == [
        (tavla_id, "1500", "R1"),
        (tavla_id, "500", "'=HYPERLINK(1)"),  # text, never a formula
    ]


def test_card_checkout_asks_the_ledger_amount_and_the_webhook_records_it(
    api: Api, provider: FakeProvider
) -> None:
    """R3.3: the checkout is for what is owed (not a client's amount); the signed webhook pays it."""
    tid, tavla_id = _entered(api)
    _venue(api, tid, tavla_id, 500)
    started = _checkout(api, tid)
    assert started.status == 201, started.body
    assert started.body["amount"]["amount"] == 1500
    session = provider.sessions[started.body["session_id"]]
    assert (session["amount_total"], session["metadata"]["tavla_id"]) == (1500, tavla_id)
    # the player comes back to the tournament's web page, which reads ?checkout= before its route
    assert session["success_url"] == f"http://localhost:8000/?checkout=success#/t/{tid}"
    payload = provider.completed_event(started.body["session_id"])
    reply = deliver(api, payload, signed(payload))
    assert (reply.status, reply.body["recorded"]) == (200, True)
    ledger = ledger_of(api, tid, tavla_id, ORGANISER)
    assert (ledger["paid"]["amount"], ledger["outstanding"]["amount"]) == (2000, 0)
    card = next(e for e in ledger["entries"] if e["method"] == "card_online")
    assert (card["recorded_by"], card["flags"]) == ("provider", [])
    assert (_checkout(api, tid).status, _checkout(api, tid).error) == (409, "nothing_to_pay")


def test_a_webhook_replayed_three_times_records_one_payment(api: Api, provider: FakeProvider) -> None:
    """R3.3: idempotent by the provider's event id: three deliveries, one payment."""
    tid, tavla_id = _entered(api)
    payload = provider.completed_event(_checkout(api, tid).body["session_id"])
    answers = [deliver(api, payload, signed(payload)) for _ in range(3)]
    assert [(a.status, a.body["recorded"]) for a in answers] == [(200, True), (200, False), (200, False)]
    assert ledger_of(api, tid, tavla_id, ORGANISER)["paid"]["amount"] == 2000


@pytest.mark.parametrize(
    "forgery", ["wrong-secret", "altered-body", "stale", "future", "far-future", "no-header", "garbage"]
)
def test_a_forged_or_stale_webhook_is_refused_and_records_nothing(
    api: Api, provider: FakeProvider, forgery: str
) -> None:
    """R3.3: 400 invalid_signature and nothing recorded for a forged, altered or stale signature,
    or one dated in the future beyond the 5 minutes' tolerance (it could be replayed for days)."""
    from local.fake_provider import signature

    tid, tavla_id = _entered(api)
    payload = provider.completed_event(_checkout(api, tid).body["session_id"])
    header: str | None = {
        "wrong-secret": signature(payload, "whsec_guessed"),
        "altered-body": signed(payload),
        "stale": signed(payload, int(time.time()) - 301),
        "future": signed(payload, int(time.time()) + 600),
        "far-future": signed(payload, int(time.time()) + 86_400 * 365),
        "no-header": None,
        "garbage": "t=abc,v1=zz",
    }[forgery]
    body = (
        payload.replace('"amount_total": 2000', '"amount_total": 1') if forgery == "altered-body" else payload
    )
    reply = deliver(api, body, header)
    assert (reply.status, reply.error) == (400, "invalid_signature")
    assert ledger_of(api, tid, tavla_id, ORGANISER)["entries"] == []


def test_a_signature_a_little_ahead_of_our_clock_is_accepted(api: Api, provider: FakeProvider) -> None:
    """R3.3: the provider's clock may run a minute ahead of ours: within the tolerance, recorded."""
    tid, tavla_id = _entered(api)
    payload = provider.completed_event(_checkout(api, tid).body["session_id"])
    reply = deliver(api, payload, signed(payload, int(time.time()) + 60))
    assert (reply.status, reply.body["recorded"]) == (200, True)
    assert ledger_of(api, tid, tavla_id, ORGANISER)["paid"]["amount"] == 2000


def test_the_providers_amount_is_the_truth_and_a_mismatch_is_flagged(
    api: Api, provider: FakeProvider
) -> None:
    """R3.3: the provider reports 15.00 for a 20.00 checkout: 15.00 is recorded, flagged for the organiser."""
    tid, tavla_id = _entered(api)
    payload = provider.completed_event(_checkout(api, tid).body["session_id"], amount=1500)
    assert deliver(api, payload, signed(payload)).status == 200
    ledger = ledger_of(api, tid, tavla_id, ORGANISER)
    [card] = ledger["entries"]
    assert (card["amount"]["amount"], card["flags"], card["expected"]["amount"]) == (
        1500,
        ["amount_mismatch"],
        2000,
    )
    assert ledger["outstanding"]["amount"] == 500


def test_an_event_that_is_not_a_payment_is_acknowledged_and_ignored(api: Api, provider: FakeProvider) -> None:
    """The provider sends many kinds of events; those that pay nothing record nothing."""
    tid, tavla_id = _entered(api)
    payload = json.dumps({"id": "evt_1", "type": "customer.created", "created": 0, "data": {"object": {}}})
    reply = deliver(api, payload, signed(payload))
    assert (reply.status, reply.body["recorded"]) == (200, False)
    assert ledger_of(api, tid, tavla_id, ORGANISER)["entries"] == []


def test_only_a_main_list_entry_starts_a_checkout(api: Api, provider: FakeProvider) -> None:
    """R3.3: someone not entered has nothing to pay for: 409 and no session at the provider."""
    tid, _ = _entered(api)
    create_player(api, "outsider")
    reply = _checkout(api, tid, user="outsider")
    assert (reply.status, reply.error) == (409, "not_registered")
    assert provider.sessions == {}


def test_a_payment_valued_on_the_last_early_day_earns_the_early_bird_fee(api: Api) -> None:
    """R3.4: paid (at the venue) before the early-bird deadline, the early-bird fee is what is due."""
    deadline = (datetime.now(UTC) + timedelta(days=2)).isoformat()
    tid, tavla_id = _entered(
        api, early_bird_fee={"amount": 1500, "currency": "EUR"}, early_bird_deadline=deadline
    )
    assert ledger_of(api, tid, tavla_id, ORGANISER)["due"]["amount"] == 1500  # still early: early fee
    reply = _venue(api, tid, tavla_id, 1500)
    assert (reply.body["due"]["amount"], reply.body["balance"], reply.body["early_bird"]) == (1500, 0, True)


def _early_bird(api: Api) -> tuple[str, str]:
    """Fee 25.00, early bird 20.00 until 10 days from now (R3.4)."""
    return _entered(
        api,
        entry_fee={"amount": 2500, "currency": "EUR"},
        early_bird_fee={"amount": 2000, "currency": "EUR"},
        early_bird_deadline=(datetime.now(UTC) + timedelta(days=8)).isoformat(),
        starts_at=(datetime.now(UTC) + timedelta(days=12)).isoformat(),
        registration_closes_at=(datetime.now(UTC) + timedelta(days=11)).isoformat(),
    )


def test_during_the_early_bird_the_page_and_the_checkout_ask_the_early_fee(
    api: Api, provider: FakeProvider
) -> None:
    """R3.4: before the deadline nothing is paid yet, and what is due is the early-bird fee:
    my payments, the organiser's ledger and the card checkout all say 20.00, not 25.00, and
    paying it settles the entry (no 5.00 surplus nobody sees)."""
    tid, tavla_id = _early_bird(api)
    [mine] = api.call("GET", "/me/payments", user="payer").body["ledgers"]
    assert (mine["due"]["amount"], mine["outstanding"]["amount"], mine["early_bird"]) == (2000, 2000, True)
    assert ledger_of(api, tid, tavla_id, ORGANISER)["due"]["amount"] == 2000
    started = _checkout(api, tid)
    assert started.body["amount"]["amount"] == 2000
    payload = provider.completed_event(started.body["session_id"])
    assert deliver(api, payload, signed(payload)).body["recorded"] is True
    ledger = ledger_of(api, tid, tavla_id, ORGANISER)
    assert (ledger["due"]["amount"], ledger["paid"]["amount"], ledger["balance"]) == (2000, 2000, 0)
    assert ledger["entries"][0]["flags"] == []


def test_an_overpaid_card_payment_leaves_a_card_refund_due(api: Api, provider: FakeProvider) -> None:
    """R3.3, R3.5: the provider reports 25.00 for a 20.00 checkout: 25.00 is recorded, and the
    5.00 surplus is a refund due on the organiser's list, paid back through the provider."""
    tid, tavla_id = _entered(api)
    payload = provider.completed_event(_checkout(api, tid).body["session_id"], amount=2500)
    assert deliver(api, payload, signed(payload)).body["recorded"] is True
    listed = api.call(
        "GET", "/tournaments/{tournament_id}/refunds", params={"tournament_id": tid}, user=ORGANISER
    )
    [refund] = listed.body["refunds"]
    assert (refund["tavla_id"], refund["amount"]["amount"], refund["method"], refund["flags"]) == (
        tavla_id,
        500,
        "provider_refund",
        ["surplus"],
    )
    paid = api.call(
        "POST",
        "/tournaments/{tournament_id}/refunds/{entry_id}/paid",
        params={"tournament_id": tid, "entry_id": refund["id"]},
        user=ORGANISER,
    )
    assert paid.body["status"] == "done" and [r["amount"] for r in provider.refunds.values()] == [500]
    ledger = ledger_of(api, tid, tavla_id, ORGANISER)
    assert (ledger["paid"]["amount"], ledger["refunded"]["amount"], ledger["balance"]) == (2500, 500, 0)
