"""Building blocks for tournament-day service tests: a checked-in field, draws, results."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tavla import clock
from tavla.rules.results import Result
from tavla.rules.states import State
from tavla.services import progress
from tavla.store import draws as draw_store
from tavla.store import keys
from tavla.store.dynamo import client, serialize, table_name
from tavla.store.records import FieldRecord, FixtureRecord, item_of
from tavla.store.schema import MAIN
from tests.service.conftest import Api
from tests.service.helpers import ORGANISER, create_player, create_tournament, register


def checked_in_field(
    api: Api, players: int, users: list[str] | None = None, **settings: Any
) -> tuple[str, list[str]]:
    """A tournament whose `players` entrants are all registered and checked in by its organiser.

    `users` names the entrants' users (`player-0` ... by default); a user who has a profile
    already keeps it (a season of tournaments).
    """
    from tavla.store import players as player_store

    tournament_id = create_tournament(api, capacity=max(players, 2), **settings)
    ids = []
    for i in range(players):
        user = users[i] if users else f"player-{i}"
        known = player_store.tavla_id_or_none(user) if users else None
        tavla_id = known or create_player(api, user, name=f"Player {i}", club=f"Club {i % 3}")
        assert register(api, tournament_id, user).status == 201
        reply = api.call(
            "POST",
            "/tournaments/{tournament_id}/checkins",
            params={"tournament_id": tournament_id},
            body={"tavla_id": tavla_id},
            user=ORGANISER,
        )
        assert reply.status == 200, reply.body
        ids.append(tavla_id)
    return tournament_id, ids


def fixed_field(tournament_id: str, players: int) -> None:
    """The field of `players` written as the first draw fixes it (registering and checking in a
    hundred players through the API is other tests' business)."""
    entrants = tuple(
        {"player_id": f"P{i:05d}", "rating": 1500.0 + 7 * i, "name": f"Player {i}", "club": f"Club {i % 9}"}
        for i in range(players)
    )
    field = FieldRecord(tournament_id=tournament_id, fixed_at="2026-12-01T09:00:00+00:00", entrants=entrants)
    item = {**keys.plain(keys.field(tournament_id)), **item_of(field), "entrants": list(entrants)}
    client().put_item(TableName=table_name(MAIN), Item=serialize(item))


def draw(api: Api, tournament_id: str, user: str = ORGANISER) -> Any:
    return api.call(
        "POST", "/tournaments/{tournament_id}/rounds", params={"tournament_id": tournament_id}, user=user
    )


def records(tournament_id: str) -> dict[str, FixtureRecord]:
    """Every match of the tournament's published draws, by code."""
    return {r.code: r for r in draw_store.fixtures(draw_store.day(tournament_id).tournament, 99)}


def official(tournament_id: str, code: str, home_wins: bool = True) -> FixtureRecord:
    """Make a 7-3 result official now, as staff confirmation does (through progress.settle)."""

    def change(match: FixtureRecord, _: progress.DayView) -> FixtureRecord:
        assert match.home and match.away
        result = {
            "winner": match.home if home_wins else match.away,
            "home_points": 7 if home_wins else 3,
            "away_points": 3 if home_wins else 7,
            "forfeit": False,
            "how": "score",
        }
        return replace(
            match, state=State.OFFICIAL, result=Result.from_json(result), official_at=clock.now().isoformat()
        )

    return progress.settle(tournament_id, code, change, lambda a, b: [], clock.now()).match


def audit_trail(api: Api, tournament_id: str) -> list[dict[str, Any]]:
    """The tournament's audit trail as its organiser reads it, newest first."""
    reply = api.call(
        "GET",
        "/tournaments/{tournament_id}/audit",
        params={"tournament_id": tournament_id},
        user=ORGANISER,
        groups=("organisers",),
    )
    assert reply.status == 200, reply.body
    return list(reply.body["records"])
