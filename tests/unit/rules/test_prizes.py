"""Prizes: announced, finalised from fees collected, split among shared places (R11, R8.3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from tavla.rules.prizes import (
    CategoryPrize,
    Money,
    NonMoneyPrize,
    PlacePrize,
    PrizeAnnouncement,
    PrizeError,
    PrizeResult,
    award_prizes,
    categories_of,
    finalise_money,
    split_cents,
)
from tavla.rules.standings import Standing

CUP = NonMoneyPrize(kind="cup", description="3rd place cup")
MEDAL = NonMoneyPrize(kind="medal", description="bronze medal")
FREE = NonMoneyPrize(kind="free_entry", description="next Local")


def fixed(cents: int) -> Money:
    return Money(amount_cents=cents)


def share(bp: int) -> Money:
    return Money(pool_share_bp=bp)


def field16() -> list[Standing]:
    rows = [Standing(player_id="p01", place=1, place_to=1), Standing(player_id="p02", place=2, place_to=2)]
    for lo, hi in ((3, 4), (5, 8), (9, 16)):
        rows += [Standing(player_id=f"p{i:02d}", place=lo, place_to=hi) for i in range(lo, hi + 1)]
    return rows


def by_player(result: PrizeResult) -> dict[str, int]:
    return result.money_by_player()


def test_shared_3_4_split_the_combined_prizes_with_the_odd_cent_to_the_better_seed() -> None:
    """R11.3: 3rd 25.01, 4th 10.00, shared 3-4: 35.01 split 17.51 / 17.50; the odd cent goes
    to the first in tie order (the better seed); the 3rd-place cup to the first, the medal to
    the second."""
    ann = PrizeAnnouncement(
        places=(
            PlacePrize(place=3, money=fixed(2501), items=(CUP,)),
            PlacePrize(place=4, money=fixed(1000), items=(MEDAL,)),
        )
    )
    result = award_prizes(ann, field16(), collected_fees_cents=0, tie_order=["p04", "p03"])
    got = {a.player_id: (a.place, a.money_cents, a.items) for a in result.awards}
    assert got == {"p04": ("3-4", 1751, (CUP,)), "p03": ("3-4", 1750, (MEDAL,))}
    assert result.paid_cents == 3501
    # without a seed order: by player id
    result = award_prizes(ann, field16(), collected_fees_cents=0)
    assert by_player(result) == {"p03": 1751, "p04": 1750}


def test_shared_5_8_each_get_the_average_of_places_5_to_8() -> None:
    """R11.3, R10.1: a field of 16, quarter-final losers share 5-8 and the prizes of 5..8."""
    ann = PrizeAnnouncement(
        places=tuple(
            PlacePrize(place=p, money=fixed(c)) for p, c in ((5, 4000), (6, 3000), (7, 2000), (8, 1003))
        )
    )
    result = award_prizes(ann, field16(), collected_fees_cents=0)
    assert by_player(result) == {"p05": 2501, "p06": 2501, "p07": 2501, "p08": 2500}
    assert {a.place for a in result.awards} == {"5-8"}


def test_percentage_prizes_are_finalised_from_the_fees_actually_collected() -> None:
    """R11.2: 50/30/20 % of the pool; 29 of 32 players paid 20.00, the organiser keeps 10 %."""
    ann = PrizeAnnouncement(
        places=(
            PlacePrize(place=1, money=share(5000)),
            PlacePrize(place=2, money=share(3000)),
            PlacePrize(place=3, money=share(2000)),
        ),
        pool_rate_bp=9000,
    )
    money = finalise_money(ann, 29 * 2000)
    assert money.pool_cents == 52200
    assert money.amounts == {"main": {1: 26100, 2: 15660, 3: 10440}}
    assert money.total_cents == money.pool_cents


def test_odd_pool_is_distributed_exactly_to_the_cent() -> None:
    """R11.2: a pool of 10.01 split 1/3 each (3333, 3333, 3334 bp) pays out exactly 10.01;
    the leftover cent goes to the largest remainder, ties to the better place."""
    ann = PrizeAnnouncement(
        places=tuple(PlacePrize(place=p, money=share(bp)) for p, bp in ((1, 3333), (2, 3333), (3, 3334)))
    )
    money = finalise_money(ann, 1001)
    assert money.amounts["main"] == {1: 334, 2: 333, 3: 334}
    ann = PrizeAnnouncement(places=tuple(PlacePrize(place=p, money=share(5000)) for p in (1, 2)))
    assert finalise_money(ann, 1001).amounts["main"] == {1: 501, 2: 500}


def test_category_prize_needs_enough_participants_and_combines_with_a_place_prize() -> None:
    """R11.4: best woman (at least 3 eligible finishers) can also win a place prize."""
    ann = PrizeAnnouncement(
        places=(PlacePrize(place=1, money=fixed(10000)), PlacePrize(place=2, money=fixed(5000))),
        categories=(
            CategoryPrize(
                category="best woman",
                min_participants=3,
                places=(PlacePrize(place=1, money=fixed(3000), items=(FREE,)),),
            ),
        ),
    )
    women = {"best woman": {"p02", "p07", "p12"}}
    result = award_prizes(ann, field16(), 0, eligibility=women)
    assert by_player(result) == {"p01": 10000, "p02": 8000}
    cat = [a for a in result.awards if a.scope == "best woman"]
    assert [(a.player_id, a.place, a.items) for a in cat] == [("p02", "1", (FREE,))]
    # only two eligible finishers: the category prize is not awarded
    result = award_prizes(ann, field16(), 0, eligibility={"best woman": {"p02", "p07"}})
    assert by_player(result) == {"p01": 10000, "p02": 5000}
    assert [(u.scope, u.place, u.money_cents) for u in result.unawarded] == [("best woman", 1, 3000)]
    assert "2 eligible finisher(s), 3 needed" in result.unawarded[0].reason
    # nobody told us who is eligible
    assert [u.scope for u in award_prizes(ann, field16(), 0).unawarded] == ["best woman"]


def test_category_tie_splits_the_category_prize() -> None:
    """R11.3, R11.4: two youth players share 5-8 and are the best youth: they share 1st youth."""
    ann = PrizeAnnouncement(
        categories=(CategoryPrize(category="youth", places=(PlacePrize(place=1, money=fixed(2001)),)),)
    )
    result = award_prizes(ann, field16(), 0, eligibility={"youth": {"p06", "p05", "p11"}})
    assert by_player(result) == {"p05": 1001, "p06": 1000}
    assert {a.place for a in result.awards} == {"1-2"}


def test_disqualified_players_win_nothing_and_the_next_player_moves_up() -> None:
    """R8.3: the disqualified winner gets nothing; 2nd place takes the 1st prize."""
    ann = PrizeAnnouncement(
        places=(PlacePrize(place=1, money=fixed(10000)), PlacePrize(place=2, money=fixed(5000))),
        categories=(CategoryPrize(category="veteran", places=(PlacePrize(place=1, money=fixed(1000)),)),),
    )
    result = award_prizes(ann, field16(), 0, eligibility={"veteran": {"p01", "p09"}}, disqualified={"p01"})
    assert by_player(result) == {"p02": 10000, "p03": 2500, "p04": 2500, "p09": 1000}


def test_prizes_beyond_the_field_are_reported_unawarded() -> None:
    """R11.1: with 2 finishers the 3rd-place prize is not paid out."""
    rows = [Standing(player_id="a", place=1, place_to=1), Standing(player_id="b", place=2, place_to=2)]
    ann = PrizeAnnouncement(
        places=tuple(PlacePrize(place=p, money=share(bp)) for p, bp in ((1, 6000), (2, 3000), (3, 1000)))
    )
    result = award_prizes(ann, rows, 10000)
    assert by_player(result) == {"a": 6000, "b": 3000}
    assert [(u.place, u.money_cents, u.reason) for u in result.unawarded] == [(3, 1000, "only 2 finisher(s)")]


def test_places_without_a_prize_and_items_only_prizes() -> None:
    """R11.1: a medal-only place is listed with 0 money; unannounced places win nothing."""
    ann = PrizeAnnouncement(places=(PlacePrize(place=2, items=(MEDAL,)),))
    result = award_prizes(ann, field16(), 0)
    assert [(a.player_id, a.money_cents, a.items) for a in result.awards] == [("p02", 0, (MEDAL,))]


@pytest.mark.parametrize(
    "data",
    [
        {"places": [{"place": 1, "money": {"amount_cents": 100, "pool_share_bp": 100}}]},
        {"places": [{"place": 1, "money": {}}]},
        {"places": [{"place": 1}, {"place": 1}]},
        {
            "places": [
                {"place": 1, "money": {"pool_share_bp": 6000}},
                {"place": 2, "money": {"pool_share_bp": 5000}},
            ]
        },
        {"categories": [{"category": "youth", "places": []}, {"category": "youth", "places": []}]},
        {"categories": [{"category": "main", "places": []}]},
        {"categories": [{"category": "youth", "places": [{"place": 1}, {"place": 1}]}]},
        {"pool_rate_bp": 10001},
    ],
)
def test_impossible_announcements_are_refused(data: dict[str, object]) -> None:
    """R11.1, R11.2: shares over 100 %, a place announced twice, an ambiguous money prize."""
    with pytest.raises(ValidationError):
        PrizeAnnouncement.model_validate(data)


def test_bad_amounts_are_refused() -> None:
    """R11.2: negative fees or prizes, splitting among nobody."""
    with pytest.raises(PrizeError, match="cannot be negative"):
        finalise_money(PrizeAnnouncement(), -1)
    with pytest.raises(PrizeError, match="among nobody"):
        split_cents(100, [])
    with pytest.raises(PrizeError, match="cannot be negative"):
        split_cents(-1, ["a"])


@st.composite
def events(draw: st.DrawFn):
    sizes = draw(st.lists(st.integers(min_value=1, max_value=4), min_size=1, max_size=10))
    rows: list[Standing] = []
    for size in sizes:
        start = len(rows) + 1
        rows += [
            Standing(player_id=f"x{len(rows) + k:02d}", place=start, place_to=start + size - 1)
            for k in range(size)
        ]
    n_prizes = draw(st.integers(min_value=1, max_value=len(rows)))
    cuts = sorted(
        draw(
            st.lists(st.integers(min_value=0, max_value=10_000), min_size=n_prizes - 1, max_size=n_prizes - 1)
        )
    )
    bps = [b - a for a, b in zip([0, *cuts], [*cuts, 10_000], strict=True)]
    places = tuple(PlacePrize(place=i + 1, money=share(bp)) for i, bp in enumerate(bps))
    fixed_places = draw(st.lists(st.integers(min_value=0, max_value=100_00), max_size=3))
    cats = tuple(
        CategoryPrize(category=f"c{i}", places=(PlacePrize(place=1, money=fixed(c)),))
        for i, c in enumerate(fixed_places)
    )
    ids = [r.player_id for r in rows]
    elig = {c.category: set(draw(st.lists(st.sampled_from(ids), min_size=1))) for c in cats}
    return rows, PrizeAnnouncement(places=places, categories=cats), elig


@settings(max_examples=150, deadline=None)
@given(ev=events(), fees=st.integers(min_value=0, max_value=10**7), data=st.data())
def test_money_paid_equals_the_pool_to_the_cent_and_ties_split_evenly(ev, fees: int, data) -> None:
    """R11.2, R11.3, R11.4: shares adding to 100 % with every prize place filled pay out exactly
    the pool plus the fixed prizes; sharers' money differs by at most a cent."""
    rows, ann, elig = ev
    result = award_prizes(ann, rows, fees, eligibility=elig)
    fixed_total = sum(c.places[0].money.amount_cents for c in ann.categories)
    assert result.pool_cents == fees
    assert result.paid_cents == fees + fixed_total
    assert not result.unawarded
    main = [a for a in result.awards if a.scope == "main"]
    for label in {a.place for a in main}:
        amounts = [a.money_cents for a in main if a.place == label]
        assert max(amounts) - min(amounts) <= 1
    # with players disqualified, the money paid never exceeds the pool plus the fixed prizes
    ids = [r.player_id for r in rows]
    dq = data.draw(st.sets(st.sampled_from(ids), max_size=len(ids) - 1))
    result = award_prizes(ann, rows, fees, eligibility=elig, disqualified=dq)
    assert result.paid_cents <= fees + fixed_total
    assert not set(result.money_by_player()) & dq
    assert result.paid_cents + sum(u.money_cents for u in result.unawarded) == fees + fixed_total


@settings(max_examples=200, deadline=None)
@given(
    fees=st.integers(min_value=0, max_value=10**8),
    rate=st.integers(min_value=0, max_value=10_000),
    bps=st.lists(st.integers(min_value=0, max_value=2_500), min_size=1, max_size=4),
)
def test_finalised_shares_never_exceed_the_pool(fees: int, rate: int, bps: list[int]) -> None:
    """R11.2: the pool shares total floor(pool x shares), never more than the pool."""
    ann = PrizeAnnouncement(
        places=tuple(PlacePrize(place=i + 1, money=share(bp)) for i, bp in enumerate(bps)), pool_rate_bp=rate
    )
    money = finalise_money(ann, fees)
    assert money.pool_cents == fees * rate // 10_000
    assert money.total_cents == money.pool_cents * sum(bps) // 10_000 <= money.pool_cents
    for i, bp in enumerate(bps):
        assert abs(money.amount("main", i + 1) * 10_000 - money.pool_cents * bp) < 10_000


@settings(max_examples=200, deadline=None)
@given(total=st.integers(min_value=0, max_value=10**9), n=st.integers(min_value=1, max_value=20))
def test_split_is_exact_and_even(total: int, n: int) -> None:
    """R11.3: an equal split loses no cent and differs by at most one cent, first listed first."""
    players = [f"p{i}" for i in range(n)]
    parts = split_cents(total, players)
    assert sum(parts.values()) == total
    values = [parts[p] for p in players]
    assert values == sorted(values, reverse=True) and values[0] - values[-1] <= 1


@pytest.mark.parametrize(
    ("gender", "birth_year", "expected"),
    [
        ("female", 1990, {"women"}),
        ("male", 2009, {"youth"}),  # 17 in 2026
        ("male", 2008, set()),  # 18 in 2026: no longer youth
        ("female", 1966, {"women", "veteran"}),  # 60 in 2026
        ("other", 1967, set()),  # 59
        (None, None, set()),  # nothing declared: nothing assumed
    ],
)
def test_category_eligibility_by_gender_and_age_reached_in_the_tournaments_year(
    gender: str | None, birth_year: int | None, expected: set[str]
) -> None:
    """R11.4: women by gender, youth under 18 and veterans 60 or older in the tournament's year."""
    assert categories_of(gender, birth_year, 2026) == expected


def test_the_organiser_sets_other_age_limits() -> None:
    """R11.4: youth under 21, veterans from 50, when the organiser says so."""
    assert categories_of("male", 2006, 2026, youth_under=21, veteran_from=50) == {"youth"}
    assert categories_of("male", 1976, 2026, youth_under=21, veteran_from=50) == {"veteran"}
