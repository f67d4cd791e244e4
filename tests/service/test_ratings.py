"""Ratings on the bus: each official result moves both players' FIBS ratings, once,
in official order; forfeits are results but not rated; appeals and merges correct them."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise
from typing import Any

import pytest

from tavla import clock, events
from tavla.rules.results import Result
from tavla.rules.states import State
from tavla.services import progress, rebuild
from tavla.store.records import FixtureRecord
from tests.service.board_helpers import records
from tests.service.conftest import Api
from tests.service.day_helpers import checked_in_field, draw
from tests.service.season_helpers import (
    Published,
    bus,
    decide,
    deliver,
    entered,
    fibs,
    page,
    play_out,
    results,
)

__all__ = ["bus"]


def _played(api: Api, n: int = 8, **settings: Any) -> tuple[str, list[str]]:
    tid, ids = checked_in_field(api, n, **settings)
    assert draw(api, tid).status == 201
    play_out(tid, lambda m: m.home < m.away)
    return tid, ids


def _ratings(api: Api, ids: list[str]) -> dict[str, tuple[float, int]]:
    out = {}
    for p in ids:
        body = page(api, p)
        out[p] = (body["rating"], body["rated_matches"])
    return out


def test_ratings_after_a_tournament_equal_an_independent_recomputation(api: Api, bus: Published) -> None:
    """R10.3: both players move by 4*K*sqrt(n)*P, K from each one's own matches; the history
    holds match, before, after and K; provisional while under 30 rated matches."""
    _, ids = _played(api)
    official = results(bus)
    deliver(bus)
    expected = fibs(official)
    assert _ratings(api, ids) == {p: expected.get(p, (1500.0, 0)) for p in ids}
    winner = max(ids, key=lambda p: expected[p][0])
    body = page(api, winner)
    assert body["provisional"] is True and "phone" not in body
    lines = body["history"]
    assert lines[0]["after"] == body["rating"]
    assert lines[-1]["before"] == 1500.0 and lines[-1]["boost"] == 5.0
    for newer, older in pairwise(lines):
        assert newer["before"] == older["after"]


def test_a_redelivered_event_and_a_replayed_tournament_change_nothing(api: Api, bus: Published) -> None:
    """Each match is applied exactly once: the same events again leave every rating alone."""
    _, ids = _played(api)
    caught = [(k, d) for k, d in bus if k == events.RESULT_CONFIRMED]
    deliver(bus)
    first = _ratings(api, ids)
    bus.extend(caught[:1])
    assert deliver(bus)[0]["outcome"] == "unchanged"
    bus.extend(caught)
    deliver(bus)
    assert _ratings(api, ids) == first
    assert all(len(page(api, p)["history"]) == first[p][1] for p in ids)


def test_results_delivered_out_of_order_are_rated_in_official_order(api: Api, bus: Published) -> None:
    """EventBridge does not keep order: the ratings follow official_at, not arrival."""
    _, ids = _played(api)
    official = results(bus)
    bus[:] = list(reversed(bus))
    deliver(bus)
    expected = fibs(official)
    assert _ratings(api, ids) == {p: expected.get(p, (1500.0, 0)) for p in ids}


def test_a_forfeit_is_a_result_but_leaves_the_ratings_alone(api: Api, bus: Published) -> None:
    """R10.3, R8.1: a forfeit is in the player's results, not rated."""
    tid, ids = checked_in_field(api, 2)
    assert draw(api, tid).status == 201
    decide(tid, "main.R1.1", home_wins=True, forfeit=True)
    deliver(bus)
    for p in ids:
        body = page(api, p)
        assert (body["rating"], body["rated_matches"]) == (1500.0, 0)
        assert [(h["rated"], h["forfeit"], h["boost"]) for h in body["history"]] == [(False, True, 0.0)]


def test_an_appeal_that_changes_a_result_corrects_the_ratings(api: Api, bus: Published) -> None:
    """R9, R10.3: the decision republishes ResultConfirmed with the new winner; ratings follow,
    and equal the recomputation from the corrected results."""
    tid, ids = checked_in_field(api, 2)
    assert draw(api, tid).status == 201
    decide(tid, "main.R1.1", home_wins=True)
    deliver(bus)

    def overturn(match: FixtureRecord, _: progress.DayView) -> FixtureRecord:
        assert match.home and match.away
        result = {"winner": match.away, "home_points": 2, "away_points": match.length, "how": "decision"}
        return replace(
            match, state=State.OFFICIAL, result=Result.from_json(result), official_at=clock.now().isoformat()
        )

    progress.settle(tid, "main.R1.1", overturn, lambda a, b: [], clock.now())
    corrected = results(bus)
    deliver(bus)
    match = records(tid)["main.R1.1"]
    expected = fibs(corrected)
    assert _ratings(api, ids) == {p: expected[p] for p in ids}
    assert match.away is not None and expected[match.away][0] > 1500
    assert len(page(api, match.away)["history"]) == 1


def test_the_rating_list_is_sorted_paginated_filtered_and_marks_provisional(api: Api, bus: Published) -> None:
    """R10.3: the national list, highest first, an opaque cursor; by club; provisional marked."""
    _, ids = _played(api)
    deliver(bus)
    seen, after = [], None
    while True:
        query = {"limit": "3", **({"after": after} if after else {})}
        body = api.call("GET", "/ratings", query=query).body
        seen.extend(body["players"])
        after = body["next"]
        if not after:
            break
    assert sorted(p["tavla_id"] for p in seen) == sorted(ids)
    assert [p["rating"] for p in seen] == sorted((p["rating"] for p in seen), reverse=True)
    assert all(p["provisional"] and "phone" not in p for p in seen)
    club = api.call("GET", "/ratings", query={"club": "Club 1"}).body
    assert club["which"] == "club" and {p["club"] for p in club["players"]} == {"Club 1"}
    bad = api.call("GET", "/ratings", query={"after": "bm9wZQ"})
    assert (bad.status, bad.error) == (422, "invalid_cursor")


def test_a_merge_replays_the_merged_history_as_one_account(api: Api, bus: Published) -> None:
    """R1.1: the duplicate's results become the kept account's, replayed in time order; the
    opponents' later ratings follow; the result equals a rebuild from the confirmed results."""
    t1, ids = entered(api, ["a", "b", "c", "d"])
    play_out(t1, lambda m: m.home < m.away)
    t2, _ = entered(api, ["e", "f", "dup", "h"])
    play_out(t2, lambda m: m.home < m.away)
    t3, _ = entered(api, ["a", "e", "f", "h"])
    play_out(t3, lambda m: m.home > m.away)
    deliver(bus)
    keep, dup = ids[0], _id_of("dup")
    reply = api.call(
        "POST", "/admin/players/merge", body={"keep": keep, "merge": dup}, user="x", groups=("admins",)
    )
    assert reply.status == 200, reply.body
    assert [k for k, _ in bus] == [events.PLAYERS_MERGED]
    deliver(bus)
    listed = {p["tavla_id"] for p in api.call("GET", "/ratings").body["players"]}
    assert dup not in listed and keep in listed
    history = page(api, keep)["history"]
    assert {h["tournament_id"] for h in history} == {t1, t2, t3}
    assert [h["official_at"] for h in history] == sorted((h["official_at"] for h in history), reverse=True)
    report = rebuild.nightly(clock.now(), repair=False)
    assert report.clean, report.summary()


def _id_of(user: str) -> str:
    from tavla.store import players as player_store

    return player_store.tavla_id_of(user)


@pytest.mark.parametrize("tamper", ["rating", "ledger"])
def test_the_nightly_rebuild_finds_and_repairs_a_difference(api: Api, bus: Published, tamper: str) -> None:
    """R10.5: the rebuild recomputes from the confirmed results alone and repairs what differs."""
    from tavla.rules.rating import RatingState
    from tavla.store import keys
    from tavla.store import ratings as rating_store
    from tavla.store.dynamo import client, table_name
    from tavla.store.schema import MAIN

    _, ids = _played(api, 4)
    deliver(bus)
    good = _ratings(api, ids)
    if tamper == "rating":
        rating_store.put_profiles_state({ids[0]: RatingState(rating=1234.5, rated_matches=7)})
    else:
        entry = rating_store.ledger_from("2000-01", clock.now())[0]
        client().delete_item(TableName=table_name(MAIN), Key=keys.ledger(entry.key))
    found = rebuild.nightly(clock.now())
    assert not found.clean and found.repaired
    assert _ratings(api, ids) == good
    assert rebuild.nightly(clock.now()).clean


def test_a_players_history_pages_past_the_latest_results_with_a_cursor(api: Api, bus: Published) -> None:
    """R10.3: the player's page shows the latest results `limit` at a time and a cursor to the
    older ones, to the first; a cursor that is not this player's is refused."""
    _, ids = _played(api)
    deliver(bus)
    champion = max(ids, key=lambda p: page(api, p)["rated_matches"])
    everything = page(api, champion)["history"]
    assert len(everything) == 3 and page(api, champion)["history_next"] is None
    seen, before = [], None
    while True:
        query = {"limit": "2", **({"before": before} if before else {})}
        reply = api.call("GET", "/players/{tavla_id}", params={"tavla_id": champion}, query=query)
        assert reply.status == 200, reply.body
        seen.extend(reply.body["history"])
        before = reply.body["history_next"]
        if before is None:
            break
    assert seen == everything
    first = api.call("GET", "/players/{tavla_id}", params={"tavla_id": champion}, query={"limit": "1"}).body
    other = next(p for p in ids if p != champion)
    for bad, who in ((first["history_next"], other), ("bm9wZQ", champion)):
        reply = api.call("GET", "/players/{tavla_id}", params={"tavla_id": who}, query={"before": bad})
        assert (reply.status, reply.error) == (422, "invalid_cursor")
    assert (
        api.call("GET", "/players/{tavla_id}", params={"tavla_id": champion}, query={"limit": "0"}).status
        == 422
    )
