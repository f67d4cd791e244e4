"""Domain events on the platform's EventBridge bus (the notify function turns them into messages).

Services never put an event on the bus: they write it with their change (`store.outbox`), and
the one publisher (`services.publisher`, fed by the table's stream) calls `put_on_bus`.
"""

from __future__ import annotations

import json
import os
from functools import cache
from typing import TYPE_CHECKING, Any

from tavla import aws

if TYPE_CHECKING:
    from mypy_boto3_events import EventBridgeClient

from tavla.rules.event_names import MATCH_CHANGED as MATCH_CHANGED
from tavla.rules.event_names import MATCHES_CALLED as MATCHES_CALLED
from tavla.rules.event_names import RESULT_CONFIRMED as RESULT_CONFIRMED

EVENT_SOURCE = "tavla"

REGISTRATION_PROMOTED = "RegistrationPromoted"
TOURNAMENT_FINISHED = "TournamentFinished"
# a no-show deadline forfeited an absent player or found both absent: the referee is told (R6.3)
NOSHOW_RULED = "NoShowRuled"
# an admin merged two accounts (R1.1): ratings and season points follow
PLAYERS_MERGED = "PlayersMerged"
# a player invited to the Super Final (R10.4), at the season's close or as a seat passed down
# the frozen list: notify tells them, the season function schedules their reply's deadline
SUPER_FINAL_INVITED = "SuperFinalInvited"
# an invited player declined or let the deadline pass: the seat goes to the next on the list
SUPER_FINAL_SEAT_PASSED = "SuperFinalSeatPassed"
# an invited player accepted: the season page and the final's organiser hear a live hint
SUPER_FINAL_ACCEPTED = "SuperFinalAccepted"
# a season's standings were ranked again (a tournament counted, a merge, changed settings, a
# rebuild's repair): open season pages hear a live hint
SEASON_STANDINGS_CHANGED = "SeasonStandingsChanged"
# an admin set a season's dates or numbers (R10.4): the season function recounts its points
# and standings at once and schedules its close at the end date
SEASON_CHANGED = "SeasonChanged"
# a player asked to become an organiser (the admins are told), and an admin decided (the player is)
ORGANISER_REQUESTED = "OrganiserRequested"
ORGANISER_REQUEST_DECIDED = "OrganiserRequestDecided"
# an entry list changed (a registration, a withdrawal, a promotion, an approval or refusal):
# open tournament pages and the desk hear a live hint
ENTRIES_CHANGED = "EntriesChanged"
# a large bank statement stored for its import: the statements job imports it in the background
STATEMENT_UPLOADED = "StatementUploaded"
# an organiser (or an admin) cancelled a tournament, or moved its dates: every entrant is told
TOURNAMENT_CANCELLED = "TournamentCancelled"
TOURNAMENT_POSTPONED = "TournamentPostponed"
# an admin took a cancelled tournament's played results out of the ratings: the ratings
# function removes them from the ledger and replays (one at a time with the results it applies)
TOURNAMENT_UNRATED = "TournamentUnrated"


@cache
def _client() -> EventBridgeClient:
    return aws.session().client("events")


def put_on_bus(detail_type: str, detail: dict[str, Any]) -> None:
    """Put one event on the bus; raises if EventBridge refused it (the publisher's caller retries)."""
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
