"""Promotion notifications: bus event -> notify function -> in-app feed and SMS (R3.2)."""

from __future__ import annotations

import importlib
from typing import Any

from moto.backends import get_backend

from tests.service.conftest import REGION, Api
from tests.service.helpers import create_player, create_tournament, register

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
    tid = create_tournament(api)
    tavla_id = create_player(api, "u1", phone="+306971234567")
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

    monkeypatch.setattr(events, "put_on_bus", lambda kind, detail: published.append((kind, detail)))
    tid = create_tournament(api, capacity=2)
    ids = [create_player(api, f"u{i}") for i in range(3)]
    for i in range(3):
        register(api, tid, f"u{i}")
    api.call(
        "DELETE", "/tournaments/{tournament_id}/registrations/me", params={"tournament_id": tid}, user="u0"
    )
    assert published == [
        (
            "RegistrationPromoted",
            {
                "tournament_id": tid,
                "tournament_name": "Athens Open",
                "tavla_id": ids[2],
                "promoted_at": published[0][1]["promoted_at"],
                "event_id": published[0][1]["event_id"],  # written with the withdrawal, for consumers
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
    tavla_id = create_player(api, "u1", phone="+306971234567")
    monkeypatch.setenv(service.SMS_SENDER_ID_ENV, "Tavla")
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(service._sns(), "publish", lambda **kw: sent.append(kw))
    notify.handler(promoted_event(tid, tavla_id), Context())
    assert [m["PhoneNumber"] for m in sent] == ["+306971234567"]
    attributes = sent[0]["MessageAttributes"]
    assert attributes["AWS.SNS.SMS.SenderID"] == {"DataType": "String", "StringValue": "Tavla"}
    assert attributes["AWS.SNS.SMS.SMSType"]["StringValue"] == "Transactional"
