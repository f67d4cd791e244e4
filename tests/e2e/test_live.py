"""The live channel over real HTTP and WebSocket: a screen subscribed to a match hears a hint
within two seconds of another phone's report and the referee's confirmation, and one
subscribed to the tournament hears the result as a numbered delta of the board within two
seconds (no hold); a staff channel refuses a player's token and admits the organiser's
(R-live, R1.3)."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
import requests
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

from tests.e2e.client import Client
from tests.e2e.conftest import Stack
from tests.e2e.day import checked_in_field

pytestmark = pytest.mark.e2e
PROTOCOL = Subprotocol("aws-appsync-event-ws")
WITHIN_SECONDS = 2.0


class Screen:
    """A phone or the TV with the live channel open on one channel."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket

    def subscribe(self, channel: str, token: str | None = None) -> dict[str, Any]:
        path = "/" + channel.replace(".", "/")
        authorization = {"Authorization": token} if token else {"x-api-key": "local"}
        message = {"type": "subscribe", "id": str(uuid.uuid4()), "channel": path}
        self.socket.send(json.dumps({**message, "authorization": authorization}))
        return dict(json.loads(self.socket.recv(timeout=5)))

    def hint(self, kind: str, since: float) -> tuple[dict[str, Any], float]:
        """The first hint or delta of `kind`, and how long after `since` it came (others are skipped)."""
        while True:
            left = since + WITHIN_SECONDS - time.monotonic()
            assert left > 0, f"no {kind} within {WITHIN_SECONDS} s"
            data = json.loads(self.socket.recv(timeout=left))
            if data["type"] != "data":
                continue
            message = json.loads(data["event"])
            if kind in (message.get("type"), message.get("kind")):
                return message, time.monotonic() - since


@pytest.fixture
def screens(stack: Stack) -> Iterator[Any]:
    url = requests.get(f"{stack.url}/config.json", timeout=10).json()["live"]
    with ExitStack() as opened:

        def screen() -> Screen:
            socket = opened.enter_context(connect(url, subprotocols=[PROTOCOL]))
            socket.send(json.dumps({"type": "connection_init"}))
            assert json.loads(socket.recv(timeout=5))["type"] == "connection_ack"
            return Screen(socket)

        yield screen


def test_screens_hear_a_report_and_a_confirmation_within_two_seconds(stack: Stack, screens: Any) -> None:
    """R-live: the match's screens hear each change within 2 s as a hint; the tournament's
    (every phone and the TV) hear the confirmation within 2 s as a delta: the match with its
    winner, numbered after the draw's; the report (a declaration) never reaches them."""
    client = Client(stack)
    organiser = f"live-org-{uuid.uuid4().hex[:6]}"
    tid, users = checked_in_field(client, organiser, f"live-{uuid.uuid4().hex[:6]}", 2)
    assert client.call("POST", f"/tournaments/{tid}/rounds", user=organiser).status == 201
    stack.drain()  # the draw's deltas out: what is timed below is the confirmation's alone
    (match,) = client.call("GET", f"/tournaments/{tid}/rounds/1").body["pairings"]
    board, table = screens(), screens()
    assert board.subscribe(f"tournament/{tid}")["type"] == "subscribe_success"
    assert table.subscribe(f"match/{match['id']}")["type"] == "subscribe_success"

    home = users[match["home"]["tavla_id"]]
    score = {"home_points": match["length"], "away_points": 0}
    reported = time.monotonic()
    assert client.call("POST", f"/matches/{match['id']}/report", score, user=home).status == 200
    hint, _ = table.hint("MatchChanged", reported)
    assert hint["channel"] == f"match/{match['id']}" and set(hint) == {"channel", "type", "version"}

    confirmed = time.monotonic()
    assert client.call("POST", f"/matches/{match['id']}/confirm", score, user=organiser).status == 200
    table.hint("ResultConfirmed", confirmed)
    delta, _ = board.hint("result", confirmed)  # the first message the board hears: no declaration
    assert (
        delta["match"]["id"] == match["id"]
        and delta["match"]["result"]["winner"] == match["home"]["tavla_id"]
    )
    assert delta["seq"] >= 1 and "declared" not in delta["match"]
    # the match's ETag moved with the hint: the screen's refetch is a full answer, a second a 304
    fetched = client.call("GET", f"/matches/{match['id']}")
    again = client.call("GET", f"/matches/{match['id']}", headers={"If-None-Match": fetched.headers["etag"]})
    assert again.status == 304


def test_a_staff_channel_refuses_a_player_and_admits_the_organiser(stack: Stack, screens: Any) -> None:
    client = Client(stack)
    organiser = f"live-org-{uuid.uuid4().hex[:6]}"
    tid, users = checked_in_field(client, organiser, f"live-{uuid.uuid4().hex[:6]}", 2)
    player = next(iter(users.values()))
    refused = screens().subscribe(f"staff/{tid}", client.token(player))
    assert refused["type"] == "subscribe_error"
    assert refused["errors"][0]["errorType"] == "UnauthorizedException"
    assert screens().subscribe(f"staff/{tid}")["type"] == "subscribe_error"  # no token at all
    admitted = screens().subscribe(f"staff/{tid}", client.token(organiser, ("organisers",)))
    assert admitted["type"] == "subscribe_success"
