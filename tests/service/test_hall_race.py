"""Two tournaments sharing a hall never call the same player at once: each reads the other's
plan before seating, and the call is written on condition the player is still at no table
there (`store.draws.require_free_beside`). The race is replayed by interleaving the reads and
writes by hand: both read the player free, the second write is refused, its retry holds."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tavla import clock
from tavla.errors import StaleMatch
from tavla.rules.model import DayChange
from tavla.services import progress
from tavla.store import draws as draw_store
from tavla.store import hall as hall_store
from tavla.store import matches as match_store
from tavla.store.records import TablesRecord
from tests.service.conftest import Api
from tests.service.day_helpers import checked_in_field, draw, official, records
from tests.service.helpers import ORGANISER


def _plan(tournament_id: str) -> TablesRecord:
    tables = draw_store.day(tournament_id, with_rounds=False).tables
    assert tables is not None
    return tables


def _put(api: Api, path: str, tournament_id: str, body: dict[str, Any], **params: str) -> None:
    reply = api.call(
        "PUT", path, params={"tournament_id": tournament_id, **params}, body=body, user=ORGANISER
    )
    assert reply.status == 200, reply.body


def _beside(api: Api, *tids: str) -> None:
    for tid in tids:
        _put(api, "/tournaments/{tournament_id}/hall", tid, {"beside": [t for t in tids if t != tid]})


def _desk(api: Api, tournament_id: str) -> dict[str, Any]:
    reply = api.call(
        "GET", "/tournaments/{tournament_id}/hall", params={"tournament_id": tournament_id}, user=ORGANISER
    )
    assert reply.status == 200, reply.body
    return dict(reply.body)


def _table_back(tournament_id: str) -> DayChange:
    """The tournament's table back in service, seated again as `services.hall` does, not written."""
    view = progress.read_day(tournament_id)
    assert view.day.tables is not None
    plan = replace(view.day.tables, attributes={})
    return replace(view.day, tables=plan, elsewhere=hall_store.elsewhere(plan)).reseat(clock.now())


def test_two_tournaments_calling_the_same_player_at_once_one_holds(api: Api) -> None:
    """Each tournament's only table is out of service, the shared player's match queued in
    both; both put it back at the same moment: the first call is written, the second is
    refused, and seated again it holds the match until the first one ends."""
    first, _ = checked_in_field(api, 2, users=["player-0", "player-1"], tables=1)
    second, _ = checked_in_field(api, 2, users=["player-0", "player-2"], tables=1)
    _beside(api, first, second)
    for tid in (first, second):
        _put(api, "/tournaments/{tournament_id}/tables/{table}", tid, {"out_of_service": True}, table="1")
        assert draw(api, tid).status == 201
        assert _plan(tid).occupied == {}
    ours, theirs = _table_back(first), _table_back(second)
    assert ours.called and theirs.called  # both read the shared player free
    match_store.save_change(first, ours)
    with pytest.raises(StaleMatch):
        match_store.save_change(second, theirs)
    (mine,) = records(second).values()
    assert mine.table is None and _plan(second).occupied == {}

    _put(api, "/tournaments/{tournament_id}/tables/{table}", second, {}, table="1")
    (ongoing,) = records(first).values()
    (hold,) = _desk(api, second)["holds"]
    assert (hold["by_tournament"], hold["by_match"], hold["match"]) == (first, ongoing.code, mine.code)
    official(first, ongoing.code)  # he is free: the tournament beside calls him
    (mine,) = records(second).values()
    assert mine.table == 1 and _plan(second).occupied == {"1": mine.code}


def test_a_result_read_on_part_of_the_day_does_not_call_a_player_just_called_beside(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A result frees the only table and calls the next match (a write of the plan key by
    key); its read of the hall beside is from before the player sat down there: the write is
    refused and its retry holds the match."""
    first, ids = checked_in_field(api, 4, tables=1)
    assert draw(api, first).status == 201
    plan = _plan(first)
    (queued,) = plan.queue
    playing = plan.occupied["1"]
    shared = records(first)[queued].home
    assert shared is not None
    second, _ = checked_in_field(api, 2, users=[f"player-{ids.index(shared)}", "player-9"], tables=1)
    _beside(api, first, second)
    assert draw(api, second).status == 201
    (theirs,) = records(second).values()
    assert theirs.table == 1  # the shared player sits down beside

    real, reads = hall_store.elsewhere, []

    def stale(tables: TablesRecord | None) -> dict[str, str]:
        reads.append(tables)
        return {} if len(reads) == 1 else real(tables)

    monkeypatch.setattr(hall_store, "elsewhere", stale)
    official(first, playing)
    assert len(reads) >= 2  # refused once, read again
    mine = records(first)[queued]
    assert mine.table is None and _plan(first).occupied == {}
    (hold,) = _desk(api, first)["holds"]
    assert (hold["by_tournament"], hold["by_match"], hold["tavla_id"]) == (second, theirs.code, shared)
