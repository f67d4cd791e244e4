"""A retried create answers like the first attempt (Idempotency-Key header)."""

from __future__ import annotations

from tests.service.conftest import Api
from tests.service.helpers import ORGANISER, create_player, create_tournament, entries, tournament_body


def test_retried_tournament_creation_creates_one_tournament(api: Api) -> None:
    key, body = {"Idempotency-Key": "create-athens-open-1"}, tournament_body()  # a retry resends it
    first = api.call("POST", "/tournaments", body=body, user=ORGANISER, groups=("organisers",), headers=key)
    again = api.call("POST", "/tournaments", body=body, user=ORGANISER, groups=("organisers",), headers=key)
    assert (first.status, again.status) == (201, 201)
    assert again.body["id"] == first.body["id"]
    assert [t["id"] for t in api.call("GET", "/tournaments").body["tournaments"]] == [first.body["id"]]
    other = api.call(
        "POST",
        "/tournaments",
        body=tournament_body(),
        user=ORGANISER,
        groups=("organisers",),
        headers={"Idempotency-Key": "create-athens-open-2"},
    )
    assert other.body["id"] != first.body["id"]


def test_retried_registration_answers_like_the_first(api: Api) -> None:
    """R3.1: the retry of a registration whose answer was lost is not a 409."""
    tid = create_tournament(api)
    create_player(api, "u1")
    path, params = "/tournaments/{tournament_id}/registrations", {"tournament_id": tid}
    key = {"Idempotency-Key": "reg-u1-attempt"}
    first = api.call("POST", path, params=params, user="u1", headers=key)
    retry = api.call("POST", path, params=params, user="u1", headers=key)
    assert (first.status, retry.status) == (201, 201)
    assert retry.body == first.body
    assert len(entries(api, tid)["main"]) == 1
    fresh = api.call("POST", path, params=params, user="u1", headers={"Idempotency-Key": "reg-u1-second"})
    assert (fresh.status, fresh.error) == (409, "already_registered")


def test_another_user_with_the_same_key_is_not_served_the_first_answer(api: Api) -> None:
    tid = create_tournament(api)
    a, b = create_player(api, "a"), create_player(api, "b")
    path, params = "/tournaments/{tournament_id}/registrations", {"tournament_id": tid}
    key = {"Idempotency-Key": "same-key-123"}
    api.call("POST", path, params=params, user="a", headers=key)
    api.call("POST", path, params=params, user="b", headers=key)
    assert sorted(e["tavla_id"] for e in entries(api, tid)["main"]) == sorted([a, b])


def test_a_refused_request_is_not_remembered(api: Api) -> None:
    """A failure is not cached: once the player has a profile, the same key registers them."""
    tid = create_tournament(api)
    path, params = "/tournaments/{tournament_id}/registrations", {"tournament_id": tid}
    key = {"Idempotency-Key": "before-profile"}
    assert api.call("POST", path, params=params, user="late", headers=key).status == 404
    create_player(api, "late")
    assert api.call("POST", path, params=params, user="late", headers=key).status == 201


def test_an_overlong_key_is_a_validation_error(api: Api) -> None:
    reply = api.call(
        "POST",
        "/tournaments",
        body=tournament_body(),
        user=ORGANISER,
        groups=("organisers",),
        headers={"Idempotency-Key": "k" * 200},
    )
    assert reply.status == 422
    assert api.call("GET", "/tournaments").body["tournaments"] == []


def test_a_key_reused_with_another_body_is_refused_and_changes_nothing(api: Api) -> None:
    """A client bug that reuses a key for a different request must not get the first answer."""
    key = {"Idempotency-Key": "create-athens-open-1"}
    first = api.call(
        "POST", "/tournaments", body=tournament_body(), user=ORGANISER, groups=("organisers",), headers=key
    )
    reused = api.call(
        "POST",
        "/tournaments",
        body=tournament_body(name="Thessaloniki Open"),
        user=ORGANISER,
        groups=("organisers",),
        headers=key,
    )
    assert first.status == 201
    assert (reused.status, reused.error) == (422, "idempotency_key_reused")
    assert [t["name"] for t in api.call("GET", "/tournaments").body["tournaments"]] == [first.body["name"]]


def test_a_registration_key_reused_for_another_tournament_is_refused(api: Api) -> None:
    """R3.1: the key names one request; sent to another tournament it is a client bug, not a retry."""
    athens, patras = create_tournament(api), create_tournament(api)
    create_player(api, "u1")
    path = "/tournaments/{tournament_id}/registrations"
    key = {"Idempotency-Key": "reg-u1-attempt"}
    first = api.call("POST", path, params={"tournament_id": athens}, user="u1", headers=key)
    reused = api.call("POST", path, params={"tournament_id": patras}, user="u1", headers=key)
    assert first.status == 201
    assert (reused.status, reused.error) == (422, "idempotency_key_reused")
    assert entries(api, patras)["main"] == []
