"""Side events charged (R3.6): a Consolation or Last Chance free for Main players costs
them nothing; one that is not free is charged to each player the draw puts in it.

The day feeds the side events only from the Main (the losers of its chosen rounds, R5.8):
nobody outside the Main can enter one, so every side-event player is a Main player.
"""

from __future__ import annotations

from typing import Any

from local.fake_provider import FakeProvider
from tests.service.board_helpers import play_out
from tests.service.conftest import Api
from tests.service.day_helpers import checked_in_field, draw
from tests.service.helpers import ORGANISER
from tests.service.payment_helpers import ledger_of, pay_cash, provider

__all__ = ["provider"]  # the fixture


def _day_with_a_consolation(api: Api, free_for_main_players: bool) -> tuple[str, list[str], dict[str, Any]]:
    """8 players paid their 20.00; the Main played out and the Consolation (losers of Main
    rounds 1 and 2, fee 5.00) drawn. Returns (tournament, players, the Consolation's draw)."""
    consolation = {
        "name": "Consolation",
        "kind": "consolation",
        "fee": {"amount": 500, "currency": "EUR"},
        "free_for_main_players": free_for_main_players,
    }
    tid, players = checked_in_field(api, 8, side_events=[consolation])
    for tavla_id in players:
        pay_cash(api, tid, tavla_id, 2000)
    assert draw(api, tid).status == 201
    play_out(tid)
    side = draw(api, tid)
    assert (side.status, side.body["event"]) == (201, "consolation"), side.body
    return tid, players, side.body


def _in_it(side: dict[str, Any]) -> set[str]:
    return {e["player_id"] for e in side["inputs"]["field"]}


def test_a_charged_side_event_is_in_the_ledger_of_each_player_drawn_into_it(api: Api) -> None:
    """R3.6: the Consolation costs 5.00 (not free for Main players): each of the 6 players the
    draw puts in it owes 20.00 + 5.00; the two finalists, not in it, owe 20.00 and nothing more."""
    tid, players, side = _day_with_a_consolation(api, free_for_main_players=False)
    playing = _in_it(side)
    assert len(playing) == 6
    for tavla_id in players:
        ledger = ledger_of(api, tid, tavla_id, ORGANISER)
        if tavla_id in playing:
            assert [(c["event"], c["fee"]["amount"]) for c in ledger["side_events"]] == [("consolation", 500)]
            assert (ledger["due"]["amount"], ledger["outstanding"]["amount"], ledger["balance"]) == (
                2500,
                500,
                -500,
            )
        else:
            assert (ledger["side_events"], ledger["due"]["amount"], ledger["balance"]) == ([], 2000, 0)
    totals = api.call(
        "GET", "/tournaments/{tournament_id}/payments", params={"tournament_id": tid}, user=ORGANISER
    ).body
    assert totals["outstanding"]["amount"] == 6 * 500


def test_a_side_event_free_for_main_players_costs_them_nothing(api: Api) -> None:
    """R3.6: stated free for Main players: the players drawn into it owe nothing more."""
    tid, players, side = _day_with_a_consolation(api, free_for_main_players=True)
    assert len(_in_it(side)) == 6
    for tavla_id in players:
        ledger = ledger_of(api, tid, tavla_id, ORGANISER)
        assert (ledger["side_events"], ledger["due"]["amount"], ledger["balance"]) == ([], 2000, 0)


def test_the_side_event_fee_is_paid_like_the_entry_fee(api: Api, provider: FakeProvider) -> None:
    """R3.3, R3.6: the player pays the side event's 5.00 by card (the checkout asks what the
    ledger says, never the client) or in cash at the referee table; then owes nothing."""
    tid, players, side = _day_with_a_consolation(api, free_for_main_players=False)
    index = {p: i for i, p in enumerate(players)}
    first, second = sorted(_in_it(side), key=index.__getitem__)[:2]
    started = api.call(
        "POST",
        "/tournaments/{tournament_id}/payments/checkout",
        params={"tournament_id": tid},
        user=f"player-{index[first]}",
    )
    assert (started.status, started.body["amount"]["amount"]) == (201, 500)
    pay_cash(api, tid, second, 500)
    assert ledger_of(api, tid, second, ORGANISER)["outstanding"]["amount"] == 0
    mine = api.call("GET", "/me/payments", user=f"player-{index[second]}").body["ledgers"]
    assert [(lg["tournament_id"], lg["balance"], len(lg["side_events"])) for lg in mine] == [(tid, 0, 1)]
