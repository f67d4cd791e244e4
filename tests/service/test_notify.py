"""Promotion notifications: bus event -> notify function -> in-app feed and SMS (R3.2)."""

from __future__ import annotations

import importlib
from typing import Any

from moto.backends import get_backend

from tests.service.conftest import REGION, Api
from tests.service.helpers import bus_taking, create_player, create_tournament, register

notify = importlib.import_module("functions.notify.handler")


class Context:
    function_name = "notify"
    memory_limit_in_mb = 512
    invoked_function_arn = "arn:aws:lambda:eu-central-1:123456789012:function:notify"
    aws_request_id = "req-1"


def promoted_event(tournament_id: str, tavla_id: str, event_id: str = "evt-1") -> dict[str, Any]:
    return {
        "version": "0",
        "id": event_id,
        "detail-type": "RegistrationPromoted",
        "source": "tavla",
        "time": "2026-11-29T10:00:00Z",
        "detail": {"tournament_id": tournament_id, "tournament_name": "Athens Open", "tavla_id": tavla_id},
    }


def test_promoted_player_finds_it_in_their_feed_and_gets_an_sms(api: Api) -> None:
    """R3.2: the promoted player who chose SMS hears it in the feed and by SMS."""
    tid = create_tournament(api)
    tavla_id = create_player(api, "u1", phone="+306971234567", sms_opt_in=True)
    result = notify.handler(promoted_event(tid, tavla_id), Context())
    assert result == {"delivered": True}
    feed = api.call("GET", "/me/notifications", user="u1").body
    assert [n["kind"] for n in feed] == ["promoted"]
    assert "Athens Open" in feed[0]["message"]
    sent = get_backend("sns")["123456789012"][REGION].sms_messages
    assert any(phone == "+306971234567" and "Athens Open" in text for phone, text in sent.values())


def test_the_same_event_delivered_twice_is_one_notification(api: Api) -> None:
    """EventBridge delivers at least once: a retry must not duplicate the message."""
    tid = create_tournament(api)
    tavla_id = create_player(api, "u1")
    notify.handler(promoted_event(tid, tavla_id), Context())
    notify.handler(promoted_event(tid, tavla_id), Context())
    assert len(api.call("GET", "/me/notifications", user="u1").body) == 1


def test_withdrawal_puts_the_promotion_on_the_bus(api: Api, monkeypatch: Any) -> None:
    published: list[tuple[str, dict[str, Any]]] = []
    from tavla import events

    monkeypatch.setattr(
        events, "put_on_bus", bus_taking(lambda kind, detail: published.append((kind, detail)))
    )
    tid = create_tournament(api, capacity=2)
    ids = [create_player(api, f"u{i}") for i in range(3)]
    for i in range(3):
        register(api, tid, f"u{i}")
    api.call(
        "DELETE", "/tournaments/{tournament_id}/registrations/me", params={"tournament_id": tid}, user="u0"
    )
    assert [p for p in published if p[0] != events.ENTRIES_CHANGED] == [  # the rest: live hints
        (
            "RegistrationPromoted",
            {
                "tournament_id": tid,
                "tournament_name": "Athens Open",
                "tavla_id": ids[2],
                "promoted_at": next(d for k, d in published if k == "RegistrationPromoted")["promoted_at"],
                "event_id": next(d for k, d in published if k == "RegistrationPromoted")[
                    "event_id"
                ],  # written with the withdrawal, for consumers
            },
        )
    ]


def test_events_for_nobody_are_ignored() -> None:
    assert notify.handler({"detail-type": "SomethingElse", "detail": {}}, Context()) == {"delivered": False}


# --- the stage's SMS sender id


def test_sms_goes_out_transactional_under_the_stage_sender_id(api: Api, monkeypatch: Any) -> None:
    """R3.2: players see the federation's name (cdk.json sms_sender_id) where their country allows
    it, and the message is sent as transactional (delivery over price)."""
    from tavla.services import notify as service

    tid = create_tournament(api)
    tavla_id = create_player(api, "u1", phone="+306971234567", sms_opt_in=True)
    monkeypatch.setenv(service.SMS_SENDER_ID_ENV, "Tavla")
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(service._sns(), "publish", lambda **kw: sent.append(kw))
    notify.handler(promoted_event(tid, tavla_id), Context())
    assert [m["PhoneNumber"] for m in sent] == ["+306971234567"]
    attributes = sent[0]["MessageAttributes"]
    assert attributes["AWS.SNS.SMS.SenderID"] == {"DataType": "String", "StringValue": "Tavla"}
    assert attributes["AWS.SNS.SMS.SMSType"]["StringValue"] == "Transactional"


# --- in the player's language; SMS only by choice


def test_a_greek_player_reads_greek_and_gets_no_sms_without_choosing_it(api: Api) -> None:
    """Notices in the player's language: a player with no choice under the platform profile
    reads Greek (no English sentence), and a phone alone is no consent to SMS."""
    tid = create_tournament(api)
    tavla_id = create_player(api, "u1", phone="+306971234567")
    notify.handler(promoted_event(tid, tavla_id), Context())
    [note] = api.call("GET", "/me/notifications", user="u1").body
    assert "Athens Open" in note["message"] and "λίστα αναμονής" in note["message"]
    assert "waiting list" not in note["message"] and "place opened" not in note["message"]
    assert get_backend("sns")["123456789012"][REGION].sms_messages == {}


def test_the_language_and_the_sms_choice_are_the_players_own(api: Api) -> None:
    """PATCH /me sets the language and the SMS choice; GET /me and /me/data show them, the
    choice with its time; a language outside el, en, it is 422 and nothing changes."""
    create_player(api, "u1")
    reply = api.call("PATCH", "/me", body={"language": "it", "sms_opt_in": True}, user="u1")
    assert reply.status == 200
    me = api.call("GET", "/me", user="u1").body
    assert me["language"] == "it" and me["sms_opt_in"] is True and me["sms_opt_in_at"]
    assert api.call("GET", "/me/data", user="u1").body["profile"]["language"] == "it"
    bad = api.call("PATCH", "/me", body={"language": "fr"}, user="u1")
    assert bad.status == 422
    assert api.call("GET", "/me", user="u1").body["language"] == "it"
