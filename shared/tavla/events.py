"""Domain events on the platform's EventBridge bus (the notify function turns them into messages)."""

from __future__ import annotations

import json
import os
from functools import cache
from typing import TYPE_CHECKING, Any

import boto3

if TYPE_CHECKING:
    from mypy_boto3_events import EventBridgeClient

from tavla.rules.event_names import MATCHES_CALLED as MATCHES_CALLED
from tavla.rules.event_names import RESULT_CONFIRMED as RESULT_CONFIRMED

EVENT_SOURCE = "tavla"

REGISTRATION_PROMOTED = "RegistrationPromoted"
TOURNAMENT_FINISHED = "TournamentFinished"
# a no-show deadline forfeited an absent player or found both absent: the referee is told (R6.3)
NOSHOW_RULED = "NoShowRuled"
# an admin merged two accounts (R1.1): ratings and season points follow
PLAYERS_MERGED = "PlayersMerged"
# the season's leaders invited to the Super Final (R10.4): notify tells them
SUPER_FINAL_INVITED = "SuperFinalInvited"


@cache
def _client() -> EventBridgeClient:
    return boto3.client("events")


def publish(detail_type: str, detail: dict[str, Any]) -> None:
    """Put one event on the bus; raises if EventBridge refused it."""
    response = _client().put_events(
        Entries=[
            {
                "Source": EVENT_SOURCE,
                "DetailType": detail_type,
                "Detail": json.dumps(detail),
                "EventBusName": os.environ["EVENT_BUS_NAME"],
            }
        ]
    )
    if response.get("FailedEntryCount"):
        raise RuntimeError(f"EventBridge refused {detail_type}: {response['Entries']}")
