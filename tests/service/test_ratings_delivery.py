"""Ratings whatever order and however often EventBridge delivers (R10.3, R9): the ratings are
always each match's latest result, replayed in official order, as the rebuild computes them;
a late copy of a result an appeal overturned changes nothing."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tavla import clock, events
from tavla.services import progress, rebuild
from tests.service.conftest import Api
from tests.service.season_helpers import (
    Published,
    bus,
    decide,
    deliver,
    entered,
    fibs,
    overturn,
    page,
    wipe_ratings,
)

__all__ = ["bus"]

Caught = list[tuple[str, dict[str, Any]]]


def _day_with_an_appeal(api: Api, bus: Published) -> tuple[list[str], Caught, list[dict[str, Any]]]:
    """A 4-player knockout: both semi-finals confirmed, the first overturned on appeal (a new
    ResultConfirmed, a later official_at), then the final. Returns the players, every
    ResultConfirmed in the order published, and the results as they finally stand."""
    tid, ids = entered(api, ["a", "b", "c", "d"])
    decide(tid, "main.R1.1", home_wins=True)
    decide(tid, "main.R1.2", home_wins=True)
    progress.settle(tid, "main.R1.1", overturn, lambda a, b: [], clock.now())
    decide(tid, "main.R2.1", home_wins=False)
    caught = [(k, d) for k, d in bus if k == events.RESULT_CONFIRMED]
    bus.clear()
    latest = {d["match_id"]: d for _, d in caught}  # published in order: the last one stands
    assert len(caught) == 4 and len(latest) == 3
    return ids, caught, list(latest.values())


def _ratings(api: Api, ids: list[str]) -> dict[str, tuple[float, int]]:
    return {p: (page(api, p)["rating"], page(api, p)["rated_matches"]) for p in ids}


def _as_the_record_says(api: Api, ids: list[str], latest: list[dict[str, Any]]) -> None:
    expected = fibs(latest)
    assert _ratings(api, ids) == {p: expected.get(p, (1500.0, 0)) for p in ids}
    report = rebuild.nightly(clock.now(), repair=False)
    assert report.clean, report.summary()


def test_a_late_copy_of_an_overturned_result_changes_nothing(api: Api, bus: Published) -> None:
    """R9, R10.3: A beats B, confirmed; on appeal B wins; the original ResultConfirmed delivered
    again after the correction leaves the ratings on B's win (the match shows B)."""
    ids, caught, latest = _day_with_an_appeal(api, bus)
    original, corrected = caught[0][1], caught[2][1]
    assert original["match_id"] == corrected["match_id"] and corrected["version"] > original["version"]
    bus.extend(caught)
    deliver(bus)
    bus.append((events.RESULT_CONFIRMED, original))
    assert deliver(bus)[0]["outcome"] == "superseded"
    _as_the_record_says(api, ids, latest)


def test_every_event_twice_in_reverse_order_gives_the_rebuilds_ratings(api: Api, bus: Published) -> None:
    """R10.3: EventBridge delivers at least once, in any order: each result twice, newest
    first; the ratings equal an independent recomputation and the rebuild's."""
    ids, caught, latest = _day_with_an_appeal(api, bus)
    bus.extend(list(reversed(caught)) * 2)
    deliver(bus)
    _as_the_record_says(api, ids, latest)


def test_every_event_twice_shuffled_gives_the_rebuilds_ratings(api: Api, bus: Published) -> None:
    """R10.3: any order of two copies of every ResultConfirmed of a day with an appeal, on a
    rating state wiped before each, gives the ratings of the results as they stand."""
    ids, caught, latest = _day_with_an_appeal(api, bus)

    @settings(max_examples=6, deadline=None, database=None)
    @given(order=st.permutations(caught * 2))
    def delivered(order: Caught) -> None:
        wipe_ratings(ids)
        bus.extend(order)
        deliver(bus)
        _as_the_record_says(api, ids, latest)

    delivered()
