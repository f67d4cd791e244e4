"""Refunds on withdrawal (R3.5): by the organiser's policy before registration closes, none
after the draw; card refunds back through the provider once, bank refunds a list marked paid."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from local.fake_provider import FakeProvider
from tavla import clock
from tests.service.conftest import Api
from tests.service.day_helpers import checked_in_field, draw
from tests.service.helpers import ORGANISER, bus_taking, create_player, create_tournament, register
from tests.service.payment_helpers import deliver, ledger_of, pay_cash, provider, signed
from tests.service.payment_helpers import fire_unpaid as _fire
from tests.service.payment_helpers import planned_schedules as _schedules

__all__ = ["provider"]  # the fixture


def _withdraw(api: Api, tid: str, user: str = "leaver"):
    return api.call(
        "DELETE", "/tournaments/{tournament_id}/registrations/me", params={"tournament_id": tid}, user=user
    )


def _refunds(api: Api, tid: str) -> Any:
    reply = api.call(
        "GET", "/tournaments/{tournament_id}/refunds", params={"tournament_id": tid}, user=ORGANISER
    )
    assert reply.status == 200, reply.body
    return reply.body


def _pay(api: Api, tid: str, entry_id: str):
    return api.call(
        "POST",
        "/tournaments/{tournament_id}/refunds/{entry_id}/paid",
        params={"tournament_id": tid, "entry_id": entry_id},
        user=ORGANISER,
    )


def _entered_and_paid(api: Api, **settings) -> tuple[str, str]:
    tid = create_tournament(api, **settings)
    tavla_id = create_player(api, "leaver")
    assert register(api, tid, "leaver").status == 201
    pay_cash(api, tid, tavla_id)
    return tid, tavla_id


@pytest.mark.parametrize(
    ("policy", "refund"),
    [
        ({"kind": "full"}, 2000),
        ({"kind": "percentage", "percentage": 75}, 1500),
        ({"kind": "fixed_deduction", "deduction": {"amount": 300}}, 1700),
        ({"kind": "fixed_deduction", "deduction": {"amount": 5000}}, 0),
        ({"kind": "none"}, 0),
    ],
)
def test_a_withdrawal_before_registration_closes_is_refunded_by_the_policy(
    api: Api, policy: dict, refund: int
) -> None:
    """R3.5: full, a percentage, a fixed deduction (never below 0), or none, of the 20.00 paid."""
    tid, tavla_id = _entered_and_paid(api, refund_policy=policy)
    reply = _withdraw(api, tid)
    assert reply.status == 200, reply.body
    assert reply.body["refund_due"]["amount"] == refund
    listed = _refunds(api, tid)
    assert listed["due"]["amount"] == refund
    assert [(r["tavla_id"], r["amount"]["amount"], r["status"]) for r in listed["refunds"]] == (
        [(tavla_id, refund, "due")] if refund else []
    )
    ledger = ledger_of(api, tid, tavla_id, ORGANISER)
    # the refund still to pay is money the organiser holds: the balance shows it until paid
    assert (ledger["status"], ledger["due"]["amount"], ledger["refund_due"]["amount"], ledger["balance"]) == (
        "withdrawn",
        2000 - refund,
        refund,
        refund,
    )


def test_a_bank_refund_is_marked_paid_once(api: Api) -> None:
    """R3.5: the organiser pays the bank refund and marks it; marking it again changes nothing.
    Until it is paid the ledger shows it due (balance +20.00), then balance 0."""
    tid, tavla_id = _entered_and_paid(api)
    _withdraw(api, tid)
    [refund] = _refunds(api, tid)["refunds"]
    assert refund["method"] == "bank_refund"
    before = ledger_of(api, tid, tavla_id, ORGANISER)
    assert (before["refunded"]["amount"], before["refund_due"]["amount"], before["balance"]) == (
        0,
        2000,
        2000,
    )
    totals = api.call(
        "GET", "/tournaments/{tournament_id}/payments", params={"tournament_id": tid}, user=ORGANISER
    ).body
    # a refund owed is not the tournament's money: nothing collected, all of it due back
    assert (totals["collected"]["amount"], totals["refunds_due"]["amount"]) == (0, 2000)
    assert totals["figures"]["received"]["amount"] == totals["figures"]["held"]["amount"] == 2000
    first = _pay(api, tid, refund["id"])
    assert (first.status, first.body["status"]) == (200, "done")
    again = _pay(api, tid, refund["id"])
    assert (again.status, again.body) == (200, first.body)
    assert _refunds(api, tid)["due"]["amount"] == 0
    after = ledger_of(api, tid, tavla_id, ORGANISER)
    assert (after["refunded"]["amount"], after["refund_due"]["amount"], after["balance"]) == (2000, 0, 0)
    trail = api.call(
        "GET", "/tournaments/{tournament_id}/audit", params={"tournament_id": tid}, user=ORGANISER
    )
    assert [a["action"] for a in trail.body["records"]].count("refund_paid") == 1


def _paid_by_card(api: Api, provider: FakeProvider, **settings: Any) -> tuple[str, str]:
    tid = create_tournament(api, **settings)
    tavla_id = create_player(api, "leaver")
    assert register(api, tid, "leaver").status == 201
    started = api.call(
        "POST", "/tournaments/{tournament_id}/payments/checkout", params={"tournament_id": tid}, user="leaver"
    )
    payload = provider.completed_event(started.body["session_id"])
    assert deliver(api, payload, signed(payload)).status == 200
    return tid, tavla_id


def test_a_card_refund_goes_back_through_the_provider_at_withdrawal_once(
    api: Api, provider: FakeProvider
) -> None:
    """R3.5: withdrawing refunds the card payment through the provider at once (no organiser
    needed); the organiser paying it again, or a retry firing, refunds nothing more
    (the provider's idempotency key)."""
    tid, tavla_id = _paid_by_card(api, provider, refund_policy={"kind": "percentage", "percentage": 50})
    assert _withdraw(api, tid).body["refund_due"]["amount"] == 1000
    [(key, at_provider)] = provider.refunds.items()
    assert at_provider["amount"] == 1000
    [refund] = _refunds(api, tid)["refunds"]
    assert (refund["method"], refund["amount"]["amount"], refund["status"], refund["receipt"]) == (
        "provider_refund",
        1000,
        "done",
        at_provider["id"],
    )
    assert key == f"{tid}.{refund['id']}"
    ledger = ledger_of(api, tid, tavla_id, ORGANISER)
    assert (ledger["refunded"]["amount"], ledger["refund_due"]["amount"], ledger["balance"]) == (1000, 0, 0)
    again = [_pay(api, tid, refund["id"]) for _ in range(2)]
    assert [p.status for p in again] == [200, 200]
    assert again[0].body["receipt"] == at_provider["id"]
    for payload in _schedules().values():
        assert _fire(payload)["card_refunds_due"] == 0
    assert len(provider.refunds) == 1


def test_a_provider_failure_leaves_the_card_refund_due_and_it_is_retried(
    api: Api, provider: FakeProvider
) -> None:
    """R3.5: the provider fails at withdrawal: the withdrawal stands, the refund is due, shown
    in the ledger and on the refund list; the organiser cannot pay it yet (503); the scheduled
    retry sends it once the provider is back, once, with the same idempotency key."""
    tid, tavla_id = _paid_by_card(api, provider)
    provider.refunds_down = True
    reply = _withdraw(api, tid)
    assert (reply.status, reply.body["refund_due"]["amount"]) == (200, 2000)
    assert provider.refunds == {}
    [refund] = _refunds(api, tid)["refunds"]
    assert (refund["method"], refund["status"]) == ("provider_refund", "due")
    assert _refunds(api, tid)["due"]["amount"] == 2000
    ledger = ledger_of(api, tid, tavla_id, ORGANISER)
    assert (ledger["status"], ledger["refund_due"]["amount"], ledger["balance"]) == ("withdrawn", 2000, 2000)
    by_hand = _pay(api, tid, refund["id"])
    assert (by_hand.status, by_hand.error) == (503, "provider_unavailable")
    retries = sorted(_schedules().values(), key=lambda p: p["attempt"])
    assert [(p["step"], p["tavla_id"], p["attempt"]) for p in retries] == [
        ("card_refunds", tavla_id, n) for n in (1, 2, 3, 4)
    ]
    assert _fire(retries[0])["card_refunds_due"] == 1  # still failing: still due
    assert _refunds(api, tid)["due"]["amount"] == 2000
    provider.refunds_down = False
    assert _fire(retries[1])["card_refunds_due"] == 0
    assert [_fire(p)["card_refunds_due"] for p in retries[1:]] == [0, 0, 0]
    [(key, at_provider)] = provider.refunds.items()
    assert (key, at_provider["amount"]) == (f"{tid}.{refund['id']}", 2000)
    done = ledger_of(api, tid, tavla_id, ORGANISER)
    assert (done["refunded"]["amount"], done["refund_due"]["amount"], done["balance"]) == (2000, 0, 0)
    trail = api.call(
        "GET", "/tournaments/{tournament_id}/audit", params={"tournament_id": tid}, user=ORGANISER
    )
    assert [a["action"] for a in trail.body["records"]].count("refund_paid") == 1


def test_card_and_cash_paid_the_card_part_goes_back_by_card_the_rest_is_on_the_bank_list(
    api: Api, provider: FakeProvider
) -> None:
    """R3.5: 10.00 by card, 10.00 in cash, full refund: the card 10.00 back through the
    provider at once; the other 10.00 stays due on the organiser's list (bank)."""
    tid = create_tournament(api)
    tavla_id = create_player(api, "leaver")
    assert register(api, tid, "leaver").status == 201
    pay_cash(api, tid, tavla_id, 1000)
    started = api.call(
        "POST", "/tournaments/{tournament_id}/payments/checkout", params={"tournament_id": tid}, user="leaver"
    )
    assert started.body["amount"]["amount"] == 1000
    payload = provider.completed_event(started.body["session_id"])
    assert deliver(api, payload, signed(payload)).status == 200
    assert _withdraw(api, tid).body["refund_due"]["amount"] == 2000
    listed = _refunds(api, tid)
    assert sorted((r["method"], r["amount"]["amount"], r["status"]) for r in listed["refunds"]) == [
        ("bank_refund", 1000, "due"),
        ("provider_refund", 1000, "done"),
    ]
    assert listed["due"]["amount"] == 1000
    assert [r["amount"] for r in provider.refunds.values()] == [1000]
    ledger = ledger_of(api, tid, tavla_id, ORGANISER)
    assert (ledger["refunded"]["amount"], ledger["refund_due"]["amount"], ledger["balance"]) == (
        1000,
        1000,
        1000,
    )


def test_no_refund_after_the_draw(api: Api) -> None:
    """R3.5: after the draw, withdrawing refunds nothing, by the player's own withdrawal or the
    staff's."""
    tid, players = checked_in_field(api, 4, refund_policy={"kind": "full"})
    pay_cash(api, tid, players[0])
    pay_cash(api, tid, players[1])
    assert draw(api, tid).status == 201
    mine = _withdraw(api, tid, user="player-0")
    assert (mine.status, mine.body["refund_due"]["amount"], mine.body["refund"]) == (200, 0, "none")
    reply = api.call(
        "POST",
        "/tournaments/{tournament_id}/withdrawals",
        params={"tournament_id": tid},
        body={"tavla_id": players[1]},
        user=ORGANISER,
    )
    assert reply.status == 201, reply.body
    assert _refunds(api, tid)["refunds"] == []


def test_no_refund_once_registration_has_closed(api: Api) -> None:
    """R3.5: a withdrawal after registration closed (before the draw) refunds nothing."""
    tid, _ = _entered_and_paid(api)
    clock.advance(timedelta(days=9, hours=1))  # registration closes 9 days ahead (helpers)
    reply = _withdraw(api, tid)
    assert (reply.status, reply.body["refund_due"]["amount"]) == (200, 0)
    assert _refunds(api, tid)["refunds"] == []


def test_an_unknown_refund_is_404(api: Api) -> None:
    tid, _ = _entered_and_paid(api)
    reply = _pay(api, tid, "refund.nothing")
    assert (reply.status, reply.error) == (404, "payment_not_found")


def test_the_only_waiting_player_may_withdraw_and_is_refunded(api: Api) -> None:
    """R3.2, R3.5: the head of the waiting list withdraws (no one to promote): 200, refund due.

    (It used to answer 500: the withdrawal tried to promote the leaver in the same transaction.)
    """
    tid = create_tournament(api, capacity=2)
    for user in ("first", "second"):
        create_player(api, user)
        assert register(api, tid, user).status == 201
    tavla_id = create_player(api, "leaver")
    assert register(api, tid, "leaver").body["status"] == "waitlisted"
    pay_cash(api, tid, tavla_id)
    reply = _withdraw(api, tid)
    assert (reply.status, reply.body["refund_due"]["amount"], reply.body["promoted"]) == (200, 2000, None)
    entries = api.call("GET", "/tournaments/{tournament_id}/entries", params={"tournament_id": tid}).body
    assert entries["waiting"] == [] and len(entries["main"]) == 2


def test_a_withdrawal_and_its_refund_are_written_together(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """R3.5: the refund due is written in the withdrawal's own transaction. A withdrawal that
    cannot be written leaves the player entered and no refund; one that is written keeps its
    refund even when the bus is down (telling the promoted player waits in the outbox)."""
    from tavla.errors import Busy
    from tavla.services import registrations
    from tavla.store import registrations as registration_store

    tid, tavla_id = _entered_and_paid(api, capacity=2)
    for user, status in (("second", "registered"), ("waiting", "waitlisted")):
        create_player(api, user)
        assert register(api, tid, user).body["status"] == status

    with monkeypatch.context() as busy:
        busy.setattr(registration_store, "withdraw", _always_contended)
        busy.setattr(registrations, "_backoff", lambda *_: None)
        reply = _withdraw(api, tid)
        assert (reply.status, reply.error) == (503, Busy.code)
    assert _refunds(api, tid)["refunds"] == []
    entries = api.call("GET", "/tournaments/{tournament_id}/entries", params={"tournament_id": tid}).body
    assert tavla_id in [e["tavla_id"] for e in entries["main"]]

    def bus_down(*_: Any) -> None:
        raise RuntimeError("the event bus did not answer")

    from tavla import events
    from tavla.store import outbox

    monkeypatch.setattr(events, "put_on_bus", bus_taking(bus_down))
    assert _withdraw(api, tid).status == 200
    due = [(r["tavla_id"], r["amount"]["amount"]) for r in _refunds(api, tid)["refunds"]]
    assert due == [(tavla_id, 2000)]
    # the promoted player's notice and the open screens' hint both wait for the bus
    waiting = sorted(e.detail_type for e in outbox.waiting())
    assert waiting == sorted([events.ENTRIES_CHANGED, events.REGISTRATION_PROMOTED])


def _always_contended(*_: Any) -> None:
    from tavla.store import registrations as registration_store

    raise registration_store.Contended


def test_the_treasurers_lists_name_the_players_and_an_erased_one_by_pseudonym(api: Api) -> None:
    """R3.3, R12: the payments list and the refunds list name each player (the Tavla ID beside,
    for the routes that take it); once the withdrawn player erases her account, both name
    her by the pseudonym that replaced her name, never her name."""
    tid = create_tournament(api, refund_policy={"kind": "full"})
    leaver = create_player(api, "leaver", name="Eleni Papadopoulou")
    stays = create_player(api, "stays", name="Nikos Kanellis")
    for user, tavla_id in (("leaver", leaver), ("stays", stays)):
        assert register(api, tid, user).status == 201
        pay_cash(api, tid, tavla_id)
    assert _withdraw(api, tid).status == 200

    def listed() -> tuple[dict[str, str | None], list[tuple[str, str | None]], str]:
        payments = api.call(
            "GET", "/tournaments/{tournament_id}/payments", params={"tournament_id": tid}, user=ORGANISER
        )
        refunds = _refunds(api, tid)
        return (
            {lg["tavla_id"]: lg["name"] for lg in payments.body["ledgers"]},
            [(r["tavla_id"], r["name"]) for r in refunds["refunds"]],
            str(payments.body) + str(refunds),
        )

    names, refunds, _ = listed()
    assert names == {leaver: "Eleni Papadopoulou", stays: "Nikos Kanellis"}
    assert refunds == [(leaver, "Eleni Papadopoulou")]
    erased = api.call("POST", "/me/erasure", body={"confirm": leaver.lower()}, user="leaver")
    assert erased.status == 200, erased.body
    pseudonym = erased.body["pseudonym"]
    names, refunds, shown = listed()
    assert names == {leaver: pseudonym, stays: "Nikos Kanellis"}
    assert refunds == [(leaver, pseudonym)]
    assert "Eleni" not in shown
