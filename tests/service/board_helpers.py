"""Playing a day out in service tests: results made official through `progress.settle`."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from tavla.rules.results import Result
from tavla.rules.states import State
from tavla.services import progress
from tavla.store import draws as draw_store
from tavla.store import keys
from tavla.store.dynamo import client, table_name
from tavla.store.records import FixtureRecord
from tavla.store.schema import MAIN
from tests.service.conftest import Api, LambdaContext

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
IN_PLAY = ("queued", "called", "playing")

# (home wins?, home points, away points) for a match
Decide = Callable[[FixtureRecord], tuple[bool, int, int]]


def home_wins(match: FixtureRecord) -> tuple[bool, int, int]:
    return True, match.length, 2


def official(home_won: bool, home_points: int, away_points: int) -> progress.Change:
    def change(match: FixtureRecord, _: progress.DayView) -> FixtureRecord:
        assert match.home and match.away
        result = {
            "winner": match.home if home_won else match.away,
            "home_points": home_points,
            "away_points": away_points,
            "forfeit": False,
            "how": "score",
        }
        return replace(
            match, state=State.OFFICIAL, result=Result.from_json(result), official_at=NOW.isoformat()
        )

    return change


def records(tournament_id: str) -> dict[str, FixtureRecord]:
    return {r.code: r for r in draw_store.fixtures(draw_store.day(tournament_id).tournament, 999)}


def settle(tournament_id: str, code: str, home_won: bool, home_points: int, away_points: int) -> None:
    progress.settle(tournament_id, code, official(home_won, home_points, away_points), lambda a, b: [], NOW)


def next_due(tournament_id: str) -> FixtureRecord | None:
    """The first playable match of the published draws, in draw order (None when none is left)."""
    due = [
        r
        for r in sorted(records(tournament_id).values(), key=lambda r: (r.draw, r.position))
        if r.state in IN_PLAY and r.home and r.away
    ]
    return due[0] if due else None


def play_out(tournament_id: str, decide: Decide = home_wins) -> None:
    """Make every playable match of the published draws official, in draw order, until none is left."""
    while (match := next_due(tournament_id)) is not None:
        settle(tournament_id, match.code, *decide(match))


def set_field(tournament_id: str, **lists: list[str]) -> None:
    """Mark players withdrawn or disqualified on the field, as the conduct use cases will (R8.2, R8.3)."""
    names = ", ".join(f"{name} = :{name}" for name in lists)
    client().update_item(
        TableName=table_name(MAIN),
        Key=keys.field(tournament_id),
        UpdateExpression=f"SET {names}",
        ExpressionAttributeValues={
            f":{name}": {"L": [{"S": p} for p in players]} for name, players in lists.items()
        },
    )


def four_drawn_and_a_winner_disqualified(api: Api) -> tuple[str, str]:
    """4 players drawn; the winner of main.R1.1 is then disqualified (R8.3): (tournament, player)."""
    from tests.service.day_helpers import checked_in_field, draw

    tournament_id, _ = checked_in_field(api, 4)
    assert draw(api, tournament_id).status == 201
    settle(tournament_id, "main.R1.1", True, 7, 3)
    cheat = records(tournament_id)["main.R1.1"].home
    assert cheat is not None
    set_field(tournament_id, disqualified=[cheat])
    return tournament_id, cheat


def raw_call(api: Api, method: str, template: str, **request: Any) -> dict[str, Any]:
    """The handler's whole answer (status, headers, body text), for non-JSON bodies and headers."""
    function, event = api.event(method, template, **request)
    module = importlib.import_module(function.module)
    response: dict[str, Any] = module.handler(event, LambdaContext(function.name))
    return response


def swiss_tie_break_day(api: Api, **settings: Any) -> tuple[str, tuple[str, str, str, str]]:
    """R10.2's example, a 2-round Swiss of W, X, Y, Z played out: round 1 X beats Y 7-6 and W
    beats Z 7-0; round 2 W beats X 7-0 and Y beats Z 7-0. Returns the tournament and (w, x, y, z)."""
    from tests.service.day_helpers import checked_in_field, draw

    tournament_id, _ = checked_in_field(api, 4, format="swiss", swiss_rounds=2, **settings)
    assert draw(api, tournament_id).status == 201
    first = records(tournament_id)
    x, y = first["main.S1.1"].home, first["main.S1.1"].away
    w, z = first["main.S1.2"].home, first["main.S1.2"].away
    assert w and x and y and z
    settle(tournament_id, "main.S1.1", True, 7, 6)
    settle(tournament_id, "main.S1.2", True, 7, 0)
    assert draw(api, tournament_id).status == 201
    for match in [r for r in records(tournament_id).values() if r.draw == 2]:
        winner = w if w in (match.home, match.away) else y
        settle(tournament_id, match.code, match.home == winner, *((7, 0) if match.home == winner else (0, 7)))
    return tournament_id, (w, x, y, z)


def table_figures(event: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    """A table event's rows as published: player -> (place, points, head-to-head, its point
    difference, overall point difference, Buchholz), R10.2."""
    return {
        row["player"]["tavla_id"]: (
            row["label"],
            row["points"],
            row["head_to_head"],
            row["head_to_head_difference"],
            row["point_difference"],
            row["buchholz"],
        )
        for row in event["rows"]
    }
