"""Prizes at finish (R11, R8.3): the pool from fees actually collected net of refunds, split to
the cent, shared places sharing equally, the disqualified winning nothing, payouts recorded."""

from __future__ import annotations

from typing import Any

from tests.service.board_helpers import play_out, records, set_field, settle
from tests.service.conftest import Api
from tests.service.day_helpers import checked_in_field, draw
from tests.service.helpers import ORGANISER, create_player, register
from tests.service.payment_helpers import pay_cash

PRIZES = [
    {"places": [1, 1], "kind": "money", "pool_percentage": 50},
    {"places": [1, 1], "kind": "cup", "description": "Champion"},
    {"places": [2, 2], "kind": "money", "pool_percentage": 30},
    {"places": [3, 4], "kind": "money", "pool_percentage": 10},
]


def _table(api: Api, tid: str) -> Any:
    reply = api.call("GET", "/tournaments/{tournament_id}/prizes", params={"tournament_id": tid})
    assert reply.status == 200, reply.body
    return reply.body


def _payout(api: Api, tid: str, tavla_id: str, user: str = ORGANISER) -> Any:
    return api.call(
        "POST",
        "/tournaments/{tournament_id}/prizes/payouts",
        params={"tournament_id": tid},
        body={"tavla_id": tavla_id, "method": "bank_transfer"},
        user=user,
    )


def _finished_with_a_cheat(api: Api) -> tuple[str, str, list[str]]:
    """8 players paid 10.01 each; a waiting player paid 20.00 and withdrew (refunded in full);
    the winner of main.R1.1 is disqualified after round 1 and the day played out."""
    tid, players = checked_in_field(api, 8, prizes=PRIZES, refund_policy={"kind": "full"})
    for tavla_id in players:
        pay_cash(api, tid, tavla_id, 1001)
    late = create_player(api, "latecomer")
    assert register(api, tid, "latecomer").body["status"] == "waitlisted"
    pay_cash(api, tid, late, 2000)
    withdrawn = api.call(
        "DELETE",
        "/tournaments/{tournament_id}/registrations/me",
        params={"tournament_id": tid},
        user="latecomer",
    )
    assert withdrawn.body["refund_due"]["amount"] == 2000
    assert _table(api, tid)["final"] is False
    assert draw(api, tid).status == 201
    settle(tid, "main.R1.1", True, 7, 3)
    cheat = records(tid)["main.R1.1"].home
    assert cheat is not None
    set_field(tid, disqualified=[cheat])
    for code in ("main.R1.2", "main.R1.3", "main.R1.4"):
        settle(tid, code, True, 7, 3)
    assert draw(api, tid).status in (201, 409)  # elimination: the bracket may be drawn whole
    play_out(tid)
    finished = api.call(
        "POST", "/tournaments/{tournament_id}/finish", params={"tournament_id": tid}, user=ORGANISER
    )
    assert finished.status == 200, finished.body
    return tid, cheat, players


def test_the_pool_is_split_to_the_cent_and_paid_out_in_full(api: Api) -> None:
    """R11.2, R11.3, R8.3: pool 80.08 (net of the 20.00 refund); shares 50/30/10/10 finalised by
    largest remainder; the disqualified player has no place and wins nothing; a shared place
    splits its money equally (a cent left over goes to the first in seed order); the sum of the
    payouts is the pool, to the cent."""
    tid, cheat, _ = _finished_with_a_cheat(api)
    table = _table(api, tid)
    assert table["final"] is True
    assert (table["collected"]["amount"], table["pool"]["amount"], table["money_total"]["amount"]) == (
        8008,
        8008,
        8008,
    )
    awards = table["awards"]
    assert cheat not in [a["tavla_id"] for a in awards]
    by_place: dict[str, list[int]] = {}
    for a in awards:
        by_place.setdefault(a["place"], []).append(a["money"]["amount"])
    # 50 % of 80.08; 30 % = 24.024 -> 24.02; 10 % = 8.008 twice -> 8.01 each by largest remainder
    assert (by_place["1"], by_place["2"], by_place["3"]) == ([4004], [2402], [801])
    assert sorted(by_place["4-7"]) == [200, 200, 200, 201]  # the 4th place's 8.01 shared by four
    assert next(a for a in awards if a["place"] == "1")["items"] == ["cup: Champion"]
    winners = sorted({a["tavla_id"] for a in awards if a["money"]["amount"]})
    for tavla_id in winners:
        assert _payout(api, tid, tavla_id).status == 201
    again = _payout(api, tid, winners[0])
    assert again.status == 201 and [e["kind"] for e in again.body["entries"]].count("payout") == 1
    ledgers = api.call(
        "GET", "/tournaments/{tournament_id}/payments", params={"tournament_id": tid}, user=ORGANISER
    )
    payouts = [e for lg in ledgers.body["ledgers"] for e in lg["entries"] if e["kind"] == "payout"]
    assert sum(e["amount"]["amount"] for e in payouts) == table["pool"]["amount"]


def test_the_disqualified_and_the_prizeless_get_no_payout(api: Api) -> None:
    """R8.3, R11.5: nothing to pay the disqualified player: 409 no_prize, nothing recorded."""
    tid, cheat, _ = _finished_with_a_cheat(api)
    reply = _payout(api, tid, cheat)
    assert (reply.status, reply.error) == (409, "no_prize")


def test_no_payout_before_the_finish(api: Api) -> None:
    """R11.5: prizes are paid at the end: 409 not_finished before."""
    tid, players = checked_in_field(api, 2, prizes=PRIZES)
    reply = _payout(api, tid, players[0])
    assert (reply.status, reply.error) == (409, "not_finished")


def test_only_its_organisers_record_payouts(api: Api) -> None:
    tid, players = checked_in_field(api, 2, prizes=PRIZES)
    reply = _payout(api, tid, players[0], user="player-0")
    assert (reply.status, reply.error) == (403, "not_organiser")
