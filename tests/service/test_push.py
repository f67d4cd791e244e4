"""Web Push (R6.2, R3.2): a player's browsers take their notices, in their language, signed with
the stage's VAPID key; the push service is faked at HTTP (`push_service`), the browser's side is
real cryptography (`tests.push_browser`), so what a phone would show is read back."""

from __future__ import annotations

import base64
import importlib
import re

import responses
from moto.backends import get_backend

from tavla import webpush
from tests.push_browser import Browser
from tests.service.conftest import PUSH_KEY, REGION, Api
from tests.service.helpers import create_player, create_tournament
from tests.service.test_notify import Context, promoted_event

notify = importlib.import_module("functions.notify.handler")
PHONE = "+306971234567"


def _subscribe(api: Api, user: str, browser: Browser) -> str:
    reply = api.call("PUT", "/me/push-subscriptions", body=browser.subscription(), user=user)
    assert reply.status == 200, reply.body
    return str(reply.body["id"])


def _sms() -> list[str]:
    sent = get_backend("sns")["123456789012"][REGION].sms_messages
    return [text for _, text in sent.values()]


def _posted(mock: responses.RequestsMock, endpoint: str) -> list[bytes]:
    bodies = [c.request.body or b"" for c in mock.calls if c.request.url == endpoint]
    return [b.encode() if isinstance(b, str) else bytes(b) for b in bodies]


def test_a_promotion_reaches_the_players_browser_in_their_language_and_no_sms_is_paid(
    api: Api, push_service: responses.RequestsMock
) -> None:
    """R3.2: the promoted player who chose English and SMS gets the notice by push, in English,
    signed with the stage's key; the browser took it, so no SMS goes out. Saving the same
    browser twice is one subscription; the event delivered twice is one push."""
    tid = create_tournament(api)
    tavla_id = create_player(api, "u1", phone=PHONE, sms_opt_in=True, language="en")
    browser = Browser("https://fcm.googleapis.com/fcm/send/phone-1")
    assert _subscribe(api, "u1", browser) == _subscribe(api, "u1", browser)
    notify.handler(promoted_event(tid, tavla_id), Context())
    notify.handler(promoted_event(tid, tavla_id), Context())
    (body,) = _posted(push_service, browser.endpoint)
    notice = browser.read(body)
    assert "A place opened in Athens Open" in notice["body"]
    assert notice["url"] == f"/#/t/{tid}"
    (call,) = [c for c in push_service.calls if c.request.url == browser.endpoint]
    assert call.request.headers["Content-Encoding"] == "aes128gcm"
    assert f"k={webpush.public_key_of(PUSH_KEY)}" in call.request.headers["Authorization"]
    assert _sms() == []


def test_a_browser_the_push_service_forgot_is_deleted_and_the_sms_goes_instead(
    api: Api, push_service: responses.RequestsMock
) -> None:
    """R3.2: the push service answers 410 (unsubscribed): the subscription is deleted, and the
    player who chose SMS gets it by SMS, once; the next notice posts to nothing."""
    tid = create_tournament(api)
    tavla_id = create_player(api, "u1", phone=PHONE, sms_opt_in=True)
    browser = Browser("https://updates.push.services.mozilla.com/wpush/v2/gone-1")
    push_service.reset()  # this browser's answer first, then every other's
    push_service.add(responses.POST, browser.endpoint, status=410)
    push_service.add(responses.POST, re.compile(r"https://.*"), status=201)
    _subscribe(api, "u1", browser)
    notify.handler(promoted_event(tid, tavla_id, "evt-1"), Context())
    notify.handler(promoted_event(tid, tavla_id, "evt-1"), Context())
    assert len(_posted(push_service, browser.endpoint)) == 1
    assert len(_sms()) == 1 and "Athens Open" in _sms()[0]
    assert "θέση" in _sms()[0]  # Greek: the federation's language, none chosen
    notify.handler(promoted_event(tid, tavla_id, "evt-2"), Context())
    assert len(_posted(push_service, browser.endpoint)) == 1 and len(_sms()) == 2


def test_only_browsers_at_push_services_with_real_keys_are_taken_ten_at_most(api: Api) -> None:
    """Bad input is a 422 and nothing is saved: a URL that is not a push service's (the server
    must not post anywhere a client names), plain HTTP, a key that is not a P-256 point, a
    wrong-size auth secret; an eleventh browser for one player."""
    create_player(api, "u1")
    good = Browser("https://fcm.googleapis.com/fcm/send/x").subscription()
    for endpoint in (
        "https://example.org/push",
        "http://fcm.googleapis.com/fcm/send/x",
        "https://fcm.googleapis.com.evil.example/x",
        "https://user@fcm.googleapis.com/x",
        "https://fcm.googleapis.com:8443/x",
    ):
        reply = api.call("PUT", "/me/push-subscriptions", body={**good, "endpoint": endpoint}, user="u1")
        assert reply.status == 422, endpoint
    bad_point = base64.urlsafe_b64encode(b"\x04" + b"\x01" * 64).decode().rstrip("=")
    for keys in ({**good["keys"], "p256dh": bad_point}, {**good["keys"], "auth": "A" * 30}):
        reply = api.call("PUT", "/me/push-subscriptions", body={**good, "keys": keys}, user="u1")
        assert reply.status == 422, keys
    for i in range(10):
        _subscribe(api, "u1", Browser(f"https://web.push.apple.com/device-{i}"))
    eleventh = api.call(
        "PUT",
        "/me/push-subscriptions",
        body=Browser("https://web.push.apple.com/more").subscription(),
        user="u1",
    )
    assert eleventh.status == 422
    again = api.call(
        "PUT",
        "/me/push-subscriptions",
        body=Browser("https://web.push.apple.com/device-3").subscription(),
        user="u1",
    )
    assert again.status == 200  # one already saved is saved again (new keys), not a new one


def test_a_player_removes_their_own_browser_only(api: Api, push_service: responses.RequestsMock) -> None:
    """R12: another player's subscription is not found (and stays); one's own goes, twice is
    fine; a removed browser gets no more notices."""
    tid = create_tournament(api)
    mine = create_player(api, "u1")
    create_player(api, "u2")
    browser = Browser("https://fcm.googleapis.com/fcm/send/phone-2")
    sub_id = _subscribe(api, "u1", browser)
    path = "/me/push-subscriptions/{subscription_id}"
    params = {"subscription_id": sub_id}
    assert api.call("DELETE", path, params=params, user="u2").status == 404
    notify.handler(promoted_event(tid, mine, "evt-1"), Context())
    assert len(_posted(push_service, browser.endpoint)) == 1
    assert api.call("DELETE", path, params=params, user="u1").status == 200
    assert api.call("DELETE", path, params=params, user="u1").status == 200
    notify.handler(promoted_event(tid, mine, "evt-2"), Context())
    assert len(_posted(push_service, browser.endpoint)) == 1


def test_the_push_key_is_the_public_half_of_the_stages_secret(api: Api) -> None:
    """Browsers subscribe with the key the notices are signed with: an uncompressed P-256 point."""
    reply = api.call("GET", "/push/key")
    assert reply.status == 200
    key = reply.body["public_key"]
    assert key == webpush.public_key_of(PUSH_KEY) and re.fullmatch(r"[A-Za-z0-9_-]{87}", key)
    assert base64.urlsafe_b64decode(key + "=")[0] == 4
