"""Tables with constraints (rules.venue): who may sit where, first queued first seated, and
why a match waits; over random halls, no match waits while a table it may use is free."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.tables import TablePlan, release, seat
from tavla.rules.venue import (
    ACCESSIBLE_TABLE_BUSY,
    HELD,
    NO_ACCESSIBLE_TABLE,
    NO_STREAMED_TABLE,
    STREAMED_TABLE_BUSY,
    TABLES_BUSY,
    Demand,
    TableAttributes,
    fill,
    holder,
    may_use,
    why_waiting,
)

ACCESS = TableAttributes(accessible=True)
STREAM = TableAttributes(streamed=True)


def test_a_plain_hall_seats_in_queue_order_on_the_lowest_tables() -> None:
    plan, calls = seat(TablePlan(count=2), ["a", "b", "c"])
    assert calls == {"a": 1, "b": 2} and plan.queue == ("c",)
    plan, calls = release(plan, ["b"])
    assert calls == {"c": 2} and plan.queue == ()


def test_a_player_who_needs_an_accessible_table_sits_only_at_one() -> None:
    plan = TablePlan(
        count=3,
        attributes={3: ACCESS},
        demands={"a": Demand(players=("P1", "P2"), accessible=True), "b": Demand(players=("P3", "P4"))},
    )
    plan, calls = seat(plan, ["b", "a"])
    # the plain match leaves the accessible table to whoever needs it
    assert calls == {"b": 1, "a": 3}


def test_an_accessible_match_waits_for_the_accessible_table_and_the_queue_goes_on() -> None:
    demands = {"x": Demand(players=("P9", "P8")), "a": Demand(players=("P1", "P2"), accessible=True)}
    plan = TablePlan(count=2, attributes={2: ACCESS}, occupied={2: "x"}, demands=demands)
    plan, calls = seat(plan, ["a", "b"])
    assert calls == {"b": 1} and plan.queue == ("a",)
    assert why_waiting("a", 2, plan.occupied, plan.attributes, plan.demands, {}) == (
        ACCESSIBLE_TABLE_BUSY,
        None,
    )
    plan, calls = release(plan, ["x"])
    assert calls == {"a": 2}


def test_without_an_accessible_table_in_service_the_desk_says_so() -> None:
    attributes = {1: TableAttributes(accessible=True, out_of_service=True)}
    demands = {"a": Demand(accessible=True)}
    _, waiting, calls = fill(2, {}, ["a"], attributes, demands, {})
    assert calls == {} and waiting == ("a",)
    assert why_waiting("a", 2, {}, attributes, demands, {}) == (NO_ACCESSIBLE_TABLE, None)


def test_the_streamed_table_takes_only_the_streamed_match() -> None:
    demands = {"top": Demand(streamed=True)}
    _, waiting, calls = fill(2, {}, ["a", "b", "top"], {1: STREAM}, demands, {})
    assert calls == {"a": 2, "top": 1} and waiting == ("b",)
    assert why_waiting("b", 2, {1: "top", 2: "a"}, {1: STREAM}, demands, {}) == (TABLES_BUSY, None)
    assert why_waiting("top", 2, {}, {}, demands, {}) == (NO_STREAMED_TABLE, None)
    assert why_waiting("top", 2, {1: "x"}, {1: STREAM}, demands, {}) == (STREAMED_TABLE_BUSY, None)


def test_a_reserved_table_takes_its_event_or_division_only() -> None:
    reserved = TableAttributes(reserved_for="last_chance")
    assert may_use(reserved, Demand(event="last_chance"))
    assert may_use(TableAttributes(reserved_for="novice"), Demand(event="main", division="novice"))
    assert not may_use(reserved, Demand(event="main"))
    assert not may_use(TableAttributes(out_of_service=True), Demand())


def test_a_player_at_a_table_holds_his_next_match_until_staff_release_it() -> None:
    demands = {"m": Demand(players=("P1", "P2")), "s": Demand(players=("P1", "P3"), event="last_chance")}
    _, waiting, calls = fill(3, {1: "m"}, ["s"], {}, demands, {})
    assert calls == {} and waiting == ("s",)
    assert why_waiting("s", 3, {1: "m"}, {}, demands, {}) == (HELD, "m")
    released = {**demands, "s": demands["s"].model_copy(update={"released": True})}
    assert fill(3, {1: "m"}, ["s"], {}, released, {})[2] == {"s": 2}


def test_a_player_playing_in_a_tournament_beside_is_held_and_two_queued_matches_of_one_player_wait() -> None:
    demands = {"a": Demand(players=("P1", "P2")), "b": Demand(players=("P2", "P3"))}
    assert holder(demands["a"], {"P1": "J.main.R1.1"}) == "J.main.R1.1"
    _, waiting, calls = fill(4, {}, ["a", "b"], {}, demands, {})
    assert calls == {"a": 1} and waiting == ("b",)  # P2 is at table 1: b is held
    _, waiting, calls = fill(4, {}, ["a", "b"], {}, demands, {"P1": "J.main.R1.1"})
    assert calls == {"b": 1} and waiting == ("a",)


PLAYERS = [f"P{i}" for i in range(8)]


@st.composite
def halls(draw: st.DrawFn) -> tuple[int, dict, dict, list, dict, dict]:
    count = draw(st.integers(1, 6))
    attributes = {
        t: TableAttributes(
            accessible=draw(st.booleans()),
            streamed=draw(st.booleans()),
            reserved_for=draw(st.sampled_from([None, None, "main", "last_chance", "novice"])),
            out_of_service=draw(st.booleans()),
        )
        for t in range(1, count + 1)
        if draw(st.booleans())
    }
    codes = [f"m{i}" for i in range(draw(st.integers(0, 10)))]
    demands = {
        c: Demand(
            players=tuple(draw(st.lists(st.sampled_from(PLAYERS), min_size=0, max_size=2, unique=True))),
            event=draw(st.sampled_from(["main", "last_chance"])),
            division=draw(st.sampled_from([None, "novice"])),
            accessible=draw(st.booleans()),
            streamed=draw(st.integers(0, 4)) == 0,
            released=draw(st.integers(0, 4)) == 0,
        )
        for c in codes
    }
    seated = draw(st.lists(st.sampled_from(codes), unique=True, max_size=count)) if codes else []
    tables = draw(st.permutations(list(range(1, count + 1))))
    occupied = dict(zip(tables, seated, strict=False))
    queue = [c for c in codes if c not in seated]
    elsewhere = {p: "J.main.R1.1" for p in PLAYERS if draw(st.integers(0, 5)) == 0}
    return count, attributes, occupied, queue, demands, elsewhere


@settings(max_examples=300, deadline=None)
@given(halls())
def test_no_match_waits_while_a_table_it_may_use_is_free(hall: tuple) -> None:
    count, attributes, occupied, queue, demands, elsewhere = hall
    taken, waiting, calls = fill(count, occupied, queue, attributes, demands, elsewhere)
    plain = TableAttributes()
    # every call honours its match's constraints, on a table that was free
    for code, table in calls.items():
        assert table not in occupied and may_use(attributes.get(table, plain), demands[code])
    # first queued, first seated: what is called keeps the queue's order among the matches
    assert list(calls) == [c for c in queue if c in calls]
    free = [t for t in range(1, count + 1) if t not in taken]
    for code in waiting:
        reason, _ = why_waiting(code, count, taken, attributes, demands, elsewhere)
        if reason != HELD:  # a match that is not held waits only when no table it may use is free
            assert not any(may_use(attributes.get(t, plain), demands[code]) for t in free)
    # no player is called to two tables, nor while he plays elsewhere (unless released)
    busy = set(elsewhere) | {p for c in occupied.values() for p in demands[c].players}
    for code in calls:  # in the order they were made
        if not demands[code].released:
            assert not busy & set(demands[code].players), code
        busy |= set(demands[code].players)
