"""The stored tournament settings the money, registration, prize and season use cases read,
parsed once with the defaults decided in one place (R3.2-R3.7, R10.4, R11)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from tavla.models.tournaments import TournamentSettings
from tavla.rules.prizes import CategoryPrize, Money, NonMoneyPrize, PlacePrize
from tavla.rules.tournament_settings import (
    DEFAULT_TIME_ZONE,
    Fees,
    LifecycleSettings,
    MoneySettings,
    PageSettings,
    PrizeSettings,
    RefundTerms,
    RegistrationSettings,
    SideEventFee,
    StoredSettingsError,
)


def _eur(cents: int) -> dict[str, Any]:
    return {"amount": cents, "currency": "EUR"}


PAGE: dict[str, Any] = {
    "name": "Athens Open",
    "venue": "Hall",
    "starts_at": "2026-06-01T10:00:00+00:00",
    "registration_closes_at": "2026-05-30T10:00:00+00:00",
    "capacity": 32,
}


def test_an_unset_page_reads_as_the_services_always_defaulted() -> None:
    """R3.3-R3.5, R3.7: free entry, no early bird, a full refund, one Main division, no approval."""
    money, entry, prizes, page = (
        MoneySettings.parse({}),
        RegistrationSettings.parse({}),
        PrizeSettings.parse({}),
        PageSettings.parse({}),
    )
    assert money == MoneySettings()
    assert (money.entry_fee, money.early_bird_fee, money.early_bird_deadline) == (0, None, None)
    assert (money.time_zone, money.currency, money.payment_deadline) == (DEFAULT_TIME_ZONE, "EUR", None)
    assert money.refund == RefundTerms(kind="full") and money.side_events == ()
    assert money.fees(None) == (0, None) and money.fees("main") == (0, None)
    assert entry == RegistrationSettings(divisions=("main",), requires_approval=False, closes_at=None)
    assert not prizes.has_categories and prizes.announcement.places == ()
    assert (prizes.youth_under, prizes.veteran_from) == (18, 60)
    assert page == PageSettings(name="Your tournament", level=None, season_id=None)


def test_the_page_as_created_parses_with_the_same_defaults() -> None:
    """R2.1: what the page stores when the organiser sets only the required fields."""
    stored = TournamentSettings.model_validate(PAGE).model_dump(mode="json")
    money, entry, page = (
        MoneySettings.parse(stored),
        RegistrationSettings.parse(stored),
        PageSettings.parse(stored),
    )
    assert money.fees("main") == (0, None) and money.refund.kind == "full"
    assert money.time_zone == DEFAULT_TIME_ZONE and money.currency == "EUR"
    assert entry.divisions == ("main",) and entry.closes == datetime(2026, 5, 30, 10, tzinfo=UTC)
    assert (page.name, page.level, page.season_id) == ("Athens Open", "local", None)
    assert PrizeSettings.parse(stored) == PrizeSettings()


def test_each_money_field_is_read() -> None:
    """R3.2-R3.6: fees, early bird, zone, payment deadline, refund policy, side events."""
    money = MoneySettings.parse(
        {
            "entry_fee": _eur(3000),
            "early_bird_fee": _eur(2000),
            "early_bird_deadline": "2026-05-01T00:00:00+00:00",
            "time_zone": "Europe/Berlin",
            "payment_deadline": "2026-05-20T12:00:00+00:00",
            "refund_policy": {"kind": "fixed_deduction", "deduction": _eur(500)},
            "side_events": [
                {
                    "name": "Last Chance",
                    "kind": "last_chance",
                    "fee": _eur(1000),
                    "free_for_main_players": True,
                },
                {"name": "Blitz", "kind": "other"},
            ],
        }
    )
    assert (money.entry_fee, money.early_bird_fee) == (3000, 2000)
    assert money.early_bird_deadline == datetime(2026, 5, 1, tzinfo=UTC)
    assert money.time_zone == "Europe/Berlin" and money.payment_deadline == "2026-05-20T12:00:00+00:00"
    assert money.refund == RefundTerms(kind="fixed_deduction", percentage=None, deduction=500)
    assert money.side_events == (
        SideEventFee(kind="last_chance", name="Last Chance", fee=1000, free_for_main_players=True),
        SideEventFee(kind="other", name="Blitz", fee=0, free_for_main_players=False),
    )
    assert MoneySettings.parse(
        {"refund_policy": {"kind": "percentage", "percentage": 50}}
    ).refund == RefundTerms(kind="percentage", percentage=50)


def test_a_divisions_own_fees_come_before_the_tournaments() -> None:
    """R3.4, R3.7: a division's own fee wins, even 0 (a free division); unset, the tournament's."""
    money = MoneySettings.parse(
        {
            "entry_fee": _eur(3000),
            "early_bird_fee": _eur(2000),
            "divisions": [
                {"id": "open", "name": "Open"},
                {"id": "novice", "name": "Novice", "entry_fee": _eur(0)},
                {"id": "junior", "name": "Junior", "entry_fee": _eur(1000), "early_bird_fee": _eur(500)},
            ],
        }
    )
    assert money.divisions["novice"] == Fees(entry=0, early_bird=None)
    assert money.fees("open") == (3000, 2000)
    assert money.fees("novice") == (0, 2000)
    assert money.fees("junior") == (1000, 500)
    assert money.fees("unknown") == money.fees(None) == (3000, 2000)


def test_registration_and_page_fields_are_read() -> None:
    """R3.1, R3.7, R10.4: divisions highest first, approval, the close; level and season."""
    s = {
        **PAGE,
        "divisions": [{"id": "open"}, {"id": "novice"}],
        "requires_approval": True,
        "level": "national",
        "season_id": "s2026",
        "city": "Athens",
    }
    entry, page = RegistrationSettings.parse(s), PageSettings.parse(s)
    assert entry.divisions == ("open", "novice") and entry.requires_approval
    assert entry.closes_at == datetime(2026, 5, 30, 10, tzinfo=UTC)
    assert page == PageSettings(name="Athens Open", level="national", season_id="s2026", city="Athens")
    assert RegistrationSettings.parse({"divisions": []}).divisions == ("main",)


def test_the_announced_prizes_become_the_rules_announcement() -> None:
    """R11.1, R11.4: [first, last] places as one prize per place; a pool percentage in basis
    points; a category's places from its entries, its minimum from the first; age limits."""
    prizes = PrizeSettings.parse(
        {
            "prizes": [
                {"places": [1, 1], "amount": _eur(10000)},
                {"places": [2, 3], "pool_percentage": 25},
                {"places": [1, 1], "kind": "cup", "description": "Gold"},
            ],
            "category_prizes": [
                {
                    "category": "youth",
                    "minimum_participants": 3,
                    "age_limit": 16,
                    "prize": {"places": [1, 1]},
                },
                {
                    "category": "youth",
                    "minimum_participants": 3,
                    "age_limit": 16,
                    "prize": {"places": [2, 2]},
                },
                {"category": "women", "prize": {"places": [1, 1], "kind": "medal"}},
            ],
        }
    )
    assert prizes.announcement.places == (
        PlacePrize(
            place=1, money=Money(amount_cents=10000), items=(NonMoneyPrize(kind="cup", description="Gold"),)
        ),
        PlacePrize(place=2, money=Money(pool_share_bp=2500)),
        PlacePrize(place=3, money=Money(pool_share_bp=2500)),
    )
    assert prizes.announcement.categories == (
        CategoryPrize(
            category="youth", min_participants=3, places=(PlacePrize(place=1), PlacePrize(place=2))
        ),
        CategoryPrize(
            category="women",
            min_participants=1,
            places=(PlacePrize(place=1, items=(NonMoneyPrize(kind="medal"),)),),
        ),
    )
    assert prizes.has_categories and prizes.age_limits == {"youth": 16}
    assert (prizes.youth_under, prizes.veteran_from) == (16, 60)


def test_a_money_value_that_is_not_an_amount_counts_as_unset() -> None:
    """R3.3: as the services always read it: a fee stored as a bare number is no fee."""
    money = MoneySettings.parse({"entry_fee": 3000, "early_bird_fee": {"currency": "EUR"}})
    assert (money.entry_fee, money.early_bird_fee) == (0, None)


@pytest.mark.parametrize(
    ("parse", "stored", "field"),
    [
        (MoneySettings.parse, {"early_bird_deadline": "next tuesday"}, "early_bird_deadline"),
        (MoneySettings.parse, {"refund_policy": {"kind": "half"}}, "refund_policy.kind"),
        (
            MoneySettings.parse,
            {"refund_policy": {"kind": "percentage", "percentage": "x"}},
            "refund_policy.percentage",
        ),
        (MoneySettings.parse, {"divisions": "open"}, "divisions"),
        (MoneySettings.parse, {"side_events": [1, 2]}, "side_events"),
        (RegistrationSettings.parse, {"registration_closes_at": "soon"}, "registration_closes_at"),
        (LifecycleSettings.parse, {"unrated_at": "yesterday"}, "unrated_at"),
        (PrizeSettings.parse, {"prizes": [{"places": 1}]}, "prizes.places"),
        (PrizeSettings.parse, {"prizes": [{"places": [1, "last"]}]}, "prizes.places"),
        (PrizeSettings.parse, {"prizes": [{"places": [1, 1], "kind": "car"}]}, "prizes"),
        (
            PrizeSettings.parse,
            {"category_prizes": [{"category": "youth", "prize": None}]},
            "category_prizes.youth.prize",
        ),
        (
            PrizeSettings.parse,
            {"category_prizes": [{"category": "youth", "age_limit": "old", "prize": {"places": [1, 1]}}]},
            "category_prizes.age_limit",
        ),
    ],
)
def test_a_malformed_stored_value_is_an_error_naming_its_field(
    parse: Any, stored: dict[str, Any], field: str
) -> None:
    """A hand-edited or older item fails where it is read, naming the field, not deep in a use case."""
    with pytest.raises(StoredSettingsError) as raised:
        parse(stored)
    assert raised.value.name == field and field in str(raised.value)


def test_registration_without_a_close_says_so_when_the_close_is_needed() -> None:
    """R3.5: a refund needs the close; a stored tournament without one is named, not a KeyError."""
    with pytest.raises(StoredSettingsError, match="registration_closes_at"):
        _ = RegistrationSettings.parse({}).closes


def test_what_became_of_the_dates_is_read_and_unset_means_it_never_happened() -> None:
    """R2, R3.5: cancelled, unrated and postponed as the store writes them beside the page."""
    assert LifecycleSettings.parse(PAGE) == LifecycleSettings()
    marks = LifecycleSettings.parse(
        {
            **PAGE,
            "cancelled_at": "2026-05-02T09:00:00+00:00",
            "unrated_at": "2026-05-03T09:00:00+00:00",
            "postponed_at": "2026-04-01T09:00:00+00:00",
            "postponed_from": "2026-05-20T10:00:00+00:00",
        }
    )
    assert marks.cancelled == marks.cancelled_at == datetime(2026, 5, 2, 9, tzinfo=UTC)
    assert marks.unrated_at == datetime(2026, 5, 3, 9, tzinfo=UTC)
    assert marks.postponed_at == datetime(2026, 4, 1, 9, tzinfo=UTC)
    assert marks.postponed_from == "2026-05-20T10:00:00+00:00"
    with pytest.raises(StoredSettingsError, match="cancelled_at"):
        _ = LifecycleSettings.parse(PAGE).cancelled
