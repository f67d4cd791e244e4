"""Every money setting of a tournament takes effect (R3.3 - R3.7, R11): each one, changed from a
plain tournament (fee 20.00, full refund), changes what a player pays, gets back or is told.

The prize amounts a finish awards by `prizes` / `category_prizes` are walked in test_prizes and
test_event_prizes, the side events' fees once drawn in test_side_event_fees; here the settings
a player meets before the day.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from local.fake_provider import FakeProvider
from tavla import clock
from tests.service.conftest import Api
from tests.service.helpers import (
    ORGANISER,
    create_player,
    create_tournament,
    entries,
    tournament_body,
)
from tests.service.payment_helpers import fire_unpaid, pay_cash, planned_schedules, provider

__all__ = ["provider"]  # the fixture


def _at(days: float) -> str:
    return (datetime.now(UTC) + timedelta(days=days)).isoformat()


def _mine(api: Api, user: str) -> dict[str, Any]:
    [ledger] = api.call("GET", "/me/payments", user=user).body["ledgers"]
    return dict(ledger)


def _asked(api: Api, tid: str, user: str) -> int:
    """What the card checkout asks the player to pay."""
    reply = api.call(
        "POST", "/tournaments/{tournament_id}/payments/checkout", params={"tournament_id": tid}, user=user
    )
    assert reply.status == 201, reply.body
    return int(reply.body["amount"]["amount"])


def _entered(api: Api, user: str, division: str | None = None, **settings: Any) -> tuple[str, str]:
    tid = create_tournament(api, **settings)
    return tid, _join(api, tid, user, division)


def _join(api: Api, tid: str, user: str, division: str | None) -> str:
    """A new player enters `tid` (in `division`, where the tournament has several)."""
    tavla_id = create_player(api, user)
    body = {"division": division} if division else None
    path = "/tournaments/{tournament_id}/registrations"
    reply = api.call("POST", path, params={"tournament_id": tid}, body=body, user=user)
    assert reply.status == 201, reply.body
    return tavla_id


def test_the_entry_fee_is_what_the_player_owes_and_the_checkout_asks(
    api: Api, provider: FakeProvider
) -> None:
    tid, _ = _entered(api, "fee-payer", entry_fee={"amount": 1234, "currency": "EUR"})
    mine = _mine(api, "fee-payer")
    assert (mine["due"]["amount"], mine["outstanding"]["amount"], mine["early_bird"]) == (1234, 1234, False)
    assert _asked(api, tid, "fee-payer") == 1234


def test_the_early_bird_fee_holds_until_its_deadline_then_the_full_fee(
    api: Api, provider: FakeProvider
) -> None:
    tid, _ = _entered(
        api,
        "early",
        early_bird_fee={"amount": 1500, "currency": "EUR"},
        early_bird_deadline=_at(2),
    )
    assert (_mine(api, "early")["due"]["amount"], _asked(api, tid, "early")) == (1500, 1500)
    # the deadline's whole day is early (R3.4, in the tournament's zone): the day after, it is not
    clock.advance(timedelta(days=3))
    mine = _mine(api, "early")
    assert (mine["due"]["amount"], mine["early_bird"], _asked(api, tid, "early")) == (2000, False, 2000)


def test_the_time_zone_decides_when_the_early_birds_last_day_ends(api: Api) -> None:
    """R3.4: the deadline's day is the tournament's: at 23:00 UTC on it, Athens's day is over
    (the full fee), New York's is not (still the early-bird fee)."""
    day = (datetime.now(UTC) + timedelta(days=3)).date()
    deadline = datetime(day.year, day.month, day.day, 12, tzinfo=UTC).isoformat()
    early: dict[str, Any] = {
        "early_bird_fee": {"amount": 1500, "currency": "EUR"},
        "early_bird_deadline": deadline,
    }
    _entered(api, "athens", time_zone="Europe/Athens", **early)
    _entered(api, "new-york", time_zone="America/New_York", **early)
    clock.advance(datetime(day.year, day.month, day.day, 23, tzinfo=UTC) - datetime.now(UTC))
    assert (_mine(api, "athens")["due"]["amount"], _mine(api, "new-york")["due"]["amount"]) == (2000, 1500)


def test_a_divisions_own_fee_and_early_bird_fee_are_its_players(api: Api) -> None:
    """R3.7: the Novice division's fees (10.00, early 8.00) are its players'; the Open's
    players owe the tournament's (20.00, early 15.00)."""
    divisions = [
        {"id": "open", "name": "Open"},
        {
            "id": "novice",
            "name": "Novice",
            "entry_fee": {"amount": 1000, "currency": "EUR"},
            "early_bird_fee": {"amount": 800, "currency": "EUR"},
        },
    ]
    settings = {
        "divisions": divisions,
        "early_bird_fee": {"amount": 1500, "currency": "EUR"},
        "early_bird_deadline": _at(2),
    }
    tid, _ = _entered(api, "novice", division="novice", **settings)
    _join(api, tid, "open", "open")
    assert (_mine(api, "novice")["due"]["amount"], _mine(api, "open")["due"]["amount"]) == (800, 1500)
    clock.advance(timedelta(days=3))
    assert (_mine(api, "novice")["due"]["amount"], _mine(api, "open")["due"]["amount"]) == (1000, 2000)


@pytest.mark.parametrize(
    ("policy", "back"),
    [
        ({"kind": "full"}, 2000),
        ({"kind": "percentage", "percentage": 40}, 800),
        ({"kind": "fixed_deduction", "deduction": {"amount": 250, "currency": "EUR"}}, 1750),
        ({"kind": "none"}, 0),
    ],
)
def test_the_refund_policy_decides_what_a_withdrawal_gives_back(api: Api, policy: dict, back: int) -> None:
    """R3.5: what the withdrawal answers, and what the player's own ledger shows after it."""
    tid, tavla_id = _entered(api, "refunded", refund_policy=policy)
    pay_cash(api, tid, tavla_id, 2000)
    reply = api.call(
        "DELETE",
        "/tournaments/{tournament_id}/registrations/me",
        params={"tournament_id": tid},
        user="refunded",
    )
    assert (reply.status, reply.body["refund_due"]["amount"]) == (200, back)
    assert _mine(api, "refunded")["refund_due"]["amount"] == back


def test_the_payment_deadline_given_at_creation_releases_unpaid_places(api: Api) -> None:
    """R3.2, R3.3: `payment_deadline` in POST /tournaments plans the notice and the release,
    as PUT .../payments/deadline does: past it the unpaid player is told, then released."""
    tid, debtor = _entered(api, "debtor", capacity=2, payment_deadline=_at(3))
    planned = {p["step"]: p for p in planned_schedules().values() if p.get("tournament_id") == tid}
    assert sorted(planned) == ["notice", "release"]
    assert fire_unpaid(planned["notice"]) == {"notified": 1}
    assert [n["kind"] for n in api.call("GET", "/me/notifications", user="debtor").body] == ["payment_due"]
    clock.advance(timedelta(days=3, seconds=1))
    assert fire_unpaid(planned["release"]) == {"released": 1}
    assert debtor not in str(entries(api, tid)["main"])


def test_an_events_own_prizes_make_an_own_pool_unless_pooled(api: Api) -> None:
    """R3.6: a lower division announcing money prizes is paid from its own fees (a pool of its
    own on the prize list); `pooled`, from the main pool (no own pool)."""
    for pooled, own in ((False, ["main", "novice.main"]), (True, ["main"])):
        novice = {
            "id": "novice",
            "name": "Novice",
            "prizes": [{"places": [1, 1], "pool_percentage": 100}],
            "pooled": pooled,
        }
        tid = create_tournament(
            api, divisions=[{"id": "open", "name": "Open"}, novice], name=f"Pools {pooled}"
        )
        shown = api.call("GET", "/tournaments/{tournament_id}/prizes", params={"tournament_id": tid}).body
        assert sorted(p["id"] for p in shown["pools"]) == own, shown


@pytest.mark.parametrize(
    "setting",
    [
        {"entry_fee": {"amount": 2000, "currency": "USD"}},
        {"early_bird_fee": {"amount": 1500, "currency": "GBP"}, "early_bird_deadline": _at(2)},
        {"refund_policy": {"kind": "fixed_deduction", "deduction": {"amount": 100, "currency": "USD"}}},
        {"side_events": [{"name": "Last Chance", "fee": {"amount": 500, "currency": "USD"}}]},
        {"entry_fee": {"amount": 19.99, "currency": "EUR"}},
        {"early_bird_fee": {"amount": 1500, "currency": "EUR"}},
        {"payment_deadline": "next week"},
    ],
)
def test_a_money_setting_the_platform_cannot_honour_is_refused(api: Api, setting: dict) -> None:
    """Money is euro cents (R3.3); an early-bird fee needs its deadline: refused, never ignored."""
    reply = api.call(
        "POST", "/tournaments", body=tournament_body(**setting), user=ORGANISER, groups=("organisers",)
    )
    assert (reply.status, reply.error) == (422, "validation_error"), reply.body
