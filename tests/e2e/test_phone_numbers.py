"""One account per phone number, held by a DynamoDB condition under concurrency (DynamoDB Local)."""

from __future__ import annotations

from collections import Counter

from tests.e2e.client import Client, players


def test_two_users_setting_the_same_number_at_once_one_wins(stack) -> None:
    client = Client(stack)
    for round_ in range(3):
        people = list(players(client, f"phone-race-{round_}", 6))
        number = f"+3069788880{round_:02d}"
        replies = client.parallel([("PATCH", "/me", {"phone": number}, {"user": u}) for u in people])
        assert Counter(r.status for r in replies) == {200: 1, 409: 5}, [r.body for r in replies]
        assert {r.body["error"]["code"] for r in replies if r.status == 409} == {"phone_taken"}
        holders = [u for u in people if client.call("GET", "/me", user=u).body.get("phone") == number]
        assert len(holders) == 1


def test_two_sign_ups_with_the_same_number_at_once_one_wins(stack) -> None:
    client = Client(stack)
    users = [f"phone-signup-{i}" for i in range(8)]
    replies = client.parallel(
        [("POST", "/players", {"name": f"P {u}", "phone": "+306978889999"}, {"user": u}) for u in users]
    )
    assert Counter(r.status for r in replies) == {201: 1, 409: 7}, [r.body for r in replies]
    assert sum(client.call("GET", "/me", user=u).status == 200 for u in users) == 1
