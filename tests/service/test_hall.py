"""The hall's wiring (services.hall, store): a table's attributes and a player's need written
on the plan and honoured by the draw; a change that reads part of the day keeps the demands
key by key; refusals change nothing."""

from __future__ import annotations

from tavla.store import draws as draw_store
from tavla.store.records import TablesRecord
from tests.service.conftest import Api
from tests.service.day_helpers import audit_trail, checked_in_field, draw, official, records
from tests.service.helpers import ORGANISER, appoint_referee, create_player


def _plan(tournament_id: str) -> TablesRecord:
    tables = draw_store.day(tournament_id, with_rounds=False).tables
    assert tables is not None
    return tables


def test_a_need_and_an_accessible_table_seat_the_player_there(api: Api) -> None:
    tid, ids = checked_in_field(api, 4, tables=2)
    path = {"tournament_id": tid, "table": "2"}
    reply = api.call(
        "PUT",
        "/tournaments/{tournament_id}/tables/{table}",
        params=path,
        body={"accessible": True},
        user=ORGANISER,
    )
    assert reply.status == 200 and reply.body["tables"][1]["accessible"] is True, reply.body
    need = {"tournament_id": tid, "tavla_id": ids[0]}
    reply = api.call(
        "PUT",
        "/tournaments/{tournament_id}/needs/{tavla_id}",
        params=need,
        body={"accessible": True},
        user="player-0",
    )
    assert reply.status == 200, reply.body
    assert draw(api, tid).status == 201
    mine = next(r for r in records(tid).values() if ids[0] in (r.home, r.away) and r.round == 1)
    assert mine.table == 2
    desk = api.call("GET", "/tournaments/{tournament_id}/hall", params={"tournament_id": tid}, user=ORGANISER)
    assert desk.status == 200 and desk.body["needs"] == [ids[0]]


def test_refusals_change_nothing(api: Api) -> None:
    tid, ids = checked_in_field(api, 4, tables=2)
    before = draw_store.day(tid, with_rounds=False).tables
    path = {"tournament_id": tid, "table": "3"}
    reply = api.call(
        "PUT",
        "/tournaments/{tournament_id}/tables/{table}",
        params=path,
        body={"accessible": True},
        user=ORGANISER,
    )
    assert reply.status == 422 and reply.error == "validation_error", reply.body  # the hall has 2 tables
    need = {"tournament_id": tid, "tavla_id": ids[0]}
    reply = api.call(
        "PUT",
        "/tournaments/{tournament_id}/needs/{tavla_id}",
        params=need,
        body={"accessible": True},
        user="player-1",
    )
    assert reply.status == 403
    assert draw_store.day(tid, with_rounds=False).tables == before


def test_a_result_read_on_part_of_the_day_keeps_the_plan_s_demands(api: Api) -> None:
    """4 players, 1 table: the first semi-final's result (read by key) calls the second and
    writes its demand and drops the first's, key by key."""
    tid, _ = checked_in_field(api, 4, tables=1)
    assert draw(api, tid).status == 201
    plan = _plan(tid)
    assert plan.occupied == {"1": "main.R1.1"} and plan.queue == ("main.R1.2",)
    assert sorted(plan.demands or {}) == ["main.R1.1", "main.R1.2"]
    official(tid, "main.R1.1")
    plan = _plan(tid)
    assert plan.occupied == {"1": "main.R1.2"} and plan.queue == ()
    assert sorted(plan.demands or {}) == ["main.R1.2"]
    assert set((plan.demands or {})["main.R1.2"]["players"]) == {
        records(tid)["main.R1.2"].home,
        records(tid)["main.R1.2"].away,
    }


def test_a_player_reads_their_own_needs_in_the_tournaments_they_are_entered_in(api: Api) -> None:
    """The profile's list: each tournament the caller is entered in with their need there, set
    by them; another player's need is not in it."""
    tid, ids = checked_in_field(api, 4, tables=2)
    for user, tavla_id in (("player-0", ids[0]), ("player-1", ids[1])):
        reply = api.call(
            "PUT",
            "/tournaments/{tournament_id}/needs/{tavla_id}",
            params={"tournament_id": tid, "tavla_id": tavla_id},
            body={"accessible": user == "player-0"},
            user=user,
        )
        assert reply.status == 200, reply.body
    mine = api.call("GET", "/me/table-needs", user="player-0")
    assert mine.status == 200, mine.body
    [need] = mine.body["needs"]
    assert (need["tournament_id"], need["accessible"]) == (tid, True) and need["name"]
    theirs = api.call("GET", "/me/table-needs", user="player-1").body["needs"]
    assert [(n["tournament_id"], n["accessible"]) for n in theirs] == [(tid, False)]


def test_the_referee_sets_and_clears_a_player_s_need_at_the_desk(api: Api) -> None:
    """Staff set a player's need as the player would: the seating honours it, the player reads
    it on their profile, the audit trail names the referee (not the need), and clearing it
    frees the player to sit anywhere."""
    tid, ids = checked_in_field(api, 4, tables=2)
    referee = create_player(api, "ref-1", name="Referee")
    appoint_referee(api, tid, referee)
    table = {"tournament_id": tid, "table": "2"}
    body = {"accessible": True}
    assert (
        api.call(
            "PUT", "/tournaments/{tournament_id}/tables/{table}", params=table, body=body, user=ORGANISER
        ).status
        == 200
    )
    need = {"tournament_id": tid, "tavla_id": ids[0]}
    reply = api.call(
        "PUT", "/tournaments/{tournament_id}/needs/{tavla_id}", params=need, body=body, user="ref-1"
    )
    assert reply.status == 200 and reply.body == body, reply.body
    [mine] = api.call("GET", "/me/table-needs", user="player-0").body["needs"]
    assert (mine["tournament_id"], mine["accessible"]) == (tid, True)
    [entry] = [e for e in audit_trail(api, tid) if e["action"] == "need_set"]
    assert entry["actor"] == {"role": "referee", "tavla_id": referee}
    assert entry["details"] == {"tavla_id": ids[0]}  # which need is not in the trail
    assert draw(api, tid).status == 201
    seated = next(r for r in records(tid).values() if ids[0] in (r.home, r.away) and r.round == 1)
    assert seated.table == 2
    cleared = {"accessible": False}
    reply = api.call(
        "PUT", "/tournaments/{tournament_id}/needs/{tavla_id}", params=need, body=cleared, user="ref-1"
    )
    assert reply.status == 200, reply.body
    assert _plan(tid).needs.get(ids[0]) is None
    desk = api.call("GET", "/tournaments/{tournament_id}/hall", params={"tournament_id": tid}, user="ref-1")
    assert desk.status == 200 and desk.body["needs"] == []
    [mine] = api.call("GET", "/me/table-needs", user="player-0").body["needs"]
    assert mine["accessible"] is False
