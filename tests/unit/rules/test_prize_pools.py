"""Event pools (R3.6, R11.2): a side event's or a lower division's prizes paid from its own fees
by default, or from the main pool when the organiser pools it; each pool pays at most itself."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavla.rules.prizes import (
    EventPrizes,
    Money,
    PlacePrize,
    PrizeAnnouncement,
    PrizeError,
    award_event,
    award_prizes,
    finalise_pools,
)
from tavla.rules.standings import Standing


def _shares(bps: list[int]) -> tuple[PlacePrize, ...]:
    return tuple(PlacePrize(place=i + 1, money=Money(pool_share_bp=bp)) for i, bp in enumerate(bps))


def _field(n: int) -> list[Standing]:
    return [Standing(player_id=f"p{i:02}", place=i, place_to=i) for i in range(1, n + 1)]


_BPS = st.lists(st.integers(min_value=0, max_value=3_000), min_size=1, max_size=3)


@given(
    fees=st.integers(min_value=0, max_value=10**7),
    rate=st.integers(min_value=0, max_value=10_000),
    main=_BPS,
    events=st.lists(st.tuples(_BPS, st.integers(min_value=0, max_value=10**7), st.booleans()), max_size=3),
)
def test_no_pool_pays_more_than_it_holds_and_no_fee_counts_twice(
    fees: int, rate: int, main: list[int], events: list[tuple[list[int], int, bool]]
) -> None:
    """Each pool's share prizes, as awarded to a full field, total at most that pool, to the
    cent; the pools together are at most the fees collected times the pool rate."""
    pooled_bps = sum(sum(bps) for bps, _, pooled in events if pooled)
    announcement = PrizeAnnouncement(places=_shares(main), pool_rate_bp=rate)
    listed = [
        EventPrizes(id=f"e{i}.main", places=_shares(bps), collected_cents=own, pooled=pooled)
        for i, (bps, own, pooled) in enumerate(events)
    ]
    if sum(main) + pooled_bps > 10_000:
        with pytest.raises(PrizeError):
            finalise_pools(announcement, fees, listed)
        return
    pools = finalise_pools(announcement, fees, listed)
    assert sum(pools.collected.values()) == fees
    assert pools.pool_cents <= fees * rate // 10_000 + len(listed)  # each pool rounds down alone
    assert pools.pool_cents <= fees
    field = _field(4)
    paid_by_pool = {"main": award_prizes(announcement, field, fees, money=pools.main).paid_cents}
    for event in listed:
        got, missed = award_event(event, field, pools)
        assert not missed and all(a.scope == event.id for a in got)
        source = event.id if event.id in pools.own else "main"
        paid_by_pool[source] = paid_by_pool.get(source, 0) + sum(a.money_cents for a in got)
    assert paid_by_pool.pop("main") <= pools.main.pool_cents
    for event_id, paid in paid_by_pool.items():
        assert paid <= pools.own[event_id].pool_cents == pools.collected[event_id] * rate // 10_000


def test_an_event_is_paid_from_its_own_fees_unless_pooled() -> None:
    """Fees 200.00 of which the Consolation collected 30.00: its 1st (100 % of its pool) wins
    30.00 and the main pool is 170.00; pooled, the main pool is 200.00 and its 1st's 10 % of it
    is 20.00."""
    announcement = PrizeAnnouncement(places=_shares([6000, 3000]))
    own = EventPrizes(id="consolation", places=_shares([10_000]), collected_cents=3000)
    pools = finalise_pools(announcement, 20_000, [own])
    assert (pools.main.pool_cents, pools.own["consolation"].pool_cents) == (17_000, 3000)
    assert [a.money_cents for a in award_event(own, _field(2), pools)[0]] == [3000]
    pooled = EventPrizes(id="consolation", places=_shares([1000]), collected_cents=3000, pooled=True)
    pools = finalise_pools(announcement, 20_000, [pooled])
    assert (pools.main.pool_cents, pools.own) == (20_000, {})
    assert [a.money_cents for a in award_event(pooled, _field(2), pools)[0]] == [2000]
    with pytest.raises(PrizeError):  # 60 + 30 + 20 % of the main pool
        finalise_pools(announcement, 20_000, [pooled.model_copy(update={"places": _shares([2000])})])


def test_an_event_without_money_prizes_pays_into_the_main_pool() -> None:
    """A Last Chance announcing only a cup keeps no pool: its fees stay in the main pool."""
    cup_only = EventPrizes(id="last_chance", places=(PlacePrize(place=1),), collected_cents=5000)
    pools = finalise_pools(PrizeAnnouncement(places=_shares([10_000])), 20_000, [cup_only])
    assert (pools.main.pool_cents, pools.own) == (20_000, {})
