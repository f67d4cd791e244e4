"""Table calls (R6): more matches than tables queue, and are called in order as tables free up."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tavla.rules.tables import TablePlan, release, seat


def test_matches_beyond_the_tables_queue_and_take_freed_tables_in_order() -> None:
    plan, calls = seat(TablePlan(count=2), ["a", "b", "c", "d"])
    assert calls == {"a": 1, "b": 2}
    assert plan.queue == ("c", "d")
    plan, calls = release(plan, ["b"])
    assert calls == {"c": 2}
    plan, calls = release(plan, ["a", "d"])
    assert calls == {}
    assert plan.occupied == {2: "c"} and plan.queue == ()


def test_seating_again_calls_nobody_twice() -> None:
    plan, _ = seat(TablePlan(count=1), ["a", "b"])
    again, calls = seat(plan, ["a", "b"])
    assert calls == {} and again == plan


@given(
    count=st.integers(1, 8),
    codes=st.lists(st.text("abcdefgh", min_size=1, max_size=2), unique=True, max_size=20),
    frees=st.lists(st.integers(0, 19), max_size=30),
)
def test_no_table_ever_holds_two_matches_and_the_queue_moves_in_order(
    count: int, codes: list[str], frees: list[int]
) -> None:
    plan, calls = seat(TablePlan(count=count), codes)
    called = list(calls)
    for i in frees:
        if i < len(codes):
            plan, more = release(plan, [codes[i]])
            called += list(more)
        assert len(set(plan.occupied.values())) == len(plan.occupied) <= count
        assert not set(plan.occupied.values()) & set(plan.queue)
    assert called == sorted(called, key=codes.index)  # called in the order they were queued
    assert len(called) == len(set(called))  # nobody called twice
