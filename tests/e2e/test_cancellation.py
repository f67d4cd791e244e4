"""A tournament cancelled and one postponed, over HTTP on the local stack (R2, R3.5): money
back in full, entrants told through the bus and the notify function, the dates moved."""

from __future__ import annotations

from datetime import datetime, timedelta

import requests

from tests.e2e.client import Client, tournament
from tests.e2e.conftest import Stack

ORGANISER = ("organisers",)


def _entered(client: Client, tid: str, user: str, name: str) -> str:
    tavla_id = str(client.call("POST", "/players", {"name": name}, user=user).body["tavla_id"])
    assert client.call("POST", f"/tournaments/{tid}/registrations", user=user).status == 201
    return tavla_id


def _feed(client: Client, user: str) -> list[str]:
    return [n["message"] for n in client.call("GET", "/me/notifications", user=user).body]


def test_a_cancelled_tournament_refunds_card_and_cash_in_full_and_tells_its_entrants(stack: Stack) -> None:
    """R3.5: a card payment back through the provider, a cash one on the refund list, whatever
    the policy; the page says cancelled; both entrants read it in Greek."""
    client = Client(stack)
    organiser = "cancel-organiser"
    tid = tournament(client, organiser, refund_policy={"kind": "none"})
    card = _entered(client, tid, "cancel-card", "Card Payer")
    cash = _entered(client, tid, "cancel-cash", "Cash Payer")
    started = client.call("POST", f"/tournaments/{tid}/payments/checkout", user="cancel-card").body
    assert requests.post(f"{started['checkout_url']}/pay", timeout=30).json() == {"delivered": 200}
    paid = client.call(
        "POST",
        f"/tournaments/{tid}/payments",
        {"tavla_id": cash, "method": "cash", "amount": {"amount": 3000}},
        user=organiser,
        groups=ORGANISER,
    )
    assert paid.status == 201, paid.body
    reply = client.call(
        "POST", f"/tournaments/{tid}/cancel", {"reason": "venue flooded"}, user=organiser, groups=ORGANISER
    )
    assert reply.status == 200, reply.body
    assert (reply.body["refunds_written"], reply.body["refunds_due"]["amount"]) == (2, 3000)
    listed = client.call("GET", f"/tournaments/{tid}/refunds", user=organiser, groups=ORGANISER).body[
        "refunds"
    ]
    assert sorted((r["tavla_id"], r["method"], r["amount"]["amount"], r["status"]) for r in listed) == sorted(
        [(card, "provider_refund", 3000, "done"), (cash, "bank_refund", 3000, "due")]
    )
    assert client.call("GET", f"/tournaments/{tid}").body["status"] == "cancelled"
    stack.drain()
    for user in ("cancel-card", "cancel-cash"):
        assert any("ακυρώθηκε" in m for m in _feed(client, user))
    again = client.call("POST", f"/tournaments/{tid}/cancel", {}, user=organiser, groups=ORGANISER)
    assert (again.status, again.body["changed"], again.body["refunds_written"]) == (200, False, 0)


def test_a_postponed_tournament_keeps_its_entrants_and_refunds_a_withdrawal_in_full(stack: Stack) -> None:
    """R3.5: the dates move by a week; the entrant is told and may withdraw with everything back."""
    client = Client(stack)
    organiser = "postpone-organiser"
    tid = tournament(client, organiser, refund_policy={"kind": "none"})
    player = _entered(client, tid, "postpone-player", "Moved Player")
    assert (
        client.call(
            "POST",
            f"/tournaments/{tid}/payments",
            {"tavla_id": player, "method": "cash", "amount": {"amount": 3000}},
            user=organiser,
            groups=ORGANISER,
        ).status
        == 201
    )
    page = client.call("GET", f"/tournaments/{tid}").body
    later = datetime.fromisoformat(page["starts_at"]) + timedelta(days=7)
    reply = client.call(
        "POST",
        f"/tournaments/{tid}/postpone",
        {"starts_at": later.isoformat()},
        user=organiser,
        groups=ORGANISER,
    )
    assert reply.status == 200, reply.body
    moved = datetime.fromisoformat(reply.body["registration_closes_at"])
    assert moved == datetime.fromisoformat(page["registration_closes_at"]) + timedelta(days=7)
    stack.drain()
    assert any("μετατέθηκε" in m for m in _feed(client, "postpone-player"))
    gone = client.call("DELETE", f"/tournaments/{tid}/registrations/me", user="postpone-player")
    assert (gone.status, gone.body["refund_due"]["amount"]) == (200, 3000)
