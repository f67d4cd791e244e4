"""The full rebuild in partitioned steps (R10.3, R10.5, R1.1): from an empty rating and
season state, the registry's workflow steps, run as the local stack runs them (in order,
through the `rebuild` function's handler), give back exactly the incremental state."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from infra.registry import workflow
from local import workflows
from tavla import clock
from tavla.services import full_rebuild, progress, rebuild, season
from tavla.store import players as player_store
from tavla.store import ratings as rating_store
from tavla.store import season as season_store
from tests.service.conftest import Api, LambdaContext
from tests.service.season_helpers import (
    Published,
    _id_of_user,
    bus,
    decide,
    deliver,
    entered,
    fibs,
    finish,
    overturn,
    page,
    play_out,
    results,
    wipe_ratings,
)

__all__ = ["bus"]

ADMIN = {"user": "fed", "groups": ("admins",)}
rebuild_fn = importlib.import_module("functions.rebuild.handler")


def _run() -> dict[str, Any]:
    def invoke(function: str, event: dict[str, Any]) -> Any:
        assert function == "rebuild"
        return rebuild_fn.handler(event, LambdaContext("rebuild"))

    return workflows.run(workflow("rebuild"), invoke)


def _state(api: Api, ids: list[str]) -> dict[str, Any]:
    """What players see: the rating list, every history, the season standings."""
    ratings = api.call("GET", "/ratings", query={"limit": "200"}).body["players"]
    histories = {p: [s.model_dump() for s in rating_store.history(p)] for p in ids}
    standings = api.call("GET", "/seasons/{season_id}/standings", params={"season_id": "s2027"}).body
    return {"ratings": ratings, "histories": histories, "standings": standings}


def _wipe(ids: list[str]) -> None:
    """Everything the roll-ups wrote, gone: the ledger and its markers, histories, ratings, awards."""
    wipe_ratings(ids)
    for p, awards in season_store.entries("s2027").items():
        season_store.remove_awards("s2027", p, awards)
    season.refresh_standings("s2027")


@pytest.fixture
def shards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small partitions, so a test season spreads over several chunks and shards."""
    monkeypatch.setattr(full_rebuild, "CHUNK_TOURNAMENTS", 1)
    monkeypatch.setattr(full_rebuild, "PLAYER_SHARDS", 3)


def test_the_partitioned_rebuild_from_empty_equals_the_incremental_state(
    api: Api, bus: Published, shards: None
) -> None:
    """R10.5, R1.1: a season with an account merge, wiped, rebuilt step by step (a map over
    tournament chunks, one over player shards, one over seasons) is the incremental state
    again, and the nightly compare finds nothing; a second run repairs nothing."""
    body = {"name": "Season 2027", "starts_on": "2026-01-01", "ends_on": "2027-12-31", "settings": {}}
    api.call("PUT", "/seasons/{season_id}", params={"season_id": "s2027"}, body=body, **ADMIN)
    for users, level in ((["a", "b", "c", "d"], "local"), (["e", "f", "dup", "h"], "regional")):
        tid, _ = entered(api, users, season_id="s2027", level=level)
        play_out(tid, lambda m: m.home < m.away)
        finish(api, tid)
    tid, _ = entered(api, ["a", "e", "f", "h"], season_id="s2027", level="national")
    play_out(tid, lambda m: m.home > m.away)
    finish(api, tid)
    deliver(bus)
    keep, dup = _id_of_user("b"), _id_of_user("dup")
    assert api.call("POST", "/admin/players/merge", body={"keep": keep, "merge": dup}, **ADMIN).status == 200
    deliver(bus)
    ids = sorted(p for p in player_store.get_profiles([_id_of_user(u) for u in "abcdefh"]))
    before = _state(api, ids)
    assert before["standings"]["total"] == 7 and len(before["ratings"]) == 7

    _wipe(ids)
    assert _state(api, ids) != before
    state = _run()
    assert len(state["ledger"]) == 3 and len(state["players"]) == 3  # a chunk per tournament; 3 shards
    assert sum(r["missing"] for r in state["ledger"]) == 9
    assert sum(r["awards_differ"] for r in state["ledger"]) == 12  # 4 placed in each of 3 tournaments
    assert _state(api, ids) == before
    assert rebuild.nightly(clock.now(), repair=False).clean

    again = _run()
    assert sum(r["missing"] + r["changed"] + r["extra"] for r in again["ledger"]) == 0
    assert again["check"]["orphans"] == 0
    assert sum(r["histories_differ"] + r["ratings_differ"] for r in again["players"]) == 0
    assert sum(r["awards_differ"] for r in again["ledger"]) == 0
    assert [(s["awards_extra"], s["standings_rewritten"]) for s in again["seasons"]] == [(0, False)]


def test_players_the_ratings_function_never_reached_are_rated_by_the_rebuild(
    api: Api, bus: Published, shards: None
) -> None:
    """R10.3: results whose ratings were never applied (their delivery dead-lettered) leave the
    players' profiles as created; the full rebuild rates them from the record, and the nightly
    compare then finds nothing to repair."""
    tid, _ = entered(api, ["a", "b", "c", "d"])
    play_out(tid, lambda m: m.home < m.away)
    finish(api, tid)
    official = results(bus)
    bus.clear()  # never delivered to the ratings function
    ids = sorted(player_store.get_profiles([_id_of_user(u) for u in "abcd"]))
    assert all(p.rated_matches == 0 for p in player_store.get_profiles(ids).values())

    state = _run()
    assert sum(r["left_to_ratings"] for r in state["players"]) == 0
    assert sum(r["ratings_differ"] for r in state["players"]) == 4
    profiles = player_store.get_profiles(ids)
    assert {p: (round(r.rating, 6), r.rated_matches) for p, r in profiles.items()} == {
        p: (round(rating, 6), n) for p, (rating, n) in fibs(official).items()
    }
    assert rebuild.nightly(clock.now(), repair=False).clean


def test_a_shard_owns_each_player_once() -> None:
    """The player shards partition the players: every Tavla ID in exactly one, stably."""
    ids = [f"P{n:06d}" for n in range(2000)]
    shards = [full_rebuild.shard_of(p, 8) for p in ids]
    assert shards == [full_rebuild.shard_of(p, 8) for p in ids]
    assert set(shards) == set(range(8))
    assert max(shards.count(k) for k in range(8)) < 2000 / 8 * 1.2


def _while_reading(monkeypatch: pytest.MonkeyPatch, read: str, meanwhile: Any) -> None:
    """Run `meanwhile` once, just before the rebuild's first `rating_store.<read>` call of a
    step: the `ratings` function working between the rebuild's reads and its writes."""
    real = getattr(rating_store, read)
    armed = [True]

    def hooked(*args: Any, **kwargs: Any) -> Any:
        if armed[0]:
            armed[0] = False
            meanwhile()
        return real(*args, **kwargs)

    monkeypatch.setattr(rating_store, read, hooked)


def _as_the_record_says(api: Api, ids: list[str], official: list[dict[str, Any]]) -> None:
    latest = {d["match_id"]: d for d in official}
    expected = fibs(list(latest.values()))
    pages = {p: page(api, p) for p in ids}
    assert {p: (b["rating"], b["rated_matches"]) for p, b in pages.items()} == {
        p: expected.get(p, (1500.0, 0)) for p in ids
    }
    # the history too (the nightly compare reads only the ledger and the ratings)
    played = {p: sorted(d["match_id"] for d in latest.values() if p in (d["home"], d["away"])) for p in ids}
    assert {p: sorted(h["match_id"] for h in b["history"]) for p, b in pages.items()} == played
    report = rebuild.nightly(clock.now(), repair=False)
    assert report.clean, report.summary()


def _semi_finals(api: Api, bus: Published) -> tuple[str, list[str], list[dict[str, Any]]]:
    """A 4-player knockout with both semi-finals confirmed and rated; their ResultConfirmed."""
    tid, ids = entered(api, ["a", "b", "c", "d"])
    decide(tid, "main.R1.1", home_wins=True)
    decide(tid, "main.R1.2", home_wins=True)
    official = results(bus)
    deliver(bus)
    return tid, ids, official


def test_a_result_confirmed_while_the_players_step_runs_is_kept(
    api: Api, bus: Published, shards: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R10.3: the final is confirmed and rated after a player shard read the ledger and before
    it wrote: the shard's writes, conditioned on each player's rating sequence read, leave the
    finalists to a second pass, so the final's result is not lost."""
    monkeypatch.setattr(full_rebuild, "PLAYER_SHARDS", 1)  # the shard of the finalists, surely
    tid, ids, official = _semi_finals(api, bus)

    def final() -> None:
        decide(tid, "main.R2.1", home_wins=False)
        official.extend(results(bus))
        deliver(bus)

    _while_reading(monkeypatch, "history", final)
    state = _run()
    assert len(official) == 3
    assert sum(r.get("left_to_ratings", 0) for r in state["players"]) == 0
    _as_the_record_says(api, ids, official)


def test_a_correction_applied_while_the_ledger_step_runs_is_kept(
    api: Api, bus: Published, shards: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R9, R10.3: an appeal overturns a semi-final after a ledger chunk read the matches and
    before it wrote: the chunk's write, conditioned on the marker and its version, leaves the
    correction in place instead of writing the overturned result back."""
    tid, ids, official = _semi_finals(api, bus)

    def appeal() -> None:
        progress.settle(tid, "main.R1.1", overturn, lambda a, b: [], clock.now())
        official.extend(results(bus))
        deliver(bus)

    _while_reading(monkeypatch, "markers", appeal)
    _run()
    assert len(official) == 3
    _as_the_record_says(api, ids, official)
