"""Building blocks for service tests: an organiser, a tournament, players with profiles."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from tests.service.conftest import Api

ORGANISER = "org-1"


def future(days: float) -> str:
    return (datetime.now(UTC) + timedelta(days=days)).isoformat()


def tournament_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": "Athens Open",
        "venue": "Café Tavli, Plaka",
        "city": "Athens",
        "starts_at": future(10),
        "registration_closes_at": future(9),
        "capacity": 4,
        "entry_fee": {"amount": 2000, "currency": "EUR"},
        "format": "single_elimination",
    }
    return {**body, **overrides}


def create_tournament(api: Api, **overrides: Any) -> str:
    reply = api.call(
        "POST", "/tournaments", body=tournament_body(**overrides), user=ORGANISER, groups=("organisers",)
    )
    assert reply.status == 201, reply.body
    return str(reply.body["id"])


def create_player(api: Api, user: str, name: str | None = None, **fields: Any) -> str:
    reply = api.call("POST", "/players", body={"name": name or f"Player {user}", **fields}, user=user)
    assert reply.status == 201, reply.body
    return str(reply.body["tavla_id"])


def register(api: Api, tournament_id: str, user: str) -> Any:
    return api.call(
        "POST",
        "/tournaments/{tournament_id}/registrations",
        params={"tournament_id": tournament_id},
        user=user,
    )


def entries(api: Api, tournament_id: str) -> Any:
    reply = api.call("GET", "/tournaments/{tournament_id}/entries", params={"tournament_id": tournament_id})
    assert reply.status == 200, reply.body
    return reply.body


def appoint_referee(api: Api, tournament_id: str, tavla_id: str) -> None:
    """The organiser makes a player the tournament's referee (R1.3)."""
    reply = api.call(
        "PUT",
        "/tournaments/{tournament_id}/staff",
        params={"tournament_id": tournament_id},
        user=ORGANISER,
        body={"staff": [{"tavla_id": tavla_id, "role": "referee"}]},
    )
    assert reply.status == 200, reply.body


def dynamodb_calls(action: Callable[[], Any]) -> list[str]:
    """The DynamoDB operations `action` makes, in order (BatchGetItem, Query, ...)."""
    from tavla.store.dynamo import client

    calls: list[str] = []

    def hook(event_name: str, **_: Any) -> None:
        calls.append(event_name.rsplit(".", 1)[-1])

    events = client().meta.events
    events.register("before-call.dynamodb.*", hook)
    try:
        action()
    finally:
        events.unregister("before-call.dynamodb.*", hook)
    return calls


def bus_taking(
    put: Callable[[str, dict[str, Any]], object],
) -> Callable[[Sequence[tuple[str, dict[str, Any]]]], list[int]]:
    """A stand-in for `events.put_on_bus` that hands `put` each event (detail type, detail) in
    turn: one it raises on is refused (the publisher leaves it in the outbox), as EventBridge
    refuses an entry of a call alone."""

    def put_on_bus(entries: Sequence[tuple[str, dict[str, Any]]]) -> list[int]:
        refused = []
        for position, (kind, detail) in enumerate(entries):
            try:
                put(kind, detail)
            except Exception:
                refused.append(position)
        return refused

    return put_on_bus
