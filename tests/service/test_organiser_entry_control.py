"""The organiser's control of entries (R3.7): approval (pending, approved, refused), placements."""

from __future__ import annotations

from tests.service.conftest import Api
from tests.service.helpers import (
    ORGANISER,
    appoint_referee,
    create_player,
    create_tournament,
    entries,
    register,
)


def decide(api: Api, tid: str, tavla_id: str, verdict: str, user: str = ORGANISER):
    return api.call(
        "POST",
        f"/tournaments/{{tournament_id}}/registrations/{{tavla_id}}/{verdict}",
        params={"tournament_id": tid, "tavla_id": tavla_id},
        user=user,
    )


def counters(api: Api, tid: str) -> tuple[int, int]:
    body = api.call("GET", "/tournaments/{tournament_id}", params={"tournament_id": tid}).body
    return body["registered"], body["waiting"]


def staff_view(api: Api, tid: str) -> dict[str, list[dict[str, str]]]:
    view: dict[str, list[dict[str, str]]] = api.call(
        "GET", "/tournaments/{tournament_id}/entries/contacts", params={"tournament_id": tid}, user=ORGANISER
    ).body
    return view


def test_entries_wait_as_pending_until_approved_then_take_a_place_or_join_the_waiting_list(api: Api) -> None:
    tid = create_tournament(api, capacity=2, requires_approval=True)
    ids = {u: create_player(api, u) for u in ("a", "b", "c")}
    for user in ids:
        reply = register(api, tid, user)
        assert (reply.status, reply.body["status"]) == (201, "pending")
    assert counters(api, tid) == (0, 0)  # pending entries take no place
    assert entries(api, tid) == {"main": [], "waiting": []}
    assert [e["tavla_id"] for e in staff_view(api, tid)["pending"]] == [ids["a"], ids["b"], ids["c"]]

    verdicts = [decide(api, tid, ids[u], "approve") for u in ("c", "a", "b")]
    assert [(v.status, v.body["status"]) for v in verdicts] == [
        (200, "registered"),
        (200, "registered"),
        (200, "waitlisted"),
    ]
    assert verdicts[2].body["position"] == 1
    assert counters(api, tid) == (2, 1)
    listed = entries(api, tid)
    assert [e["tavla_id"] for e in listed["main"]] == [ids["c"], ids["a"]]
    assert [e["tavla_id"] for e in listed["waiting"]] == [ids["b"]]
    again = decide(api, tid, ids["a"], "approve")
    assert (again.status, again.error) == (409, "not_pending")


def test_a_refusal_needs_no_reason_frees_nothing_and_is_recorded(api: Api) -> None:
    tid = create_tournament(api, capacity=2, requires_approval=True)
    a, b = create_player(api, "a"), create_player(api, "b")
    register(api, tid, "a")
    register(api, tid, "b")
    assert decide(api, tid, a, "approve").status == 200
    refused = decide(api, tid, b, "refuse")
    assert (refused.status, refused.body["status"]) == (200, "refused")
    assert counters(api, tid) == (1, 0)
    assert (decide(api, tid, b, "approve").status, decide(api, tid, b, "refuse").status) == (409, 409)
    assert [e["tavla_id"] for e in entries(api, tid)["main"]] == [a]
    trail = api.call(
        "GET", "/tournaments/{tournament_id}/audit", params={"tournament_id": tid}, user=ORGANISER
    )
    decisions = [(r["action"], r["details"]["tavla_id"]) for r in trail.body["records"][:2]]
    assert decisions == [("refused", b), ("approved", a)]
    again = register(api, tid, "b")  # the refused entry stays: no second try by the back door
    assert (again.status, again.error) == (409, "already_registered")
    [entry] = api.call("GET", "/me/data", user="b").body["registrations"]
    assert entry["status"] == "refused"


def test_pending_and_refused_entries_cannot_check_in_and_pending_ones_can_withdraw(api: Api) -> None:
    tid = create_tournament(api, capacity=4, requires_approval=True)
    referee = create_player(api, "ref")
    appoint_referee(api, tid, referee)
    a, b = create_player(api, "a"), create_player(api, "b")
    register(api, tid, "a")
    register(api, tid, "b")
    decide(api, tid, b, "refuse")
    for player in (a, b):
        reply = api.call(
            "POST",
            "/tournaments/{tournament_id}/checkins",
            params={"tournament_id": tid},
            user="ref",
            body={"tavla_id": player},
        )
        assert (reply.status, reply.error) == (409, "not_registered")
    withdrawn = api.call(
        "DELETE", "/tournaments/{tournament_id}/registrations/me", params={"tournament_id": tid}, user="a"
    )
    assert withdrawn.status == 200
    assert staff_view(api, tid)["pending"] == []
    refused_leaves = api.call(
        "DELETE", "/tournaments/{tournament_id}/registrations/me", params={"tournament_id": tid}, user="b"
    )
    assert (refused_leaves.status, refused_leaves.error) == (409, "not_registered")


def test_only_its_organisers_decide_and_bad_input_changes_nothing(api: Api) -> None:
    tid = create_tournament(api, capacity=4, requires_approval=True)
    referee = create_player(api, "ref")
    appoint_referee(api, tid, referee)
    a = create_player(api, "a")
    register(api, tid, "a")
    for user, status, code in (("a", 403, "not_organiser"), ("ref", 403, "not_organiser")):
        for verdict in ("approve", "refuse"):
            reply = decide(api, tid, a, verdict, user=user)
            assert (reply.status, reply.error) == (status, code)
    anonymous = api.call(
        "POST",
        "/tournaments/{tournament_id}/registrations/{tavla_id}/approve",
        params={"tournament_id": tid, "tavla_id": a},
    )
    assert anonymous.status == 401
    assert decide(api, tid, "not-an-id!", "approve").status == 422
    assert decide(api, tid, "ZZZZZZZ", "approve").error == "not_pending"
    assert decide(api, "nosuchtournament", a, "approve").error == "tournament_not_found"
    assert decide(api, tid, a, "approve", user="other-admin").status == 403  # signed in, not its organiser
    assert [e["tavla_id"] for e in staff_view(api, tid)["pending"]] == [a]
    assert counters(api, tid) == (0, 0)


def test_without_approval_nothing_is_pending(api: Api) -> None:
    tid = create_tournament(api, capacity=4)
    a = create_player(api, "a")
    assert register(api, tid, "a").body["status"] == "registered"
    assert (decide(api, tid, a, "approve").status, decide(api, tid, a, "approve").error) == (
        409,
        "not_pending",
    )


DIVISIONS = [
    {"id": "open", "name": "Open"},
    {"id": "inter", "name": "Intermediate"},
    {"id": "novice", "name": "Novice"},
]


def place(api: Api, tid: str, tavla_id: str, division: str | None, user: str = ORGANISER):
    return api.call(
        "PUT",
        "/tournaments/{tournament_id}/placements/{tavla_id}",
        params={"tournament_id": tid, "tavla_id": tavla_id},
        body={"division": division},
        user=user,
    )


def enter(api: Api, tid: str, user: str, division: str):
    return api.call(
        "POST",
        "/tournaments/{tournament_id}/registrations",
        params={"tournament_id": tid},
        body={"division": division},
        user=user,
    )


def test_a_placed_player_is_barred_below_their_division_and_invited_up_to_it(api: Api) -> None:
    """hbf 1.4 / cnb 1.4.2: divisions are listed highest first; a placement bars the lower ones."""
    tid = create_tournament(api, capacity=8, divisions=DIVISIONS)
    strong, novice = create_player(api, "strong"), create_player(api, "novice")
    assert place(api, tid, strong, "inter").body == {
        "tavla_id": strong,
        "division": "inter",
        "name": "Player strong",
    }
    barred = enter(api, tid, "strong", "novice")
    assert (barred.status, barred.error) == (409, "division_barred")
    assert entries(api, tid)["main"] == []
    assert enter(api, tid, "strong", "open").status == 201  # higher is always allowed
    assert place(api, tid, novice, "open").status == 200  # an invitation to the top division
    assert (enter(api, tid, "novice", "inter").error, enter(api, tid, "novice", "open").status) == (
        "division_barred",
        201,
    )
    trail = api.call(
        "GET", "/tournaments/{tournament_id}/audit", params={"tournament_id": tid}, user=ORGANISER
    )
    placed = [r["details"] for r in trail.body["records"] if r["action"] == "placed"]
    assert placed == [{"tavla_id": novice, "division": "open"}, {"tavla_id": strong, "division": "inter"}]


def test_a_placement_can_be_lifted_and_only_its_organisers_place(api: Api) -> None:
    tid = create_tournament(api, capacity=8, divisions=DIVISIONS)
    a = create_player(api, "a")
    referee = create_player(api, "ref")
    appoint_referee(api, tid, referee)
    assert place(api, tid, a, "open").status == 200
    for user in ("a", "ref"):
        refused = place(api, tid, a, "novice", user=user)
        assert (refused.status, refused.error) == (403, "not_organiser")
    assert place(api, tid, a, None).body == {"tavla_id": a, "division": None, "name": "Player a"}
    assert enter(api, tid, "a", "novice").status == 201


def test_placement_bad_input_is_refused_and_changes_nothing(api: Api) -> None:
    tid = create_tournament(api, capacity=8, divisions=DIVISIONS)
    a = create_player(api, "a")
    assert place(api, tid, a, "seniors").status == 422  # no such division
    assert place(api, tid, "ZZZZZZZ", "open").error == "player_not_found"
    assert place(api, tid, "bad id!", "open").status == 422
    assert place(api, "nosuchtournament", a, "open").error == "tournament_not_found"
    malformed = api.call(
        "PUT",
        "/tournaments/{tournament_id}/placements/{tavla_id}",
        params={"tournament_id": tid, "tavla_id": a},
        body={"division": "open", "extra": 1},
        user=ORGANISER,
    )
    assert malformed.status == 422
    anonymous = api.call(
        "PUT",
        "/tournaments/{tournament_id}/placements/{tavla_id}",
        params={"tournament_id": tid, "tavla_id": a},
        body={"division": "open"},
    )
    assert anonymous.status == 401
    assert enter(api, tid, "a", "novice").status == 201  # nothing was placed


# --- the web's entry list shows each entry's division
def test_the_entry_lists_say_each_entrys_division(api: Api) -> None:
    """R3.7: the public entry list and the organiser's (with contacts) carry the division each
    player entered, so the tournament page can show it when there are several."""
    tid = create_tournament(api, capacity=8, divisions=DIVISIONS)
    for user, division in (("a", "novice"), ("b", "open")):
        create_player(api, user)
        assert enter(api, tid, user, division).status == 201
    assert [(e["name"], e["division"]) for e in entries(api, tid)["main"]] == [
        ("Player a", "novice"),
        ("Player b", "open"),
    ]
    assert [e["division"] for e in staff_view(api, tid)["main"]] == ["novice", "open"]
