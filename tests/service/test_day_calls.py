"""What a confirmation costs in DynamoDB calls: counted on the client, so a change that reads
the whole day again for every result shows here before the benchmark sees it (R7.5, R6)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tavla.store.dynamo import client
from tests.service.conftest import Api, Stream
from tests.service.day_helpers import draw, fixed_field
from tests.service.helpers import ORGANISER, create_tournament
from tests.service.test_result import Day


@contextmanager
def counted(stream: Stream) -> Iterator[Counter[str]]:
    """The DynamoDB calls made inside the block. The outbox publisher (the table stream's
    function, run in-process here) is held back meanwhile: its calls are not the change's; it
    publishes what the block wrote afterwards."""
    calls: Counter[str] = Counter()
    stream.paused = True

    def count(event_name: str, **_: Any) -> None:
        calls[event_name.rsplit(".", 1)[-1]] += 1

    events = client().meta.events
    events.register("before-call.dynamodb", count)
    try:
        yield calls
    finally:
        events.unregister("before-call.dynamodb", count)
        stream.paused = False
        stream.redeliver()


def test_a_confirmation_makes_a_handful_of_calls(api: Api, stream: Stream) -> None:
    """R7.5: staff confirm an agreed result: the match is read once, with the tournament and the
    table plan (one BatchGetItem), then the part of the day it moves by key (the final it feeds,
    with the field: a player out of play forfeits it, R8.2; the final's other feeder: no Query of
    the day's matches), one transaction, and the answer built from what was read and written."""
    day = Day(api)
    home, away = day.players("main.R1.1")
    assert day.game("main.R1.1", home, result="backgammon").status == 200
    assert day.report("main.R1.1", home, 3, 0).status == 200
    assert day.report("main.R1.1", away, 3, 0).status == 200
    with counted(stream) as calls:
        assert day.confirm("main.R1.1").status == 200
    print("calls per confirmation:", sum(calls.values()), dict(calls))
    assert calls == {"BatchGetItem": 3, "TransactWriteItems": 1}


def _confirm_counted(api: Api, stream: Stream, tournament_id: str, match: dict[str, Any]) -> Counter[str]:
    """Staff confirm `match` with a 3-1 score; the DynamoDB calls it made (its own)."""
    with counted(stream) as calls:
        reply = api.call(
            "POST",
            "/matches/{match_id}/confirm",
            params={"match_id": match["id"]},
            body={"home_points": 3, "away_points": 1},
            user=ORGANISER,
        )
        assert reply.status == 200, reply.body
    return calls


def _day_of(api: Api, stream: Stream, players: int, format: str) -> list[Counter[str]]:
    """A day of `players` drawn: the calls of two confirmations of round 1 (in an elimination,
    the two that feed the same next-round match, so the second fills it and calls it)."""
    tournament_id = create_tournament(
        api,
        capacity=players,
        format=format,
        swiss_rounds=3,
        match_lengths={"default": 3, "semi_final": 3, "final": 3},
    )
    fixed_field(tournament_id, players)
    reply = draw(api, tournament_id)
    assert reply.status == 201, reply.body
    called = {m["code"]: m for m in reply.body["pairings"] if m["state"] == "called"}
    assert len(called) == players // 2
    label = "S1" if format == "swiss" else "R1"
    return [_confirm_counted(api, stream, tournament_id, called[f"main.{label}.{n}"]) for n in (1, 2)]


@pytest.mark.parametrize("format", ["swiss", "single_elimination"])
def test_a_confirmation_costs_the_same_however_large_the_day(api: Api, stream: Stream, format: str) -> None:
    """R7.5, R6: a confirmation reads the match, what it feeds and the table plan by key, never
    the day's matches: the same DynamoDB calls for 16 players as for 128, in round 1 as in round 2
    (a Swiss match feeds nothing; an elimination match feeds the next round's)."""
    small, large = _day_of(api, stream, 16, format), _day_of(api, stream, 128, format)
    print(format, "calls per confirmation:", small, large)
    assert small == large
    assert all("Query" not in calls and sum(calls.values()) <= 6 for calls in small)
