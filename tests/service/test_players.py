"""Player accounts on moto (R1.1, R1.2, R4.1, R12)."""

from __future__ import annotations

from datetime import timedelta

from tavla import clock, passes
from tests.service.conftest import PASS_KEY, Api
from tests.service.helpers import create_player, create_tournament, register


def test_profile_gets_a_short_typable_tavla_id(api: Api) -> None:
    """R1.1: a short, human-typable, unique ID."""
    reply = api.call("POST", "/players", body={"name": "Nikos", "club": "Pireas"}, user="u1")
    assert reply.status == 201
    tavla_id = reply.body["tavla_id"]
    assert len(tavla_id) == 7 and tavla_id.isalnum() and tavla_id.isupper()
    assert not set(tavla_id) & set("01ILOU")


def test_second_profile_for_the_same_user_is_refused(api: Api) -> None:
    """R1.1: one account per person; the second POST is a 409 and the first is unchanged."""
    first = create_player(api, "u1", name="Nikos")
    again = api.call("POST", "/players", body={"name": "Someone else"}, user="u1")
    assert (again.status, again.error) == (409, "profile_exists")
    assert api.call("GET", "/me", user="u1").body["name"] == "Nikos"
    assert api.call("GET", "/me", user="u1").body["tavla_id"] == first


def test_phone_numbers_are_stored_in_e164(api: Api) -> None:
    create_player(api, "u1", phone="697 123 4567")
    assert api.call("GET", "/me", user="u1").body["phone"] == "+306971234567"


def test_invalid_phone_is_a_validation_error(api: Api) -> None:
    reply = api.call("POST", "/players", body={"name": "N", "phone": "12"}, user="u1")
    assert (reply.status, reply.error) == (422, "validation_error")
    assert api.call("GET", "/me", user="u1").status == 404


def test_invalid_email_is_a_validation_error_and_a_valid_one_is_normalised(api: Api) -> None:
    """The e-mail check runs on first use (not at cold start) and still refuses bad addresses."""
    for bad in ("not-an-email", "a@b", "x" * 250 + "@example.com"):
        reply = api.call("POST", "/players", body={"name": "N", "email": bad}, user="u1")
        assert (reply.status, reply.error) == (422, "validation_error"), bad
        assert "email" in reply.body["error"]["message"]
    assert api.call("GET", "/me", user="u1").status == 404
    create_player(api, "u1", email="Eleni@EXAMPLE.com")
    assert api.call("GET", "/me", user="u1").body["email"] == "Eleni@example.com"


def test_public_profile_never_shows_private_fields(api: Api) -> None:
    """R12.1: name, club, city are public; phone, e-mail, gender, birth year are not."""
    tid = create_player(
        api,
        "u1",
        name="Eleni",
        club="Plaka",
        city="Athens",
        phone="+306971234567",
        email="eleni@example.com",
        gender="female",
        birth_year=1990,
    )
    reply = api.call("GET", "/players/{tavla_id}", params={"tavla_id": tid})
    assert reply.status == 200
    assert reply.body["name"] == "Eleni" and reply.body["club"] == "Plaka"
    for private in ("phone", "email", "gender", "birth_year"):
        assert private not in reply.body
    assert "6971234567" not in str(reply.body) and "example.com" not in str(reply.body)


def test_unknown_player_is_404(api: Api) -> None:
    reply = api.call("GET", "/players/{tavla_id}", params={"tavla_id": "ZZZZZZZ"})
    assert (reply.status, reply.error) == (404, "player_not_found")


def test_me_shows_my_private_fields_and_patch_changes_them(api: Api) -> None:
    create_player(api, "u1", name="Nikos", email="n@example.com")
    reply = api.call("PATCH", "/me", body={"city": "Thessaloniki", "phone": "+30 697 000 0001"}, user="u1")
    assert reply.status == 200
    assert reply.body["city"] == "Thessaloniki"
    assert reply.body["phone"] == "+306970000001"
    assert reply.body["email"] == "n@example.com"


def test_patch_me_refuses_unknown_fields_and_overlong_names(api: Api) -> None:
    create_player(api, "u1", name="Nikos")
    assert api.call("PATCH", "/me", body={"rating": 3000}, user="u1").status == 422
    assert api.call("PATCH", "/me", body={"name": "x" * 81}, user="u1").status == 422
    me = api.call("GET", "/me", user="u1").body
    assert me["name"] == "Nikos" and me["rating"] == 1500


def test_checkin_pass_is_signed_and_expires(api: Api) -> None:
    """R4.1: the pass is a signed token naming me, with a QR image; it expires."""
    tid = create_player(api, "u1")
    reply = api.call("GET", "/me/checkin-pass", user="u1")
    assert reply.status == 200
    assert reply.body["qr_svg"].startswith("<svg")
    token = reply.body["token"]
    assert passes.verify(token, clock.now(), PASS_KEY) == tid
    later = clock.now() + passes.PASS_LIFETIME + timedelta(seconds=1)
    try:
        passes.verify(token, later, PASS_KEY)
    except Exception as error:
        assert "expired" in str(error)
    else:
        raise AssertionError("an expired pass was accepted")


def test_a_pass_issued_by_a_platform_clock_ahead_of_the_machine_is_valid() -> None:
    """R4.1: a pass's times are the platform clock's only: issued and checked an hour ahead of
    the machine's clock (the local stack's /dev/clock), it names its player."""
    ahead = clock.now() + timedelta(hours=1)
    token, _ = passes.issue("ABCDEFG", ahead, PASS_KEY)
    assert passes.verify(token, ahead, PASS_KEY) == "ABCDEFG"


def test_my_data_lists_everything_held_about_me(api: Api) -> None:
    """R12.2: a player can see the data held about them."""
    tavla_id = create_player(api, "u1", name="Nikos", phone="+306971234567")
    tournament = create_tournament(api)
    register(api, tournament, "u1")
    data = api.call("GET", "/me/data", user="u1").body
    assert data["profile"]["tavla_id"] == tavla_id
    assert data["profile"]["phone"] == "+306971234567"
    assert [r["tournament_id"] for r in data["registrations"]] == [tournament]


def test_merge_moves_entries_and_sign_in_to_the_kept_account(api: Api) -> None:
    """R1.1: an admin merges a duplicate: registrations and sign-in move to the surviving ID."""
    keep = create_player(api, "u1", name="Nikos P.")
    dup = create_player(api, "u2", name="Nikos Papadopoulos", phone="+306971234567")
    tournament = create_tournament(api)
    register(api, tournament, "u2")
    refused = api.call("POST", "/admin/players/merge", body={"keep": keep, "merge": dup}, user="u1")
    assert (refused.status, refused.error) == (403, "forbidden")
    reply = api.call(
        "POST", "/admin/players/merge", body={"keep": keep, "merge": dup}, user="admin", groups=("admins",)
    )
    assert reply.status == 200, reply.body
    assert reply.body["phone"] == "+306971234567"
    entries = api.call(
        "GET", "/tournaments/{tournament_id}/entries", params={"tournament_id": tournament}
    ).body
    assert [e["tavla_id"] for e in entries["main"]] == [keep]
    assert api.call("GET", "/me", user="u2").body["tavla_id"] == keep
    old = api.call("GET", "/players/{tavla_id}", params={"tavla_id": dup}).body
    assert (old["tavla_id"], old["name"]) == (keep, "Nikos P.")


def test_merge_of_two_entries_in_one_tournament_is_refused(api: Api) -> None:
    keep, dup = create_player(api, "u1"), create_player(api, "u2")
    tournament = create_tournament(api)
    register(api, tournament, "u1")
    register(api, tournament, "u2")
    reply = api.call(
        "POST", "/admin/players/merge", body={"keep": keep, "merge": dup}, user="a", groups=("admins",)
    )
    assert reply.status == 409
    entries = api.call(
        "GET", "/tournaments/{tournament_id}/entries", params={"tournament_id": tournament}
    ).body
    assert sorted(e["tavla_id"] for e in entries["main"]) == sorted([keep, dup])


def test_malformed_json_is_400(api: Api) -> None:
    reply = api.call("POST", "/players", raw_body="{not json", user="u1")
    assert (reply.status, reply.error) == (400, "malformed_json")
    assert api.call("GET", "/me", user="u1").status == 404


def test_data_protection_notice_is_public(api: Api) -> None:
    """R12.2: a data protection notice is available, and `my data` carries it."""
    notice = api.call("GET", "/privacy")
    assert notice.status == 200
    assert "phone" in notice.body["private"] and "name" in notice.body["public"]
    create_player(api, "u1")
    assert api.call("GET", "/me/data", user="u1").body["privacy_notice"] == notice.body


def _set_phone(api: Api, user: str, phone: str | None):
    return api.call("PATCH", "/me", body={"phone": phone}, user=user)


def test_one_account_per_phone_number(api: Api) -> None:
    """B cannot take A's number, at sign-up or later (409 phone_taken, nothing changed), so
    check-in by phone always finds A; a number changed or cleared is free again."""
    a = create_player(api, "a", phone="+306971234567")
    taken = api.call("POST", "/players", body={"name": "B", "phone": "697 123 4567"}, user="b")
    assert (taken.status, taken.error) == (409, "phone_taken")
    assert "one account per phone number" in taken.body["error"]["message"]
    assert api.call("GET", "/me", user="b").error == "profile_missing"
    create_player(api, "b", phone="+306970000002")
    refused = _set_phone(api, "b", "+30 697 123 4567")
    assert (refused.status, refused.error) == (409, "phone_taken")
    assert api.call("GET", "/me", user="b").body["phone"] == "+306970000002"

    tid = create_tournament(api)
    register(api, tid, "a")
    api.call(
        "PUT",
        "/tournaments/{tournament_id}/staff",
        params={"tournament_id": tid},
        user="org-1",
        body={"staff": [{"tavla_id": create_player(api, "ref"), "role": "referee"}]},
    )
    found = api.call(
        "POST",
        "/tournaments/{tournament_id}/checkins",
        params={"tournament_id": tid},
        user="ref",
        body={"phone": "6971234567"},
    )
    assert (found.status, found.body["tavla_id"]) == (200, a)

    assert _set_phone(api, "a", "+306975555555").status == 200  # A moves to a new number ...
    assert _set_phone(api, "b", "+306971234567").status == 200  # ... so B may take the old one
    assert _set_phone(api, "b", None).status == 200  # B clears it ...
    assert _set_phone(api, "a", "+306971234567").status == 200  # ... and A may have it back
    assert _set_phone(api, "a", "+306971234567").status == 200  # setting one's own number again is fine


def test_merge_moves_the_phone_number_to_the_kept_account(api: Api) -> None:
    keep = create_player(api, "u1")
    dup = create_player(api, "u2", phone="+306971234567")
    merged = api.call(
        "POST", "/admin/players/merge", body={"keep": keep, "merge": dup}, user="admin", groups=("admins",)
    )
    assert merged.status == 200 and merged.body["phone"] == "+306971234567"
    assert (
        api.call("POST", "/players", body={"name": "C", "phone": "+306971234567"}, user="u3").error
        == "phone_taken"
    )
    other = create_player(api, "u4", phone="+306970000004")
    # the kept account has a number: the merged account's number is released
    api.call(
        "POST", "/admin/players/merge", body={"keep": keep, "merge": other}, user="admin", groups=("admins",)
    )
    assert create_player(api, "u5", phone="+306970000004")


def test_an_empty_phone_is_a_validation_error_and_null_clears_it(api: Api) -> None:
    """An empty phone is not a phone (it was written as an empty index key: a 500)."""
    reply = api.call("POST", "/players", body={"name": "N", "phone": ""}, user="u1")
    assert (reply.status, reply.error) == (422, "validation_error")
    assert api.call("GET", "/me", user="u1").status == 404
    create_player(api, "u1", phone="697 123 4567")
    reply = api.call("PATCH", "/me", body={"phone": ""}, user="u1")
    assert (reply.status, reply.error) == (422, "validation_error")
    assert api.call("GET", "/me", user="u1").body["phone"] == "+306971234567"
    assert api.call("PATCH", "/me", body={"phone": None}, user="u1").body["phone"] is None
