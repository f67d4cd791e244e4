"""What a confirmation costs in DynamoDB calls: counted on the client, so a change that reads
the whole day again for every result shows here before the benchmark sees it (R7.5, R6)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tavla.store.dynamo import client
from tests.service.conftest import Api
from tests.service.test_result import Day


@contextmanager
def counted() -> Iterator[Counter[str]]:
    calls: Counter[str] = Counter()

    def count(event_name: str, **_: Any) -> None:
        calls[event_name.rsplit(".", 1)[-1]] += 1

    events = client().meta.events
    events.register("before-call.dynamodb", count)
    try:
        yield calls
    finally:
        events.unregister("before-call.dynamodb", count)


def test_a_confirmation_makes_a_handful_of_calls(api: Api) -> None:
    """R7.5: staff confirm an agreed result: the match (one BatchGetItem), the day it moves (the
    tournament, field and tables, then its matches: no rounds), one transaction, and the answer
    built from what was read and written."""
    day = Day(api)
    home, away = day.players("main.R1.1")
    assert day.game("main.R1.1", home, result="backgammon").status == 200
    assert day.report("main.R1.1", home, 3, 0).status == 200
    assert day.report("main.R1.1", away, 3, 0).status == 200
    with counted() as calls:
        assert day.confirm("main.R1.1").status == 200
    print("calls per confirmation:", sum(calls.values()), dict(calls))
    # the outbox publisher (the table stream's function, run in-process here) reads and deletes
    # the events' items: its calls are not the confirmation's
    own = {k: n for k, n in calls.items() if k not in ("GetItem", "DeleteItem")}
    assert own == {"BatchGetItem": 2, "Query": 1, "TransactWriteItems": 1}
