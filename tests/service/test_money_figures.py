"""One word per figure (R3.3, R3.5, R11.2, R11.5, R2.3): received, refunded, refunds due,
collected, pool, paid out and held mean the same on the payments page, the prize list and
the federation report, for one tournament with every kind of movement."""

from __future__ import annotations

from typing import Any

from local.fake_provider import FakeProvider
from tests.service.board_helpers import play_out
from tests.service.conftest import Api
from tests.service.day_helpers import checked_in_field, draw
from tests.service.helpers import ORGANISER, create_player, register
from tests.service.payment_helpers import deliver, pay_cash, provider, signed

__all__ = ["provider"]  # the fixture

PRIZES = [{"places": [1, 1], "kind": "money", "pool_percentage": 60}]


def _get(api: Api, path: str, tid: str) -> Any:
    reply = api.call("GET", path, params={"tournament_id": tid}, user=ORGANISER)
    assert reply.status == 200, reply.body
    return reply.body


def _post(api: Api, path: str, params: dict[str, str], user: str = ORGANISER, body: Any = None) -> Any:
    reply = api.call("POST", path, params=params, user=user, body=body)
    assert reply.status in (200, 201), reply.body
    return reply.body


def test_the_money_figures_agree_across_every_route(api: Api, provider: FakeProvider) -> None:
    """Three players pay 10.01 cash; one pays 30.00 by card for a 20.00 fee (a 10.00 surplus,
    still due); a waiting player pays 20.00 and withdraws, refunded in full and paid back; the
    champion is paid 5.00 of their prize. received 80.03, refunded 20.00, refunds due 10.00,
    collected 50.03 (what the tournament keeps), pool 50.03, paid out 5.00, held 55.03: the
    same on the payments page, the prize list and the federation report."""
    tid, players = checked_in_field(api, 4, prizes=PRIZES, refund_policy={"kind": "full"})
    for tavla_id in players[1:]:
        pay_cash(api, tid, tavla_id, 1001)
    checkout = _post(
        api, "/tournaments/{tournament_id}/payments/checkout", {"tournament_id": tid}, "player-0"
    )
    payload = provider.completed_event(checkout["session_id"], amount=3000)
    assert deliver(api, payload, signed(payload)).body["recorded"] is True
    late = create_player(api, "latecomer")
    assert register(api, tid, "latecomer").body["status"] == "waitlisted"
    pay_cash(api, tid, late, 2000)
    left = api.call(
        "DELETE",
        "/tournaments/{tournament_id}/registrations/me",
        params={"tournament_id": tid},
        user="latecomer",
    )
    assert left.body["refund_due"]["amount"] == 2000
    [bank] = [
        r for r in _get(api, "/tournaments/{tournament_id}/refunds", tid)["refunds"] if r["tavla_id"] == late
    ]
    _post(
        api,
        "/tournaments/{tournament_id}/refunds/{entry_id}/paid",
        {"tournament_id": tid, "entry_id": bank["id"]},
    )
    assert draw(api, tid).status == 201
    play_out(tid)
    _post(api, "/tournaments/{tournament_id}/finish", {"tournament_id": tid})
    table = _get(api, "/tournaments/{tournament_id}/prizes", tid)
    [champion] = [a["tavla_id"] for a in table["awards"] if a["place"] == "1"]
    _post(
        api,
        "/tournaments/{tournament_id}/prizes/payouts",
        {"tournament_id": tid},
        body={"tavla_id": champion, "amount": {"amount": 500}},
    )
    expected = {
        "received": 8003,
        "refunded": 2000,
        "refunds_due": 1000,
        "collected": 5003,
        "pool": 5003,
        "paid_out": 500,
        "held": 5503,
    }
    page = _get(api, "/tournaments/{tournament_id}/payments", tid)
    report = _get(api, "/tournaments/{tournament_id}/report", tid)
    table = _get(api, "/tournaments/{tournament_id}/prizes", tid)
    payouts = _get(api, "/tournaments/{tournament_id}/prizes/payouts", tid)
    for figures in (page["figures"], report["money"]):
        assert {k: v["amount"] for k, v in figures.items()} == expected
    assert (page["collected"]["amount"], page["refunds_due"]["amount"]) == (5003, 1000)
    assert (table["collected"]["amount"], table["pool"]["amount"]) == (5003, 5003)
    assert payouts["paid"]["amount"] == 500
    ledgers = page["ledgers"]
    assert sum(lg["paid"]["amount"] for lg in ledgers) == expected["received"]
    assert sum(lg["refunded"]["amount"] for lg in ledgers) == expected["refunded"]
    assert sum(lg["refund_due"]["amount"] for lg in ledgers) == expected["refunds_due"]
