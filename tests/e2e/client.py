"""A tiny HTTP client for the e2e tests: JSON in, (status, JSON) out, tokens by user name."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import requests

from tests.e2e.conftest import Stack


@dataclass(frozen=True)
class Reply:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def error(self) -> str:
        return str(self.body["error"]["code"])


class Client:
    def __init__(self, stack: Stack) -> None:
        self.stack = stack
        self._tokens: dict[tuple[str, tuple[str, ...]], str] = {}

    def token(self, user: str, groups: tuple[str, ...] = ()) -> str:
        key = (user, groups)
        if key not in self._tokens:
            self._tokens[key] = self.stack.token(user, groups)
        return self._tokens[key]

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        user: str | None = None,
        groups: tuple[str, ...] = (),
        raw: str | None = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        headers = {"Content-Type": "application/json", **(headers or {})}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        elif user is not None:
            headers["Authorization"] = f"Bearer {self.token(user, groups)}"
        response = requests.request(
            method,
            self.stack.url + path,
            json=body if raw is None else None,
            data=raw,
            headers=headers,
            timeout=120,
        )
        body = response.json() if response.content else None
        return Reply(response.status_code, body, {k.lower(): v for k, v in response.headers.items()})

    def parallel(self, calls: list[tuple[Any, ...]], workers: int = 50) -> list[Reply]:
        """Fire the calls at once (threads), replies in the order of the calls."""
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(lambda c: self.call(*c[:3], **(c[3] if len(c) > 3 else {})), calls))


def future(days: float) -> str:
    return (datetime.now(UTC) + timedelta(days=days)).isoformat()


def tournament(client: Client, organiser: str, **overrides: Any) -> str:
    body = {
        "name": "Panhellenic Open",
        "venue": "Hotel Zafolia, Athens",
        "city": "Athens",
        "starts_at": future(20),
        "registration_closes_at": future(19),
        "capacity": 64,
        "entry_fee": {"amount": 3000, "currency": "EUR"},
        **overrides,
    }
    reply = client.call("POST", "/tournaments", body, user=organiser, groups=("organisers",))
    assert reply.status == 201, reply.body
    return str(reply.body["id"])


def numbered_phone(phone: str, i: int) -> str:
    """The i-th of a run of phone numbers starting at `phone` (one account per number)."""
    return f"{phone[:-3]}{(int(phone[-3:]) + i) % 1000:03d}"


def players(client: Client, prefix: str, count: int, **fields: Any) -> dict[str, str]:
    """`count` users with profiles, created concurrently; user name -> Tavla ID.

    A `phone` given is the first user's; the others get the numbers after it.
    """
    users = [f"{prefix}-{i:03d}" for i in range(count)]

    def body(i: int, user: str) -> dict[str, Any]:
        own = {"phone": numbered_phone(fields["phone"], i)} if "phone" in fields else {}
        return {"name": f"Player {user}", "club": f"Club {i % 7}", **fields, **own}

    replies = client.parallel([("POST", "/players", body(i, u), {"user": u}) for i, u in enumerate(users)])
    assert all(r.status == 201 for r in replies), [r.body for r in replies if r.status != 201][:3]
    return {u: str(r.body["tavla_id"]) for u, r in zip(users, replies, strict=True)}


def until(check: Callable[[], Any], seconds: float = 30) -> Any:
    """What the event consumers (ratings, season points) do off the bus: wait for its result."""
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.3)
