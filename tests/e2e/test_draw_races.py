"""Draws under concurrency, on DynamoDB Local over HTTP (R5): one round, never two."""

from __future__ import annotations

from tests.e2e.client import Client, players, tournament
from tests.e2e.conftest import Stack


def test_two_simultaneous_draws_publish_one_round_and_answer_one_409(stack: Stack) -> None:
    client = Client(stack)
    organiser = "race-draw-organiser"
    client.call("POST", "/players", {"name": "Race Organiser"}, user=organiser)
    tid = tournament(client, organiser, capacity=16, format="swiss", swiss_rounds=3)
    entrants = players(client, "race-draw", 16)
    for user, tavla_id in entrants.items():
        assert client.call("POST", f"/tournaments/{tid}/registrations", user=user).status == 201
        assert (
            client.call("POST", f"/tournaments/{tid}/checkins", {"tavla_id": tavla_id}, user=organiser).status
            == 200
        )
    replies = client.parallel(
        [("POST", f"/tournaments/{tid}/rounds", None, {"user": organiser})] * 2, workers=2
    )
    assert sorted(r.status for r in replies) == [201, 409], [r.body for r in replies]
    loser = next(r for r in replies if r.status == 409)
    assert loser.error in ("draw_in_progress", "round_in_progress")
    rounds = client.call("GET", f"/tournaments/{tid}/rounds").body["rounds"]
    assert [r["number"] for r in rounds] == [1]
    published = client.call("GET", f"/tournaments/{tid}/rounds/1").body
    winner = next(r for r in replies if r.status == 201).body
    assert [(m["code"], m["home"]["tavla_id"]) for m in published["pairings"]] == [
        (m["code"], m["home"]["tavla_id"]) for m in winner["pairings"]
    ]
