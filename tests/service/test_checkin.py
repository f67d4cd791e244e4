"""Check-in at the referee table on moto (R4.1-R4.3, R1.3, R12.1)."""

from __future__ import annotations

import jwt

from tests.service.conftest import Api
from tests.service.helpers import ORGANISER, appoint_referee, create_player, create_tournament, register


def setup_day(api: Api, capacity: int = 4) -> tuple[str, str]:
    tid = create_tournament(api, capacity=capacity)
    referee = create_player(api, "ref", name="Referee")
    appoint_referee(api, tid, referee)
    return tid, referee


def check_in(api: Api, tid: str, body: dict, user: str = "ref"):
    return api.call(
        "POST", "/tournaments/{tournament_id}/checkins", params={"tournament_id": tid}, body=body, user=user
    )


def test_referee_checks_in_by_pass_tavla_id_or_phone(api: Api) -> None:
    """R4.1: the QR pass, the Tavla ID or the registered phone number."""
    tid, _ = setup_day(api)
    a = create_player(api, "a", phone="+30 697 123 4567")
    b = create_player(api, "b")
    c = create_player(api, "c")
    for user in ("a", "b", "c"):
        register(api, tid, user)
    token = api.call("GET", "/me/checkin-pass", user="b").body["token"]
    by_phone = check_in(api, tid, {"phone": "6971234567"})
    by_pass = check_in(api, tid, {"pass": token})
    by_id = check_in(api, tid, {"tavla_id": c.lower()})
    assert [r.status for r in (by_phone, by_pass, by_id)] == [200, 200, 200]
    assert [r.body["tavla_id"] for r in (by_phone, by_pass, by_id)] == [a, b, c]
    assert not any(r.body["already_checked_in"] for r in (by_phone, by_pass, by_id))


def test_scanning_twice_is_fine(api: Api) -> None:
    """R4.3: check-in is idempotent."""
    tid, _ = setup_day(api)
    a = create_player(api, "a")
    register(api, tid, "a")
    first = check_in(api, tid, {"tavla_id": a})
    second = check_in(api, tid, {"tavla_id": a})
    assert (first.status, second.status) == (200, 200)
    assert (first.body["already_checked_in"], second.body["already_checked_in"]) == (False, True)
    assert first.body["checked_in_at"] == second.body["checked_in_at"]


def test_forged_or_altered_pass_is_refused(api: Api) -> None:
    tid, _ = setup_day(api)
    a = create_player(api, "a")
    register(api, tid, "a")
    forged = jwt.encode(
        {"sub": a, "aud": "tavla-checkin", "exp": 4102444800}, "guessed-key", algorithm="HS256"
    )
    for bad in (forged, "not-a-token", api.call("GET", "/me/checkin-pass", user="a").body["token"] + "x"):
        reply = check_in(api, tid, {"pass": bad})
        assert (reply.status, reply.error) == (400, "invalid_pass")
    entries = api.call("GET", "/tournaments/{tournament_id}/entries", params={"tournament_id": tid}).body
    assert not any(e["checked_in"] for e in entries["main"])


def test_exactly_one_identifier_is_required(api: Api) -> None:
    tid, _ = setup_day(api)
    a = create_player(api, "a")
    assert check_in(api, tid, {}).status == 422
    assert check_in(api, tid, {"tavla_id": a, "phone": "6971234567"}).status == 422


def test_unknown_player_is_404_and_unregistered_player_is_409(api: Api) -> None:
    tid, _ = setup_day(api)
    outsider = create_player(api, "x")
    unknown = check_in(api, tid, {"tavla_id": "ZZZZZZZ"})
    assert (unknown.status, unknown.error) == (404, "player_not_found")
    not_registered = check_in(api, tid, {"tavla_id": outsider})
    assert (not_registered.status, not_registered.error) == (409, "not_registered")


def test_only_this_tournaments_staff_check_in(api: Api) -> None:
    """R1.3: a referee of another tournament, or a player, cannot check anyone in."""
    refereed, _ = setup_day(api)
    other = create_tournament(api)
    a = create_player(api, "a")
    register(api, refereed, "a")
    register(api, other, "a")
    by_player = check_in(api, refereed, {"tavla_id": a}, user="a")
    assert (by_player.status, by_player.error) == (403, "not_staff")
    foreign = check_in(api, other, {"tavla_id": a}, user="ref")
    assert (foreign.status, foreign.error) == (403, "not_staff")
    entries = api.call("GET", "/tournaments/{tournament_id}/entries", params={"tournament_id": other}).body
    assert not entries["main"][0]["checked_in"]
    assert check_in(api, refereed, {"tavla_id": a}, user="ref").status == 200


def test_waiting_list_player_who_is_present_can_check_in(api: Api) -> None:
    """R4.2: a present waiting-list player is checked in, marked as waiting."""
    tid, _ = setup_day(api, capacity=2)
    players = [create_player(api, f"p{i}") for i in range(3)]
    for i in range(3):
        register(api, tid, f"p{i}")
    reply = check_in(api, tid, {"tavla_id": players[2]})
    assert reply.status == 200 and reply.body["status"] == "waitlisted"


def test_checkin_closes_when_the_organiser_closes_it(api: Api) -> None:
    tid, _ = setup_day(api)
    a = create_player(api, "a")
    register(api, tid, "a")
    by_referee = api.call(
        "POST", "/tournaments/{tournament_id}/checkins/close", params={"tournament_id": tid}, user="ref"
    )
    assert by_referee.status == 403
    closed = api.call(
        "POST", "/tournaments/{tournament_id}/checkins/close", params={"tournament_id": tid}, user=ORGANISER
    )
    assert closed.status == 200
    reply = check_in(api, tid, {"tavla_id": a})
    assert (reply.status, reply.error) == (409, "checkin_closed")


def test_contacts_list_is_for_staff_only(api: Api) -> None:
    """R12.1: phone and e-mail go to the organiser and referees of that tournament only."""
    tid, _ = setup_day(api)
    create_player(api, "a", phone="+306971234567", email="a@example.com")
    register(api, tid, "a")
    staff = api.call(
        "GET", "/tournaments/{tournament_id}/entries/contacts", params={"tournament_id": tid}, user="ref"
    )
    assert staff.status == 200
    assert staff.body["main"][0]["phone"] == "+306971234567"
    player = api.call(
        "GET", "/tournaments/{tournament_id}/entries/contacts", params={"tournament_id": tid}, user="a"
    )
    assert player.status == 403


def test_a_non_staff_caller_learns_nothing_from_a_check_in_whatever_the_body(api: Api) -> None:
    """No phone-number oracle: 403 before any lookup, for a known phone, an unknown phone,
    a garbage pass and an unknown Tavla ID alike; nobody is checked in."""
    tid, _ = setup_day(api)
    create_player(api, "a", phone="+306971234567")
    register(api, tid, "a")
    create_player(api, "nosy")
    for body in (
        {"phone": "+306971234567"},
        {"phone": "+306979999999"},
        {"pass": "garbage"},
        {"tavla_id": "ZZZZZZZ"},
    ):
        reply = check_in(api, tid, body, user="nosy")
        assert (reply.status, reply.error) == (403, "not_staff"), body
    entries = api.call("GET", "/tournaments/{tournament_id}/entries", params={"tournament_id": tid}).body
    assert not entries["main"][0]["checked_in"]
