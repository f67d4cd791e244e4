"""Building blocks for tournament-day service tests: a checked-in field, draws, results."""

from __future__ import annotations

from typing import Any

from tests.service.conftest import Api
from tests.service.helpers import ORGANISER, create_player, create_tournament, register


def checked_in_field(api: Api, players: int, **settings: Any) -> tuple[str, list[str]]:
    """A tournament whose `players` entrants are all registered and checked in by its organiser."""
    tournament_id = create_tournament(api, capacity=max(players, 2), **settings)
    ids = []
    for i in range(players):
        user = f"player-{i}"
        tavla_id = create_player(api, user, name=f"Player {i}", club=f"Club {i % 3}")
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


def draw(api: Api, tournament_id: str, user: str = ORGANISER) -> Any:
    return api.call(
        "POST", "/tournaments/{tournament_id}/rounds", params={"tournament_id": tournament_id}, user=user
    )
