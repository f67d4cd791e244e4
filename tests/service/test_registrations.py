"""Registration, waiting list and withdrawal on moto (R3.1, R3.2, R3.5)."""

from __future__ import annotations

from tests.service.conftest import Api
from tests.service.helpers import create_player, create_tournament, entries, future, register


def withdraw(api: Api, tournament_id: str, user: str):
    return api.call(
        "DELETE",
        "/tournaments/{tournament_id}/registrations/me",
        params={"tournament_id": tournament_id},
        user=user,
    )


def test_players_beyond_capacity_join_the_waiting_list_in_order(api: Api) -> None:
    """R3.2: capacity 4, six players: four registered, two waiting in positions 1 and 2."""
    tid = create_tournament(api, capacity=4)
    replies = []
    for i in range(6):
        create_player(api, f"u{i}")
        replies.append(register(api, tid, f"u{i}"))
    assert [r.status for r in replies] == [201] * 6
    assert [r.body["status"] for r in replies] == ["registered"] * 4 + ["waitlisted"] * 2
    assert [r.body.get("position") for r in replies[4:]] == [1, 2]
    listed = entries(api, tid)
    assert [e["position"] for e in listed["main"]] == [1, 2, 3, 4]
    assert [e["position"] for e in listed["waiting"]] == [1, 2]
    assert all(len(r.body["checkin_code"]) == 8 for r in replies)


def test_a_player_cannot_register_twice(api: Api) -> None:
    """R3.1: one registration per player per tournament; the second is a 409 and changes nothing."""
    tid = create_tournament(api)
    create_player(api, "u1")
    assert register(api, tid, "u1").status == 201
    again = register(api, tid, "u1")
    assert (again.status, again.error) == (409, "already_registered")
    assert len(entries(api, tid)["main"]) == 1
    tournament = api.call("GET", "/tournaments/{tournament_id}", params={"tournament_id": tid}).body
    assert tournament["registered"] == 1


def test_withdrawal_promotes_first_waiting_player_and_notifies_them(api: Api) -> None:
    """R3.2: the first on the waiting list moves up automatically and is told."""
    tid = create_tournament(api, capacity=2)
    ids = [create_player(api, f"u{i}") for i in range(4)]
    for i in range(4):
        register(api, tid, f"u{i}")
    reply = withdraw(api, tid, "u0")
    assert reply.status == 200, reply.body
    assert reply.body["promoted"] == ids[2]
    listed = entries(api, tid)
    assert [e["tavla_id"] for e in listed["main"]] == [ids[1], ids[2]]
    assert [(e["tavla_id"], e["position"]) for e in listed["waiting"]] == [(ids[3], 1)]


def test_waiting_player_who_withdraws_moves_those_behind_up(api: Api) -> None:
    tid = create_tournament(api, capacity=2)
    ids = [create_player(api, f"u{i}") for i in range(5)]
    for i in range(5):
        register(api, tid, f"u{i}")
    assert withdraw(api, tid, "u3").status == 200
    listed = entries(api, tid)
    assert [e["tavla_id"] for e in listed["main"]] == [ids[0], ids[1]]
    assert [(e["tavla_id"], e["position"]) for e in listed["waiting"]] == [(ids[2], 1), (ids[4], 2)]
    # and the head of the list is still promoted correctly afterwards
    assert withdraw(api, tid, "u0").body["promoted"] == ids[2]


def test_withdrawing_without_a_registration_is_a_conflict(api: Api) -> None:
    tid = create_tournament(api)
    create_player(api, "u1")
    reply = withdraw(api, tid, "u1")
    assert (reply.status, reply.error) == (409, "not_registered")


def test_registration_after_close_is_refused_and_nothing_changes(api: Api) -> None:
    """R3.1: after the registration close time a registration is a 409."""
    tid = create_tournament(api, registration_closes_at=future(0.001), starts_at=future(1))
    create_player(api, "u1")
    from datetime import timedelta

    from tavla import clock

    clock.advance(timedelta(minutes=5))
    reply = register(api, tid, "u1")
    assert (reply.status, reply.error) == (409, "registration_closed")
    assert entries(api, tid) == {"main": [], "waiting": []}


def test_registration_needs_a_profile_and_a_known_tournament(api: Api) -> None:
    tid = create_tournament(api)
    no_profile = register(api, tid, "nobody")
    assert (no_profile.status, no_profile.error) == (404, "profile_missing")
    create_player(api, "u1")
    unknown = register(api, "doesnotexist", "u1")
    assert (unknown.status, unknown.error) == (404, "tournament_not_found")


def test_registration_needs_a_token(api: Api) -> None:
    tid = create_tournament(api)
    reply = api.call("POST", "/tournaments/{tournament_id}/registrations", params={"tournament_id": tid})
    assert (reply.status, reply.error) == (401, "unauthorized")


def test_unknown_division_is_a_validation_error(api: Api) -> None:
    tid = create_tournament(api)
    create_player(api, "u1")
    reply = api.call(
        "POST",
        "/tournaments/{tournament_id}/registrations",
        params={"tournament_id": tid},
        body={"division": "seniors"},
        user="u1",
    )
    assert reply.status == 422
    assert entries(api, tid)["main"] == []


def test_public_entry_list_has_no_contact_data(api: Api) -> None:
    """R12.1: the public list shows name, club, city; never phone or e-mail."""
    tid = create_tournament(api)
    create_player(api, "u1", name="Eleni", club="Plaka BG", phone="+30 697 123 4567", email="e@example.com")
    register(api, tid, "u1")
    listed = entries(api, tid)
    text = str(listed)
    assert "Eleni" in text and "Plaka BG" in text
    assert "6971234567" not in text and "example.com" not in text


def test_raising_capacity_promotes_the_waiting_list_before_newcomers(api: Api) -> None:
    """R3.2: first come, first served: places added by the organiser go to those waiting."""
    tid = create_tournament(api, capacity=2)
    ids = [create_player(api, f"u{i}") for i in range(5)]
    for i in range(4):
        register(api, tid, f"u{i}")
    reply = api.call(
        "PATCH",
        "/tournaments/{tournament_id}",
        params={"tournament_id": tid},
        user="org-1",
        body={"capacity": 3},
    )
    assert reply.status == 200, reply.body
    assert (reply.body["registered"], reply.body["waiting"]) == (3, 1)
    listed = entries(api, tid)
    assert [e["tavla_id"] for e in listed["main"]] == ids[:3]
    assert [e["tavla_id"] for e in listed["waiting"]] == [ids[3]]
    late = register(api, tid, "u4")
    assert (late.body["status"], late.body["position"]) == ("waitlisted", 2)
