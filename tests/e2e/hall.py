"""Tournaments sharing a hall over HTTP: fields entered by hand, a player's match, a result."""

from __future__ import annotations

from typing import Any

from tests.e2e.client import Client, tournament
from tests.e2e.day import SEVEN_POINTS


def hall_tournament(client: Client, organiser: str, users: dict[str, str], tables: int) -> str:
    """A platform knockout of 7-point matches on `tables` tables with these users (user ->
    Tavla ID) registered and checked in, not drawn yet."""
    tid = tournament(
        client,
        organiser,
        capacity=len(users),
        tables=tables,
        rule_profile="platform",
        match_lengths=SEVEN_POINTS,
    )
    for user, tavla_id in users.items():
        assert client.call("POST", f"/tournaments/{tid}/registrations", user=user).status == 201
        reply = client.call("POST", f"/tournaments/{tid}/checkins", {"tavla_id": tavla_id}, user=organiser)
        assert reply.status == 200, reply.body
    return tid


def beside(client: Client, organiser: str, *tids: str) -> None:
    """The tournaments share the hall (each lists the others)."""
    for tid in tids:
        others = [t for t in tids if t != tid]
        reply = client.call("PUT", f"/tournaments/{tid}/hall", {"beside": others}, user=organiser)
        assert reply.status == 200 and reply.body["beside"] == sorted(others), reply.body


def match_of(client: Client, tid: str, tavla_id: str, round_: int = 1) -> dict[str, Any]:
    """`tavla_id`'s match of round `round_` as the public round shows it."""
    count = len(client.call("GET", f"/tournaments/{tid}/rounds").body["rounds"])
    pairings = [
        p
        for n in range(1, count + 1)
        for p in client.call("GET", f"/tournaments/{tid}/rounds/{n}").body["pairings"]
    ]
    sides = lambda p: ((p.get("home") or {}).get("tavla_id"), (p.get("away") or {}).get("tavla_id"))  # noqa: E731
    return next(p for p in pairings if p["round"] == round_ and tavla_id in sides(p))


def win(client: Client, match: dict[str, Any], winner: str, staff: str) -> None:
    """Staff confirm `winner`'s 7-3."""
    home = match["home"]["tavla_id"] == winner
    score = {"home_points": 7 if home else 3, "away_points": 3 if home else 7}
    reply = client.call("POST", f"/matches/{match['id']}/confirm", score, user=staff)
    assert reply.status == 200, reply.body
