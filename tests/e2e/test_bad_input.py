"""Bad input over HTTP: a clear 4xx in the API's error body, and nothing changed (API.md)."""

from __future__ import annotations

from datetime import datetime, timedelta

import jwt
import pytest

from tests.e2e.client import Client, players, tournament


@pytest.fixture(scope="module")
def day(stack):
    """A tournament with a referee, one registered player, and a tournament refereed by someone else."""
    client = Client(stack)
    tid = tournament(client, "org-bad", capacity=8)
    other = tournament(client, "org-other", capacity=8)
    people = players(client, "bad", 3, phone="+306970001111")
    referee, player, outsider = people
    client.call(
        "PUT",
        f"/tournaments/{tid}/staff",
        {"staff": [{"tavla_id": people[referee], "role": "referee"}]},
        user="org-bad",
    )
    assert client.call("POST", f"/tournaments/{tid}/registrations", user=player).status == 201
    assert client.call("POST", f"/tournaments/{other}/registrations", user=player).status == 201
    return client, tid, other, people, (referee, player, outsider)


def snapshot(client: Client, tid: str):
    return (
        client.call("GET", f"/tournaments/{tid}").body,
        client.call("GET", f"/tournaments/{tid}/entries").body,
    )


def assert_error(reply, status: int, code: str | None = None) -> None:
    assert reply.status == status, reply.body
    assert set(reply.body) == {"error"} and reply.body["error"]["message"]
    if code:
        assert reply.body["error"]["code"] == code


def test_malformed_json_and_wrong_types_change_nothing(day) -> None:
    client, tid, _, _, (_, _, outsider) = day
    before = snapshot(client, tid)
    assert_error(
        client.call("PATCH", f"/tournaments/{tid}", raw="{capacity: ", user="org-bad"), 400, "malformed_json"
    )
    assert_error(client.call("PATCH", f"/tournaments/{tid}", {"capacity": "lots"}, user="org-bad"), 422)
    assert_error(client.call("PATCH", f"/tournaments/{tid}", {"name": "x" * 500}, user="org-bad"), 422)
    assert_error(
        client.call("PATCH", f"/tournaments/{tid}", {"entry_fee": {"amount": 9.99}}, user="org-bad"), 422
    )
    assert_error(client.call("PATCH", f"/tournaments/{tid}", {"unknown_setting": 1}, user="org-bad"), 422)
    assert_error(client.call("PATCH", "/me", {"name": "y" * 81}, user=outsider), 422)
    assert_error(client.call("PATCH", "/me", {"phone": ""}, user=outsider), 422, "validation_error")
    assert_error(client.call("PATCH", "/me", {"name": "\u200b"}, user=outsider), 422, "validation_error")
    nested = '{"capacity": ' + "[" * 1000 + "]" * 1000 + "}"
    assert_error(
        client.call("PATCH", f"/tournaments/{tid}", raw=nested, user="org-bad"), 400, "malformed_json"
    )
    assert_error(
        client.call("POST", "/tournaments", {"name": "No venue"}, user="org-bad", groups=("organisers",)), 422
    )
    assert snapshot(client, tid) == before


def test_unknown_ids_are_404(day) -> None:
    client, _, _, _, (referee, _, _) = day
    assert_error(client.call("GET", "/tournaments/doesnotexist"), 404, "tournament_not_found")
    assert_error(client.call("GET", "/tournaments/doesnotexist/entries"), 404, "tournament_not_found")
    assert_error(client.call("GET", "/players/ZZZZZZZ"), 404, "player_not_found")
    assert_error(client.call("POST", "/tournaments/doesnotexist/registrations", user=referee), 404)
    unknown = client.call("GET", "/no/such/route")
    assert (unknown.status, unknown.body) == (404, {"message": "Not Found"})  # API Gateway's own


def test_registration_after_close_is_409_and_changes_nothing(stack, day) -> None:
    client, _, _, _, (_, _, outsider) = day
    now = datetime.fromisoformat(stack.now())  # the platform's clock, which other tests moved on
    closing = tournament(
        client,
        "org-bad",
        registration_closes_at=(now + timedelta(seconds=60)).isoformat(),
        starts_at=(now + timedelta(days=1)).isoformat(),
    )
    stack.advance(120)
    before = snapshot(client, closing)
    assert_error(
        client.call("POST", f"/tournaments/{closing}/registrations", user=outsider),
        409,
        "registration_closed",
    )
    assert snapshot(client, closing) == before


def test_forged_pass_is_refused(day) -> None:
    client, tid, _, people, (referee, player, _) = day
    forged = jwt.encode(
        {"sub": people[player], "aud": "tavla-checkin", "exp": 4102444800}, "x" * 32, algorithm="HS256"
    )
    before = snapshot(client, tid)
    assert_error(
        client.call("POST", f"/tournaments/{tid}/checkins", {"pass": forged}, user=referee),
        400,
        "invalid_pass",
    )
    assert snapshot(client, tid) == before


def test_token_for_the_wrong_role_is_403(day) -> None:
    client, tid, _, _, (_, player, _) = day
    before = snapshot(client, tid)
    assert_error(
        client.call("POST", "/tournaments", {"name": "x"}, user=player), 422
    )  # body first, then role:
    body = client.call("GET", f"/tournaments/{tid}").body
    create = {k: body[k] for k in ("name", "venue", "starts_at", "registration_closes_at", "capacity")}
    assert_error(client.call("POST", "/tournaments", create, user=player), 403)
    assert_error(
        client.call("PATCH", f"/tournaments/{tid}", {"capacity": 16}, user=player), 403, "not_organiser"
    )
    assert_error(client.call("GET", f"/tournaments/{tid}/entries/contacts", user=player), 403, "not_staff")
    assert_error(
        client.call("POST", "/admin/players/merge", {"keep": "AAAAAAA", "merge": "BBBBBBB"}, user=player), 403
    )
    assert snapshot(client, tid) == before


def test_referee_of_another_tournament_has_no_power_here(day) -> None:
    client, tid, other, people, (referee, player, _) = day
    before = snapshot(client, other)
    assert_error(
        client.call("POST", f"/tournaments/{other}/checkins", {"tavla_id": people[player]}, user=referee),
        403,
        "not_staff",
    )
    assert_error(client.call("GET", f"/tournaments/{other}/entries/contacts", user=referee), 403)
    assert snapshot(client, other) == before
    assert (
        client.call("POST", f"/tournaments/{tid}/checkins", {"tavla_id": people[player]}, user=referee).status
        == 200
    )


def test_expired_or_foreign_tokens_are_401(stack, day) -> None:
    client, tid, _, _, _ = day
    foreign = jwt.encode({"sub": "intruder", "exp": 4102444800}, "guess", algorithm="HS256")
    unauthorized = (401, {"message": "Unauthorized"})  # API Gateway's own body (API.md)
    for token in (foreign, None):
        reply = client.call("PATCH", f"/tournaments/{tid}", {"capacity": 9}, token=token)
        assert (reply.status, reply.body) == unauthorized


def test_a_cursor_from_before_the_upcoming_window_is_422_not_500(day) -> None:
    """DynamoDB Local (like DynamoDB) refuses a start key outside the query's key condition."""
    client = day[0]
    assert client.call("GET", "/tournaments?upcoming=false&limit=1").status == 200
    for cursor in ("2020-05-01T07:00:00%2B00:00%230123456789abcdef", "eyJxIjogInVwY29taW5nIn0"):
        assert_error(client.call("GET", f"/tournaments?after={cursor}"), 422, "invalid_cursor")
