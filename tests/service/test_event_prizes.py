"""A side event's own prizes (R3.6, R11.2): paid from its own fees by default, from the main
pool when the organiser pools it; the prize list says which pool pays what."""

from __future__ import annotations

from typing import Any

import pytest

from tests.service.board_helpers import play_out
from tests.service.conftest import Api
from tests.service.day_helpers import checked_in_field, draw
from tests.service.helpers import ORGANISER, tournament_body
from tests.service.payment_helpers import pay_cash

WINNER_TAKES = [{"places": [1, 1], "kind": "money", "pool_percentage": 100}]


def _finished(api: Api, consolation: dict[str, Any], main_prizes: list[dict[str, Any]]) -> tuple[str, Any]:
    """8 players paid their 20.00; of the 6 the Consolation (fee 5.00) takes, 4 paid its fee;
    every event played out and the tournament finished. Returns (tournament, prize list)."""
    side = {"name": "Consolation", "kind": "consolation", "fee": {"amount": 500, "currency": "EUR"}}
    tid, players = checked_in_field(
        api,
        8,
        entry_fee={"amount": 2000, "currency": "EUR"},
        prizes=main_prizes,
        side_events=[side | consolation],
    )
    for tavla_id in players:
        pay_cash(api, tid, tavla_id, 2000)
    assert draw(api, tid).status == 201
    play_out(tid)
    drawn = draw(api, tid)
    assert (drawn.status, drawn.body["event"]) == (201, "consolation"), drawn.body
    for player in [e["player_id"] for e in drawn.body["inputs"]["field"]][:4]:
        pay_cash(api, tid, player, 500)
    while draw(api, tid).status == 201 or _playable(tid):
        play_out(tid)
    finished = api.call(
        "POST", "/tournaments/{tournament_id}/finish", params={"tournament_id": tid}, user=ORGANISER
    )
    assert finished.status == 200, finished.body
    table = api.call("GET", "/tournaments/{tournament_id}/prizes", params={"tournament_id": tid})
    assert table.status == 200 and table.body["final"] is True, table.body
    return tid, table.body


def _playable(tid: str) -> bool:
    from tests.service.board_helpers import next_due

    return next_due(tid) is not None


def _won(table: Any, event: str) -> list[tuple[str, int, str]]:
    return [
        (a["place"], a["money"]["amount"], a["paid_from"])
        for a in table["awards"]
        if a["event"] == event and a["money"]["amount"]
    ]


def test_a_side_event_pays_its_prizes_from_its_own_fees(api: Api) -> None:
    """Collected 180.00: 160.00 of entry fees, 20.00 of Consolation fees. The Consolation's
    winner takes its own pool, 20.00; the Main's winner the main pool, 160.00; the prize list
    says which pool pays which prize, and the consolation winner is paid like any winner."""
    tid, table = _finished(api, {"prizes": WINNER_TAKES}, WINNER_TAKES)
    assert (table["collected"]["amount"], table["pool"]["amount"], table["money_total"]["amount"]) == (
        18_000,
        18_000,
        18_000,
    )
    assert [(p["id"], p["collected"]["amount"], p["pool"]["amount"], p["pays"]) for p in table["pools"]] == [
        ("main", 16_000, 16_000, ["main"]),
        ("consolation", 2000, 2000, ["consolation"]),
    ]
    assert _won(table, "main") == [("1", 16_000, "main")]
    assert _won(table, "consolation") == [("1", 2000, "consolation")]
    winner = next(a["tavla_id"] for a in table["awards"] if a["event"] == "consolation")
    paid = api.call(
        "POST",
        "/tournaments/{tournament_id}/prizes/payouts",
        params={"tournament_id": tid},
        body={"tavla_id": winner, "method": "cash", "amount": {"amount": 2001}},
        user=ORGANISER,
    )
    assert (paid.status, paid.error) == (409, "over_prize")


def test_a_pooled_side_event_is_paid_from_the_main_pool(api: Api) -> None:
    """Pooled: the Consolation's 20.00 of fees go into the main pool (180.00); its winner takes
    10 % of it, 18.00, the Main's winner 90 %, 162.00; one pool pays both."""
    main = [{"places": [1, 1], "kind": "money", "pool_percentage": 90}]
    share = [{"places": [1, 1], "kind": "money", "pool_percentage": 10}]
    _, table = _finished(api, {"prizes": share, "pooled": True}, main)
    assert [(p["id"], p["collected"]["amount"], p["pool"]["amount"], p["pays"]) for p in table["pools"]] == [
        ("main", 18_000, 18_000, ["main", "consolation"]),
    ]
    assert (_won(table, "main"), _won(table, "consolation")) == (
        [("1", 16_200, "main")],
        [("1", 1800, "main")],
    )


@pytest.mark.parametrize(
    "settings",
    [
        # the main pool's shares: 90 % of the Main and 20 % of a pooled side event
        {
            "prizes": [{"places": [1, 1], "kind": "money", "pool_percentage": 90}],
            "side_events": [
                {"name": "Last Chance", "prizes": [{"places": [1, 1], "pool_percentage": 20}], "pooled": True}
            ],
        },
        # a side event's own pool shared beyond 100 %
        {"side_events": [{"name": "Last Chance", "prizes": [{"places": [1, 2], "pool_percentage": 60}]}]},
        # the highest division's prizes are the tournament's
        {"divisions": [{"id": "open", "name": "Open", "prizes": WINNER_TAKES}]},
    ],
)
def test_event_prizes_beyond_their_pool_are_refused(api: Api, settings: dict[str, Any]) -> None:
    reply = api.call(
        "POST", "/tournaments", body=tournament_body(**settings), user=ORGANISER, groups=("organisers",)
    )
    assert reply.status == 422, reply.body
