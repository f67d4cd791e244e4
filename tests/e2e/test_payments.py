"""Card payments on the local stack: the fake provider's checkout page and signed
webhooks, the real verification, DynamoDB Local's conditions under simultaneous deliveries."""

from __future__ import annotations

import requests

from tests.e2e.client import Client, tournament
from tests.e2e.conftest import Stack


def _checkout(client: Client, prefix: str) -> tuple[str, str, str, dict[str, str]]:
    organiser, player = f"{prefix}-organiser", f"{prefix}-player"
    tid = tournament(client, organiser, capacity=8)
    tavla_id = client.call("POST", "/players", {"name": "Card Payer"}, user=player).body["tavla_id"]
    assert client.call("POST", f"/tournaments/{tid}/registrations", user=player).status == 201
    started = client.call("POST", f"/tournaments/{tid}/payments/checkout", user=player)
    assert started.status == 201, started.body
    assert started.body["amount"] == {"amount": 3000, "currency": "EUR"}
    return tid, tavla_id, organiser, started.body


def _ledger(client: Client, tid: str, tavla_id: str, organiser: str) -> dict:
    reply = client.call("GET", f"/tournaments/{tid}/payments", user=organiser, groups=("organisers",))
    assert reply.status == 200, reply.body
    return next(lg for lg in reply.body["ledgers"] if lg["tavla_id"] == tavla_id)


def test_paying_on_the_fake_checkout_page_records_the_payment(stack: Stack) -> None:
    """R3.3: the player opens the provider's page, pays; the signed webhook arrives and is verified."""
    client = Client(stack)
    tid, tavla_id, organiser, started = _checkout(client, "card-page")
    page = requests.get(started["checkout_url"], timeout=10)
    assert page.status_code == 200 and "30.00 EUR" in page.text
    paid = requests.post(f"{started['checkout_url']}/pay", timeout=30)
    assert paid.json() == {"delivered": 200}
    ledger = _ledger(client, tid, tavla_id, organiser)
    assert (ledger["paid"]["amount"], ledger["outstanding"]["amount"]) == (3000, 0)


def test_two_simultaneous_deliveries_of_one_event_record_one_payment(stack: Stack) -> None:
    """R3.3: the same signed event delivered 8 times at once: one payment (a DynamoDB condition)."""
    client = Client(stack)
    tid, tavla_id, organiser, started = _checkout(client, "card-race")
    event = requests.post(f"{started['checkout_url']}/pay?deliver=0", timeout=30).json()
    headers = {"content-type": "application/json", "stripe-signature": event["signature"]}

    def deliver(_: int) -> requests.Response:
        return requests.post(
            f"{stack.url}/webhooks/payments", data=event["payload"], headers=headers, timeout=30
        )

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=8) as pool:
        replies = list(pool.map(deliver, range(8)))
    assert [r.status_code for r in replies] == [200] * 8, [r.text for r in replies]
    assert sorted(r.json()["recorded"] for r in replies) == [False] * 7 + [True]
    ledger = _ledger(client, tid, tavla_id, organiser)
    assert ledger["paid"]["amount"] == 3000 and len(ledger["entries"]) == 1


def test_withdrawing_refunds_the_card_through_the_provider_at_once(stack: Stack) -> None:
    """R3.5: paid on the provider's page, then withdrawn before registration closes:
    the card refund goes back through the fake provider's HTTP API at withdrawal, no organiser
    needed; the ledger shows it refunded (balance 0) and the refund list has nothing due."""
    client = Client(stack)
    tid, tavla_id, organiser, started = _checkout(client, "card-refund")
    assert requests.post(f"{started['checkout_url']}/pay", timeout=30).json() == {"delivered": 200}
    withdrawn = client.call("DELETE", f"/tournaments/{tid}/registrations/me", user="card-refund-player")
    assert (withdrawn.status, withdrawn.body["refund_due"]["amount"]) == (200, 3000), withdrawn.body
    ledger = _ledger(client, tid, tavla_id, organiser)
    assert (ledger["refunded"]["amount"], ledger["refund_due"]["amount"], ledger["balance"]) == (3000, 0, 0)
    [refund] = [e for e in ledger["entries"] if e["kind"] == "refund"]
    assert (refund["method"], refund["status"]) == ("provider_refund", "done")
    assert refund["receipt"].startswith("re_")
    listed = client.call("GET", f"/tournaments/{tid}/refunds", user=organiser, groups=("organisers",))
    assert listed.body["due"]["amount"] == 0


def test_a_large_statement_is_imported_in_the_background_with_its_progress(stack: Stack) -> None:
    """R3.3: 600 credit lines over HTTP: 202 at once, stored in the local S3; the statements job
    (a bus event) imports it while the organiser reads its progress; the entry fee is paid."""
    client = Client(stack)
    organiser, player = "bulk-organiser", "bulk-player"
    tid = tournament(client, organiser, capacity=8)
    tavla_id = client.call("POST", "/players", {"name": "Bank Payer"}, user=player).body["tavla_id"]
    code = client.call("POST", f"/tournaments/{tid}/registrations", user=player).body["checkin_code"]
    rows = ["Date;Amount;Description;Payer", f"01/11/2026;30,00;Entry fee {code};Bank Payer"]
    rows += [f"02/11/2026;{1 + i % 50},00;club dues {i};Member {i}" for i in range(599)]
    mapping = {"value_date": "Date", "amount": "Amount", "reference": "Description", "payer": "Payer"}
    body = {
        "format": "csv",
        "content": "\n".join(rows),
        "mapping": {**mapping, "decimal_comma": True, "date_format": "31/12/2026", "delimiter": ";"},
    }
    groups = ("organisers",)
    queued = client.call("POST", f"/tournaments/{tid}/bank-statements", body, user=organiser, groups=groups)
    assert queued.status == 202, queued.body
    assert (queued.body["state"], queued.body["total"]) == ("queued", 600)
    progress = f"/tournaments/{tid}/bank-statements/{queued.body['statement_id']}"
    stack.drain()  # the outbox's event to the bus, the bus to the statements job
    done = client.call("GET", progress, user=organiser, groups=groups)
    assert done.status == 200, done.body
    assert (done.body["state"], done.body["done"]) == ("done", 600), done.body
    assert done.body["counts"] == {"matched": 1, "unmatched": 599}
    assert _ledger(client, tid, tavla_id, organiser)["paid"]["amount"] == 3000
