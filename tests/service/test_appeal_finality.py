"""Appeal finality (R9.3, R9.5): a decided appeal ends that grievance, under every rule profile.

The day: two players, one 1-point match (the final), both report 1-0, the referee confirms;
the loser appeals. Once that appeal is decided the same side cannot appeal the same result
again (409 appeal_exhausted, nothing written), whichever profile decides it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tavla import clock
from tavla.store import keys
from tavla.store import matches as match_store
from tavla.store.dynamo import client, table_name
from tavla.store.records import FixtureRecord
from tavla.store.schema import MAIN
from tests.service.conftest import Api, Reply
from tests.service.day_helpers import checked_in_field, draw, records
from tests.service.helpers import ORGANISER, create_player

CODE = "main.R1.1"
ONE_POINT = {"default": 1, "semi_final": 1, "final": 1}
STAFF = {"user": ORGANISER, "groups": ("organisers",)}


@pytest.fixture(autouse=True)
def _clock() -> Iterator[None]:
    yield
    clock.reset()


class Final:
    """A 2-player single elimination under `profile`: 1-0 reported by both, confirmed by staff."""

    def __init__(self, api: Api, profile: str) -> None:
        self.api = api
        self.tid, ids = checked_in_field(api, 2, rule_profile=profile, match_lengths=ONE_POINT)
        self.user = {tavla_id: f"player-{i}" for i, tavla_id in enumerate(ids)}
        assert draw(api, self.tid).status == 201
        match = records(self.tid)[CODE]
        assert match.home and match.away and match.length == 1
        self.winner, self.loser = match.home, match.away
        self.match_id = f"{self.tid}.{CODE}"
        score = {"home_points": 1, "away_points": 0}
        for player in (self.winner, self.loser):
            reply = api.call(
                "POST",
                "/matches/{match_id}/report",
                params={"match_id": self.match_id},
                body=score,
                user=self.user[player],
            )
            assert reply.status == 200, reply.body
        reply = api.call(
            "POST", "/matches/{match_id}/confirm", params={"match_id": self.match_id}, body=score, **STAFF
        )
        assert reply.status == 200, reply.body
        decided = self.match().result
        assert decided is not None and decided.winner == self.winner
        self.judges = [create_player(self.api, f"judge-{i}", name=f"Judge {i}") for i in range(3)]

    def match(self) -> FixtureRecord:
        return records(self.tid)[CODE]

    def appeal(self, player: str) -> Reply:
        return self.api.call(
            "POST",
            "/matches/{match_id}/appeals",
            params={"match_id": self.match_id},
            body={"kind": "decision", "statement": "The referee was wrong."},
            user=self.user[player],
        )

    def decide(self, appeal_id: str, votes: list[bool] | None, outcome: str | None = None) -> Reply:
        body: dict[str, Any] = {"reasoning": "Both sides heard.", "new_result": {"winner": self.loser}}
        if votes is not None:
            body["committee"] = {"members": self.judges[: len(votes)], "votes": votes}
        if outcome is not None:
            body["outcome"] = outcome
        return self.api.call(
            "POST", "/appeals/{appeal_id}/decision", params={"appeal_id": appeal_id}, body=body, **STAFF
        )

    def appeal_items(self) -> int:
        found = client().query(
            TableName=table_name(MAIN),
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": {"S": keys.tournament_pk(self.tid)}},
            ConsistentRead=True,
        )
        return sum(1 for item in found["Items"] if item["sk"]["S"].startswith(keys.APPEAL_PREFIX))


def test_hbf_a_dismissed_appeal_cannot_be_lodged_again_and_overturned(api: Api) -> None:
    """R9.3, R9.5 (hbf 6.3: the committee "exhausts the appeal"): the loser's appeal is
    dismissed 2-1; the same loser appeals again: 409 appeal_exhausted, no second appeal is
    written, and no second committee can flip the official result."""
    day = Final(api, "hbf")
    first = day.appeal(day.loser)
    assert first.status == 201, first.body
    assert day.decide(first.body["id"], [True, True, False]).body["outcome"] == "dismissed"
    before, items = day.match(), day.appeal_items()
    again = day.appeal(day.loser)
    assert (again.status, again.error) == (409, "appeal_exhausted"), again.body
    assert day.match() == before and day.appeal_items() == items
    assert before.result is not None and before.result.winner == day.winner


def test_two_appeals_at_once_cannot_both_pass(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """R9.2, R9.3 under concurrency: the loser's appeal is read, then another appeal on the
    match is written before it. Its write is conditioned on the match version it read, so it
    fails, is retried on the match as it now is, and is refused: one appeal, one grievance."""
    day = Final(api, "hbf")
    real_settle = match_store.settle
    racing: list[Reply] = []
    started: list[bool] = []

    def another_lands_first(*args: Any, **kwargs: Any) -> None:
        if not started:
            started.append(True)  # the other appeal's own write goes straight through
            racing.append(day.appeal(day.loser))
        real_settle(*args, **kwargs)

    monkeypatch.setattr(match_store, "settle", another_lands_first)
    slower = day.appeal(day.loser)
    assert racing[0].status == 201, racing[0].body
    assert (slower.status, slower.error) == (409, "appeal_open"), slower.body
    assert day.appeal_items() == 1 and day.match().appeal == racing[0].body["id"]
