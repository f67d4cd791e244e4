"""A draw nobody can shop and a late entry, over HTTP on the local stack (R5.1, R5.5).

A Swiss day: the organiser commits to the seed before check-in closes (the page shows its
hash), previews round 1 (the draw then publishes exactly that), redraws it with a reason (the
first draw stays public), opens late entry after round 2, and a late player is paired in
round 3 with a point for the two rounds missed; `tools.verify_draw` checks every draw
against the commitment and recomputes it.
"""

from __future__ import annotations

from typing import Any

from tavla.rules.commitment import commitment
from tests.e2e.client import Client
from tests.e2e.conftest import Stack
from tests.e2e.day import TournamentDay
from tools.verify_draw import verify


def _pairs(pairings: list[dict[str, Any]]) -> list[tuple[str, str | None, str | None]]:
    def tid(side: dict[str, Any] | str | None) -> str | None:
        return side["tavla_id"] if isinstance(side, dict) else side  # a match, or an earlier draw's

    return [(p["code"], tid(p.get("home")), tid(p.get("away"))) for p in pairings]


def _play_called(day: TournamentDay) -> None:
    for match in day.matches():
        if match["state"] == "called":
            day.play(match, match["home"]["tavla_id"])


def test_a_committed_seed_a_redraw_and_a_late_entrant_in_round_3(stack: Stack) -> None:
    """R5.1, R5.5: commitment, preview = draw, redraw with reason, late entrant paired in round 3."""
    client = Client(stack)
    day = TournamentDay(client, "fair", 6, format="swiss", swiss_rounds=3)
    day.enter_field()
    organiser, tid = day.organiser, day.id
    committed = client.call("POST", f"/tournaments/{tid}/draw-commitment", user=organiser)
    assert committed.status == 200, committed.body
    page = client.call("GET", f"/tournaments/{tid}").body
    assert page["draw_commitment"]["hash"] == committed.body["hash"]

    preview = client.call("GET", f"/tournaments/{tid}/draw-preview", user=organiser)
    assert preview.status == 200, preview.body
    first = day.draw()
    assert first.status == 201, first.body
    assert _pairs(preview.body["pairings"]) == _pairs(first.body["pairings"])
    assert commitment(first.body["revealed_seed"]) == committed.body["hash"]

    redraw = f"/tournaments/{tid}/rounds/1/redraw"
    assert client.call("POST", redraw, {}, user=organiser).status == 422
    again = client.call("POST", redraw, {"reason": "A player's table was out of service"}, user=organiser)
    assert again.status == 200, again.body
    assert again.body["redraws"][0]["reason"] == "A player's table was out of service"
    assert _pairs(again.body["earlier"][0]["pairings"]) == _pairs(first.body["pairings"])
    _play_called(day)
    assert day.draw().status == 201
    _play_called(day)

    policy = {"open": True, "points": "half_per_missed_round"}
    assert client.call("PUT", f"/tournaments/{tid}/late-entry", policy, user=organiser).status == 200
    late = client.call("POST", "/players", {"name": "Late Comer"}, user="fair-late").body["tavla_id"]
    entered = client.call("POST", f"/tournaments/{tid}/late-entries", {"tavla_id": late}, user=organiser)
    assert entered.status == 201, entered.body
    assert (entered.body["round"], entered.body["points"]) == (3, 1.0)
    third = day.draw()
    assert third.status == 201, third.body
    assert late in {p for pair in _pairs(third.body["pairings"]) for p in pair[1:]}
    table = client.call("GET", f"/tournaments/{tid}/standings").body
    row = next(r for r in table["events"][0]["rows"] if r["player"]["tavla_id"] == late)
    assert (row["late_from_round"], row["late_points"]) == (3, 1.0)

    verdict = verify(stack.url, tid)
    assert sorted(verdict) == [1, 2, 3] and all(p == [] for p in verdict.values()), verdict
