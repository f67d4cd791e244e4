"""Domain events become what a player reads: the in-app feed, and an SMS where a phone is known."""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any

import boto3

from tavla import events
from tavla.store import notifications as notification_store
from tavla.store import players as player_store

if TYPE_CHECKING:
    from mypy_boto3_sns import SNSClient


@cache
def _sns() -> SNSClient:
    return boto3.client("sns")


def _message(detail_type: str, detail: dict[str, Any]) -> tuple[str, str] | None:
    if detail_type == events.REGISTRATION_PROMOTED:
        return (
            "promoted",
            f"A place opened in {detail.get('tournament_name', 'the tournament')}: "
            "you have moved from the waiting list to the main list.",
        )
    return None


def deliver(event: dict[str, Any]) -> bool:
    """Deliver one EventBridge event; True when it was for a player. Safe to deliver twice."""
    detail_type, detail = event.get("detail-type", ""), event.get("detail") or {}
    rendered = _message(detail_type, detail)
    tavla_id = detail.get("tavla_id")
    if rendered is None or not tavla_id:
        return False
    kind, text = rendered
    at = datetime.fromisoformat(str(event.get("time", "")).replace("Z", "+00:00"))
    notification_store.add(
        tavla_id, str(event.get("id")), kind, text, at, {"tournament_id": detail.get("tournament_id", "")}
    )
    contacts = player_store.get_contacts([tavla_id]).get(tavla_id)
    if contacts is not None and contacts.phone:
        _sns().publish(PhoneNumber=contacts.phone, Message=f"Tavla: {text}")
    return True
