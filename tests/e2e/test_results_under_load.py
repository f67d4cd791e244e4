"""Live score and results under concurrency, over HTTP on DynamoDB Local (R7.5, R5.5, R9.4)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests.e2e.client import Client, Reply, players, tournament


def _drawn(
    client: Client, organiser: str, prefix: str, count: int, **settings: Any
) -> tuple[str, dict[str, str], Any]:
    """A tournament of `count` checked-in players, its first round drawn; (id, user by Tavla ID, round)."""
    tid = tournament(client, organiser, capacity=count, **settings)
    field = players(client, prefix, count)
    regs = client.parallel([("POST", f"/tournaments/{tid}/registrations", None, {"user": u}) for u in field])
    assert all(r.status == 201 for r in regs)
    checkins = client.parallel(
        [
            ("POST", f"/tournaments/{tid}/checkins", {"tavla_id": t}, {"user": organiser})
            for t in field.values()
        ]
    )
    assert all(r.status == 200 for r in checkins)
    drawn = client.call("POST", f"/tournaments/{tid}/rounds", user=organiser)
    assert drawn.status == 201, drawn.body
    return tid, {t: u for u, t in field.items()}, drawn.body


def _until_done(client: Client, calls: list[tuple[Any, ...]]) -> list[Reply]:
    """Fire the calls at once; re-send those answered 503 (busy: the API says retry) until none is."""
    replies = client.parallel(calls, workers=50)
    print("first wave:", dict(Counter(r.status for r in replies)))
    for _ in range(10):
        again = [i for i, r in enumerate(replies) if r.status == 503]
        if not again:
            break
        for i, reply in zip(again, client.parallel([calls[i] for i in again], workers=50), strict=True):
            replies[i] = reply
    return replies


def test_both_players_record_the_same_game_at_once(stack) -> None:
    """R7.5: two writes on one version: one game recorded, the other gets 409 stale_version."""
    client = Client(stack)
    tid, user, drawn = _drawn(client, "org-race-score", "race-score", 2)
    match = drawn["pairings"][0]
    home, away = match["home"]["tavla_id"], match["away"]["tavla_id"]
    path = f"/matches/{match['id']}/score"
    body = {"version": match["version"], "game": {"winner": home}}
    replies = client.parallel([("PUT", path, body, {"user": user[p]}) for p in (home, away)], workers=2)
    assert sorted(r.status for r in replies) == [200, 409]
    assert next(r for r in replies if r.status == 409).error == "stale_version"
    after = client.call("GET", f"/matches/{match['id']}").body
    assert (after["score"], len(after["history"]), after["state"]) == ([1, 0], 1, "playing")
    assert tid


def test_50_simultaneous_confirmations_of_a_100_player_swiss_round(stack) -> None:
    """R7.5, R5.5: 50 results confirmed at once: each official exactly once, the next round draws."""
    client = Client(stack)
    organiser = "org-race-swiss"
    tid, _, drawn = _drawn(client, organiser, "race-swiss", 100, format="swiss", swiss_rounds=3)
    matches = [m for m in drawn["pairings"] if m["state"] == "called"]
    assert len(matches) == 50
    calls = [
        (
            "POST",
            f"/matches/{m['id']}/confirm",
            {"home_points": m["length"], "away_points": 0},
            {"user": organiser},
        )
        for m in matches
    ]
    replies = _until_done(client, calls)
    assert Counter(r.status for r in replies) == {200: 50}, Counter(r.status for r in replies)
    for m in matches:
        now = client.call("GET", f"/matches/{m['id']}").body
        assert now["state"] == "official" and now["result"]["winner"] == m["home"]["tavla_id"]
    trail = client.call("GET", f"/tournaments/{tid}/audit?limit=500", user=organiser).body["records"]
    confirmed = Counter(r["details"]["match"] for r in trail if r["action"] == "result_confirmed")
    assert confirmed == Counter(m["code"] for m in matches)  # each once, none lost
    again = client.call("POST", f"/tournaments/{tid}/rounds", user=organiser)
    assert again.status == 201, again.body
    assert len([m for m in again.body["pairings"] if m["state"] == "called"]) == 50
