"""Prizes at finish (R11, R8.3): the pool from fees actually collected net of refunds, split to
the cent, shared places sharing equally, the disqualified winning nothing, payouts recorded."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

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


def _pay(api: Api, tid: str, tavla_id: str, amount: int | None, key: str | None = None) -> Any:
    body: dict[str, Any] = {"tavla_id": tavla_id, "method": "cash"}
    if amount is not None:
        body["amount"] = {"amount": amount}
    return api.call(
        "POST",
        "/tournaments/{tournament_id}/prizes/payouts",
        params={"tournament_id": tid},
        body=body,
        user=ORGANISER,
        headers={"Idempotency-Key": key} if key else {},
    )


def _payouts(api: Api, tid: str, user: str = ORGANISER) -> Any:
    return api.call(
        "GET", "/tournaments/{tournament_id}/prizes/payouts", params={"tournament_id": tid}, user=user
    )


def test_a_prize_is_paid_in_parts_never_beyond_what_is_left(api: Api) -> None:
    """R11.5: the champion's 40.04 paid as 10.00 then 30.04 (several payments to one winner);
    a resent payout (same Idempotency-Key) records nothing more; one cent over the rest due is
    409 over_prize, nothing recorded; the staff's payout list shows won, paid and rest due per
    winner and in all."""
    tid, _, _ = _finished_with_a_cheat(api)
    champion = next(a["tavla_id"] for a in _table(api, tid)["awards"] if a["place"] == "1")
    first = _pay(api, tid, champion, 1000, key="payout-champion-1")
    assert first.status == 201, first.body
    assert _pay(api, tid, champion, 1000, key="payout-champion-1").body == first.body
    listed = _payouts(api, tid)
    assert listed.status == 200, listed.body
    [mine] = [w for w in listed.body["winners"] if w["tavla_id"] == champion]
    assert (mine["won"]["amount"], mine["paid"]["amount"], mine["rest_due"]["amount"]) == (4004, 1000, 3004)
    over = _pay(api, tid, champion, 3005)
    assert (over.status, over.error) == (409, "over_prize")
    rest = _pay(api, tid, champion, 3004)
    assert rest.status == 201
    assert sorted(e["amount"]["amount"] for e in rest.body["entries"] if e["kind"] == "payout") == [
        1000,
        3004,
    ]
    assert (_pay(api, tid, champion, 1).status, _pay(api, tid, champion, 1).error) == (409, "over_prize")
    after = _payouts(api, tid).body
    [mine] = [w for w in after["winners"] if w["tavla_id"] == champion]
    assert (mine["paid"]["amount"], mine["rest_due"]["amount"], len(mine["payouts"])) == (4004, 0, 2)
    assert after["paid"]["amount"] + after["rest_due"]["amount"] == _table(api, tid)["money_total"]["amount"]


def test_two_payouts_at_once_cannot_pay_more_than_the_prize(api: Api) -> None:
    """R11.5: a payout that read the ledger before another was written (both saw 40.04 left)
    is refused by the store's condition on the winner's paid-out total: the two together
    never pay more than was won."""
    from tavla.services import payments as payment_service
    from tavla.store import payments as payment_store
    from tavla.store.records import SYSTEM, LedgerEntryRecord

    tid, _, _ = _finished_with_a_cheat(api)
    champion = next(a["tavla_id"] for a in _table(api, tid)["awards"] if a["place"] == "1")
    assert _pay(api, tid, champion, 3000).status == 201
    late = LedgerEntryRecord(
        id="payout.late",
        tournament_id=tid,
        tavla_id=champion,
        kind="payout",
        method="prize",
        amount=3000,
        value_date="2026-06-01T18:00:00+00:00",
        recorded_by="organiser",
        recorded_at="2026-06-01T18:00:00+00:00",
    )
    change = payment_service.audited(SYSTEM, late, datetime(2026, 6, 1, 18, tzinfo=UTC))
    with pytest.raises(payment_store.OverPaid):
        payment_store.add_payout(late, change, won=4004, paid_before=0)  # it saw nothing paid yet
    assert [e.amount for e in payment_store.entries(tid, champion) if e.kind == "payout"] == [3000]


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


# --- category prizes (R11.4)
WITH_CATEGORIES: dict[str, Any] = {
    "prizes": [
        {"places": [1, 1], "kind": "money", "pool_percentage": 50},
        {"places": [2, 2], "kind": "money", "pool_percentage": 30},
    ],
    "category_prizes": [
        {
            "category": "women",
            "minimum_participants": 3,
            "prize": {"places": [1, 1], "kind": "money", "pool_percentage": 20},
        },
        {
            "category": "women",
            "minimum_participants": 3,
            "prize": {"places": [1, 1], "kind": "cup", "description": "Best woman"},
        },
        {
            "category": "veteran",
            "minimum_participants": 3,
            "prize": {"places": [1, 1], "kind": "money", "amount": {"amount": 5000}},
        },
    ],
}


def _standings(api: Api, tid: str) -> list[str]:
    """The Main's provisional standings, best first (Tavla IDs)."""
    reply = api.call("GET", "/tournaments/{tournament_id}/standings", params={"tournament_id": tid})
    main = next(e for e in reply.body["events"] if e["event"] == "main")
    return [r["player"]["tavla_id"] for r in main["rows"]]


def _set_categories(api: Api, tid: str, tavla_id: str, categories: Any, user: str = ORGANISER) -> Any:
    return api.call(
        "PUT",
        "/tournaments/{tournament_id}/prizes/eligibility/{tavla_id}",
        params={"tournament_id": tid, "tavla_id": tavla_id},
        body={"categories": categories},
        user=user,
    )


def _declare(api: Api, user: str, **private: Any) -> None:
    """The player declares gender / birth year in their private profile."""
    assert api.call("PATCH", "/me", body=private, user=user).status == 200


def _finished_with_categories(api: Api) -> tuple[str, list[str], str]:
    """8 players paid 10.00 each (pool 80.00); all played out. Eligibility: the champion is
    set as a woman by the organiser; two others declared female in their profile (the women's
    category has its 3); one veteran only (3 needed). Returns (tournament, standings, veteran)."""
    tid, players = checked_in_field(api, 8, **WITH_CATEGORIES)
    for tavla_id in players:
        pay_cash(api, tid, tavla_id, 1000)
    assert draw(api, tid).status == 201
    play_out(tid)
    order = _standings(api, tid)
    user = {tavla_id: f"player-{i}" for i, tavla_id in enumerate(players)}
    champion, _runner_up, *rest = order
    set_by_organiser = _set_categories(api, tid, champion, ["women"])
    assert (set_by_organiser.status, set_by_organiser.body["set_by"]) == (200, "organiser"), (
        set_by_organiser.body
    )
    for woman in rest[-2:]:
        _declare(api, user[woman], gender="female", birth_year=1990)
    veteran = rest[0]
    _declare(api, user[veteran], gender="male", birth_year=1950)
    finished = api.call(
        "POST", "/tournaments/{tournament_id}/finish", params={"tournament_id": tid}, user=ORGANISER
    )
    assert finished.status == 200, finished.body
    return tid, order, veteran


def test_a_category_with_enough_players_is_awarded_with_the_place_prize_and_paid_in_full(api: Api) -> None:
    """R11.4: the women's prize (3 eligible, 3 needed) goes to the best-placed woman, here the
    champion, who also takes the 1st place prize (combined, one payout); the veterans' prize (1
    eligible, 3 needed) is not awarded; the shares paid (50 + 30 + 20 %) are the pool, to the cent.
    Once finished, eligibility can no longer change (409): the prize list stands."""
    tid, order, veteran = _finished_with_categories(api)
    champion, runner_up = order[0], order[1]
    table = _table(api, tid)
    assert table["pool"]["amount"] == 8000
    awards = [
        (a["tavla_id"], a["scope"], a["place"], a["money"]["amount"], a["items"]) for a in table["awards"]
    ]
    assert sorted(awards) == sorted(
        [
            (champion, "main", "1", 4000, []),
            (runner_up, "main", "2", 2400, []),
            (champion, "women", "1", 1600, ["cup: Best woman"]),
        ]
    )
    assert [(u["scope"], u["place"], u["money"]["amount"], u["reason"]) for u in table["unawarded"]] == [
        ("veteran", 1, 5000, "too_few_participants")
    ]
    assert table["money_total"]["amount"] == table["pool"]["amount"]
    paid = _payout(api, tid, champion)
    assert paid.status == 201
    [payout] = [e for e in paid.body["entries"] if e["kind"] == "payout"]
    assert payout["amount"]["amount"] == 5600  # place and category prize together
    assert _payout(api, tid, runner_up).status == 201
    ledgers = api.call(
        "GET", "/tournaments/{tournament_id}/payments", params={"tournament_id": tid}, user=ORGANISER
    )
    payouts = [e for lg in ledgers.body["ledgers"] for e in lg["entries"] if e["kind"] == "payout"]
    assert sum(e["amount"]["amount"] for e in payouts) == table["pool"]["amount"] == 8000
    _only_the_award_is_public(api, tid, order, veteran)
    late = _set_categories(api, tid, runner_up, ["women"])  # the prize list stands
    assert (late.status, late.error) == (409, "tournament_finished")
    # eligibility was frozen at the finish: everyone declaring as a veteran afterwards changes nothing
    for i in range(8):
        _declare(api, f"player-{i}", birth_year=1940)
    assert _table(api, tid) == table


def _only_the_award_is_public(api: Api, tid: str, order: list[str], veteran: str) -> None:
    """R11.4, R12: the organisers see who is eligible and why; public answers show only the
    award (not the other women, not the veteran, no gender or birth year)."""
    listed = api.call(
        "GET",
        "/tournaments/{tournament_id}/prizes/eligibility",
        params={"tournament_id": tid},
        user=ORGANISER,
    )
    assert listed.status == 200
    by_id = {e["tavla_id"]: (e["categories"], e["set_by"]) for e in listed.body["entries"]}
    assert by_id[order[0]] == (["women"], "organiser")
    assert by_id[order[-1]] == (["women"], "profile")
    assert by_id[veteran] == (["veteran"], "profile")
    assert by_id[order[1]] == ([], "profile")
    public = [
        api.call("GET", path, params={"tournament_id": tid}).body
        for path in (
            "/tournaments/{tournament_id}/prizes",
            "/tournaments/{tournament_id}/entries",
            "/tournaments/{tournament_id}/standings",
        )
    ]
    text = str(public)
    assert "female" not in text and "1950" not in text and "birth" not in text
    assert veteran not in [a["tavla_id"] for a in public[0]["awards"]]
    women = [a["tavla_id"] for a in public[0]["awards"] if a["scope"] == "women"]
    assert women == [order[0]]


def test_eligibility_is_set_only_for_an_entry(api: Api) -> None:
    """R11.4: bad input is a clear 4xx and changes nothing: an unknown category or one twice
    (422), someone not entered (409 not_registered); null goes back to the profile."""
    tid, players = checked_in_field(api, 2, **WITH_CATEGORIES)
    for bad in (["chess"], ["women", "women"], "women"):
        reply = _set_categories(api, tid, players[0], bad)
        assert reply.status == 422, (bad, reply.body)
    outsider = create_player(api, "outsider")
    reply = _set_categories(api, tid, outsider, ["youth"])
    assert (reply.status, reply.error) == (409, "not_registered")
    listed = api.call(
        "GET",
        "/tournaments/{tournament_id}/prizes/eligibility",
        params={"tournament_id": tid},
        user=ORGANISER,
    ).body
    assert all(e["set_by"] == "profile" for e in listed["entries"])
    assert outsider not in [e["tavla_id"] for e in listed["entries"]]
    chosen = _set_categories(api, tid, players[0], ["youth"])
    assert chosen.body["categories"] == ["youth"]
    back = _set_categories(api, tid, players[0], None)
    assert (back.status, back.body["set_by"]) == (200, "profile")


def test_prize_shares_over_100_percent_are_refused(api: Api) -> None:
    """R11.2, R11.4: place and category shares of the pool over 100 % are a 422 at creation,
    not a broken prize list at the finish."""
    from tests.service.helpers import tournament_body

    body = tournament_body(
        prizes=[{"places": [1, 1], "kind": "money", "pool_percentage": 90}],
        category_prizes=[
            {"category": "youth", "prize": {"places": [1, 1], "kind": "money", "pool_percentage": 20}}
        ],
    )
    reply = api.call("POST", "/tournaments", body=body, user=ORGANISER, groups=("organisers",))
    assert reply.status == 422, reply.body
