"""Web Push over the local stack: a browser subscribed after registering hears of its promotion
from the waiting list, through the outbox, the bus and the notify function, at the stand-in push
service (`local.push_service`), encrypted for it alone and in the player's language (R3.2)."""

from __future__ import annotations

import base64
import uuid

import pytest
import requests

from tests.e2e.client import Client, players, tournament
from tests.e2e.conftest import Stack
from tests.push_browser import Browser

pytestmark = pytest.mark.e2e


def test_a_promotion_reaches_the_browser_by_push_in_the_players_language(stack: Stack) -> None:
    """R3.2: the third entrant of a two-place tournament subscribes (PUT, twice: one browser),
    the first withdraws; the push service takes one encrypted notice that the browser reads in
    Italian, the language the player chose; no SMS (none chosen)."""
    client = Client(stack)
    config = requests.get(f"{stack.url}/config.json", timeout=10).json()
    assert config["push_key"] == client.call("GET", "/push/key").body["public_key"]
    listed = tournament(client, "org-push", capacity=2)
    entrants = players(client, "push", 3)
    for user in entrants:
        assert client.call("POST", f"/tournaments/{listed}/registrations", user=user).status == 201
    leaver, _, waiting = list(entrants)
    assert client.call("PATCH", "/me", {"language": "it"}, user=waiting).status == 200
    browser = Browser(f"{config['push_service']}/push/{uuid.uuid4()}")
    for _ in range(2):
        saved = client.call("PUT", "/me/push-subscriptions", browser.subscription(), user=waiting)
        assert saved.status == 200, saved.body
    withdrawn = client.call("DELETE", f"/tournaments/{listed}/registrations/me", user=leaver)
    assert withdrawn.status == 200 and withdrawn.body["promoted"] == entrants[waiting], withdrawn.body
    stack.drain()
    stack.drain()
    taken = requests.get(config["push_service"], timeout=10).json()["taken"]
    mine = [t for t in taken if t["path"] == browser.endpoint.removeprefix(config["push_service"])]
    assert len(mine) == 1, taken
    assert mine[0]["encoding"] == "aes128gcm" and mine[0]["vapid"]
    notice = browser.read(base64.b64decode(mine[0]["body"]))
    assert "Si è liberato un posto" in notice["body"] and notice["url"] == f"/#/t/{listed}"
