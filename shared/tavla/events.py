"""Domain events on the platform's EventBridge bus (the notify function turns them into messages).

Services never put an event on the bus: they write it with their change (`store.outbox`), and
the one publisher (`services.publisher`, fed by the table's stream) calls `put_on_bus` with
the events a batch of the stream brings.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from tavla import aws
from tavla.observability import logger

if TYPE_CHECKING:
    from mypy_boto3_events import EventBridgeClient
    from mypy_boto3_events.type_defs import PutEventsRequestEntryTypeDef

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


PUT_ENTRIES = 10  # entries per PutEvents call (EventBridge's limit)
PUT_BYTES = 256 * 1024  # a PutEvents call's size limit


def put_on_bus(entries: Sequence[tuple[str, dict[str, Any]]]) -> list[int]:
    """Put events (detail type, detail) on the bus, as few PutEvents calls as their number and
    size allow; the positions of those not put. An entry EventBridge refused is not put; a call
    that failed outright (the bus did not answer) leaves its entries and every later one unput,
    without trying them: the publisher's caller retries them."""
    prepared: list[PutEventsRequestEntryTypeDef] = [
        {
            "Source": EVENT_SOURCE,
            "DetailType": kind,
            "Detail": json.dumps(detail),
            "EventBusName": os.environ["EVENT_BUS_NAME"],
        }
        for kind, detail in entries
    ]
    refused: list[int] = []
    for chunk in _chunks(prepared):
        try:
            answer = _client().put_events(Entries=[prepared[i] for i in chunk])
        except Exception:
            logger.exception("the bus did not take %d events", len(prepared) - chunk[0])
            return refused + list(range(chunk[0], len(prepared)))
        if answer.get("FailedEntryCount"):
            failed = [i for i, put in zip(chunk, answer["Entries"], strict=True) if put.get("ErrorCode")]
            logger.warning("EventBridge refused %d events", len(failed), extra={"entries": answer["Entries"]})
            refused += failed
    return refused


def _chunks(prepared: Sequence[Mapping[str, object]]) -> list[list[int]]:
    """Positions in PutEvents calls: at most `PUT_ENTRIES` each, under `PUT_BYTES` (as
    EventBridge counts an entry's size: its source, detail type and detail)."""
    chunks: list[list[int]] = []
    size = 0
    for i, entry in enumerate(prepared):
        entry_size = sum(len(str(entry[k]).encode()) for k in ("Source", "DetailType", "Detail"))
        if not chunks or len(chunks[-1]) == PUT_ENTRIES or size + entry_size > PUT_BYTES:
            chunks.append([])
            size = 0
        chunks[-1].append(i)
        size += entry_size
    return chunks
