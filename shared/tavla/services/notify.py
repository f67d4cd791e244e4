"""Domain events become what a player reads: the in-app feed, an SMS where a phone is known,
and an e-mail (SES) where the player chose e-mail (`notify_by_email`).

Safe to deliver twice: a notice's id is the event's id (the outbox's `event_id`, the same on
every delivery) and the player's; a notice already given is neither stored nor sent again.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any

from tavla import aws, events
from tavla.rules.states import State
from tavla.store import matches as match_store
from tavla.store import notifications as notification_store
from tavla.store import outbox
from tavla.store import players as player_store

if TYPE_CHECKING:
    from mypy_boto3_ses import SESClient
    from mypy_boto3_sns import SNSClient

    from tavla.store.records import FieldRecord, FixtureRecord

EMAIL_FROM_ENV = "NOTIFY_EMAIL_FROM"  # SES verified sender; without it no e-mail is sent
SMS_SENDER_ID_ENV = "NOTIFY_SMS_SENDER_ID"  # the stage's alphanumeric sender id


@cache
def _sns() -> SNSClient:
    return aws.session().client("sns")


@cache
def _ses() -> SESClient:
    return aws.session().client("ses")


@dataclass(frozen=True)
class Notice:
    tavla_id: str
    kind: str
    text: str
    data: Mapping[str, Any]


def _promoted(detail: Mapping[str, Any]) -> list[Notice]:
    tavla_id = detail.get("tavla_id")
    if not tavla_id:
        return []
    text = (
        f"A place opened in {detail.get('tournament_name', 'the tournament')}: "
        "you have moved from the waiting list to the main list."
    )
    return [Notice(str(tavla_id), "promoted", text, {"tournament_id": detail.get("tournament_id", "")})]


def _name(field: FieldRecord | None, tavla_id: str) -> str:
    for entrant in field.entrants if field else ():
        if entrant.get("player_id") == tavla_id and entrant.get("name"):
            return str(entrant["name"])
    return tavla_id


def _call_notice(
    tournament_id: str, name: str, field: FieldRecord | None, match: FixtureRecord
) -> list[Notice]:
    notices = []
    for me, opponent in ((match.home, match.away), (match.away, match.home)):
        if me is None or opponent is None:
            continue
        text = (
            f"{name}: table {match.table}. Your match {match.label} against "
            f"{_name(field, opponent)} starts now: please go to table {match.table}."
        )
        data = {
            "tournament_id": tournament_id,
            "match_id": f"{tournament_id}.{match.code}",
            "table": match.table,
            "opponent": opponent,
        }
        notices.append(Notice(me, "table_call", text, data))
    return notices


def _called(detail: Mapping[str, Any]) -> list[Notice]:
    """R6.2: each player of a match put on a table hears table and opponent."""
    tournament_id = str(detail.get("tournament_id", ""))
    read = match_store.several(tournament_id, [str(c) for c in detail.get("codes") or ()])
    if read.tournament is None:
        return []
    name = str(read.tournament.settings.get("name") or "Your tournament")
    at = str(detail.get("at", ""))
    notices: list[Notice] = []
    for match in read.matches:
        if match.state == State.CALLED and match.table is not None and match.called_at == at:
            notices.extend(_call_notice(tournament_id, name, read.field, match))
    return notices


def _noshow_ruled(detail: Mapping[str, Any]) -> list[Notice]:
    """R6.3: the tournament's staff (those with a player profile) hear of a no-show forfeit or of
    a match nobody came to, with the match and its table."""
    tournament_id = str(detail.get("tournament_id", ""))
    code = str(detail.get("code", ""))
    read = match_store.several(tournament_id, [code])
    if read.tournament is None or not read.matches:
        return []
    match = read.matches[0]
    name = str(read.tournament.settings.get("name") or "Your tournament")
    if detail.get("outcome") == "forfeited":
        absent = _name(read.field, str(detail.get("tavla_id", "")))
        what = f"{absent} did not come to table {match.table} and lost match {match.label} by forfeit."
    else:
        what = f"Nobody has come to table {match.table} for match {match.label}: please decide."
    data = {"tournament_id": tournament_id, "match_id": f"{tournament_id}.{code}", "table": match.table}
    staff = dict.fromkeys(m.tavla_id for m in read.tournament.staff.values() if m.tavla_id)
    return [Notice(str(tavla_id), "noshow", f"{name}: {what}", data) for tavla_id in staff]


def _invited(detail: Mapping[str, Any]) -> list[Notice]:
    """R10.4, R5.7: each invited player hears their season place and starting lives."""
    season_id = str(detail.get("season_id", ""))
    return [
        Notice(
            str(i["tavla_id"]),
            "super_final",
            f"You are invited to the Super Final of season {season_id}: season place {i['place']}, "
            f"you start the final with {i['lives']} lives.",
            {"season_id": season_id, "place": str(i["place"]), "lives": str(i["lives"])},
        )
        for i in detail.get("invited") or ()
        if i.get("tavla_id")
    ]


def _organiser_requested(detail: Mapping[str, Any]) -> list[Notice]:
    """R1.3: every admin with a player profile hears of a request to organise."""
    from tavla.store import roles as role_store

    who, club = str(detail.get("tavla_id", "")), str(detail.get("club", ""))
    text = f"{who} asks to become an organiser ({club}): approve or refuse it in the admin list."
    admins = dict.fromkeys(g.tavla_id for g in role_store.holders("admins") if g.tavla_id)
    return [Notice(str(a), "organiser_request", text, {"tavla_id": who}) for a in admins]


def _organiser_decided(detail: Mapping[str, Any]) -> list[Notice]:
    """R1.3: the player hears the admins' answer (an approval takes effect at the next sign-in)."""
    approved = detail.get("status") == "approved"
    text = (
        "Your request to become an organiser was approved: sign in again to create tournaments."
        if approved
        else "Your request to become an organiser was refused."
    )
    return [
        Notice(
            str(detail.get("tavla_id", "")), "organiser_decision", text, {"status": str(detail.get("status"))}
        )
    ]


def _notices(detail_type: str, detail: Mapping[str, Any]) -> list[Notice]:
    if detail_type == events.REGISTRATION_PROMOTED:
        return _promoted(detail)
    if detail_type == events.SUPER_FINAL_INVITED:
        return _invited(detail)
    if detail_type == events.MATCHES_CALLED:
        return _called(detail)
    if detail_type == events.NOSHOW_RULED:
        return _noshow_ruled(detail)
    if detail_type == events.ORGANISER_REQUESTED:
        return _organiser_requested(detail)
    if detail_type == events.ORGANISER_REQUEST_DECIDED:
        return _organiser_decided(detail)
    return []


def _sms_attributes() -> dict[str, Any]:
    """Transactional SMS, from the stage's sender id where one is set (and the country allows it)."""
    attributes = {"AWS.SNS.SMS.SMSType": {"DataType": "String", "StringValue": "Transactional"}}
    sender_id = os.environ.get(SMS_SENDER_ID_ENV)
    if sender_id:
        attributes["AWS.SNS.SMS.SenderID"] = {"DataType": "String", "StringValue": sender_id}
    return {"MessageAttributes": attributes}


def deliver(event: dict[str, Any]) -> bool:
    """Deliver one EventBridge event; True when it was for a player. Safe to deliver twice."""
    notices = _notices(event.get("detail-type", ""), event.get("detail") or {})
    if not notices:
        return False
    at = datetime.fromisoformat(str(event.get("time", "")).replace("Z", "+00:00"))
    detail = event.get("detail") or {}
    # the outbox's id: a repeat put on the bus again has another EventBridge id, but this one
    event_id = str(detail.get(outbox.ID_FIELD) or event.get("id"))
    contacts = player_store.get_contacts([n.tavla_id for n in notices])
    for n in notices:
        note_id = event_id if n.kind == "promoted" else f"{event_id}.{n.tavla_id}"
        if not notification_store.add(n.tavla_id, note_id, n.kind, n.text, at, dict(n.data)):
            continue  # given already: no second SMS or e-mail either
        mine = contacts.get(n.tavla_id)
        if mine is not None and mine.phone:
            _sns().publish(PhoneNumber=mine.phone, Message=f"Tavla: {n.text}", **_sms_attributes())
        sender = os.environ.get(EMAIL_FROM_ENV)
        if mine is not None and mine.email and mine.notify_by_email and sender:
            _ses().send_email(
                Source=sender,
                Destination={"ToAddresses": [mine.email]},
                Message={
                    "Subject": {"Data": f"Tavla: {n.kind.replace('_', ' ')}"},
                    "Body": {"Text": {"Data": n.text}},
                },
            )
    return True
