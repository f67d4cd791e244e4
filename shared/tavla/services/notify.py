"""Domain events become what a player reads, in the player's language (`tavla.notices`): the
in-app feed, Web Push to each browser the player gave (`store.push`), an SMS only where the
player opted in (`sms_opt_in`), has a phone and no browser took the notice, and an e-mail
(SES) where the player chose e-mail (`notify_by_email`). Services that tell players of a
decision of their own (appeals, payment reminders) call `tell` the same way.

Safe to deliver twice: a notice's id is the event's id (the outbox's `event_id`, the same on
every delivery) and the player's; a notice already given is neither stored nor sent again.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any

from tavla import aws, events, notices, webpush
from tavla.frozen import Frozen
from tavla.rules import push as push_rules
from tavla.rules.states import State
from tavla.store import matches as match_store
from tavla.store import notifications as notification_store
from tavla.store import outbox
from tavla.store import players as player_store
from tavla.store import push as push_store

if TYPE_CHECKING:
    from mypy_boto3_ses import SESClient
    from mypy_boto3_sns import SNSClient

    from tavla.store.records import ContactsRecord, FieldRecord, FixtureRecord

EMAIL_FROM_ENV = "NOTIFY_EMAIL_FROM"  # SES verified sender; without it no e-mail is sent
SMS_SENDER_ID_ENV = "NOTIFY_SMS_SENDER_ID"  # the stage's alphanumeric sender id
PUSH_THREADS = 16  # push services answer in ~0.1 s each: a round's calls go out together


@cache
def _sns() -> SNSClient:
    return aws.session().client("sns")


@cache
def _ses() -> SESClient:
    return aws.session().client("ses")


@dataclass(frozen=True, eq=False, repr=False)
class Notice(Frozen):
    """A notice before it is put in words: its kind, the catalogue's fields, and the rule
    profile whose federation's language is the default."""

    tavla_id: str
    kind: str
    fields: Mapping[str, Any]
    data: Mapping[str, Any]
    rule_profile: str | None = None
    wording: str | None = None  # the catalogue's entry when it is not the kind's own
    time_zone: str | None = None  # the venue's, for the moments a notice names

    def text(self, chosen_language: str | None) -> str:
        language = notices.language_of(chosen_language, self.rule_profile)
        kind = self.wording or self.kind
        return notices.render(kind, language, self.fields, self.time_zone, self.rule_profile)


def _promoted(detail: Mapping[str, Any]) -> list[Notice]:
    tavla_id = detail.get("tavla_id")
    if not tavla_id:
        return []
    fields = {"tournament": detail.get("tournament_name") or detail.get("tournament_id", "")}
    data = {"tournament_id": detail.get("tournament_id", "")}
    return [Notice(str(tavla_id), notices.PROMOTED, fields, data, detail.get("rule_profile"))]


def _name(field: FieldRecord | None, tavla_id: str) -> str:
    for entrant in field.entrants if field else ():
        if entrant.get("player_id") == tavla_id and entrant.get("name"):
            return str(entrant["name"])
    return tavla_id


def _call_notice(
    tournament_id: str, name: str, field: FieldRecord | None, match: FixtureRecord, profile: str
) -> list[Notice]:
    found = []
    for me, opponent in ((match.home, match.away), (match.away, match.home)):
        if me is None or opponent is None:
            continue
        fields = {
            "tournament": name,
            "table": match.table,
            "match": match.label,
            "opponent": _name(field, opponent),
        }
        data = {
            "tournament_id": tournament_id,
            "match_id": f"{tournament_id}.{match.code}",
            "table": match.table,
            "opponent": opponent,
        }
        found.append(Notice(me, notices.TABLE_CALL, fields, data, profile))
    return found


def _called(detail: Mapping[str, Any]) -> list[Notice]:
    """R6.2: each player of a match put on a table hears table and opponent."""
    tournament_id = str(detail.get("tournament_id", ""))
    read = match_store.several(tournament_id, [str(c) for c in detail.get("codes") or ()])
    if read.tournament is None:
        return []
    name = read.tournament.page.name
    profile = read.tournament.play.rule_profile
    at = str(detail.get("at", ""))
    found: list[Notice] = []
    for match in read.matches:
        if match.state == State.CALLED and match.table is not None and match.called_at == at:
            found.extend(_call_notice(tournament_id, name, read.field, match, profile))
    return found


def _noshow_ruled(detail: Mapping[str, Any]) -> list[Notice]:
    """R6.3: the tournament's staff (those with a player profile) hear of a no-show forfeit or of
    a match nobody came to, with the match and its table."""
    tournament_id = str(detail.get("tournament_id", ""))
    code = str(detail.get("code", ""))
    read = match_store.several(tournament_id, [code])
    if read.tournament is None or not read.matches:
        return []
    match = read.matches[0]
    fields = {
        "tournament": read.tournament.page.name,
        "table": match.table,
        "match": match.label,
        "absent": _name(read.field, str(detail.get("tavla_id", ""))),
    }
    wordings = {"forfeited": notices.NOSHOW, "adjournment_overdue": notices.ADJOURNMENT_OVERDUE}
    wording = wordings.get(str(detail.get("outcome")), notices.NOSHOW_NOBODY)
    data = {"tournament_id": tournament_id, "match_id": f"{tournament_id}.{code}", "table": match.table}
    profile = read.tournament.play.rule_profile
    staff = dict.fromkeys(m.tavla_id for m in read.tournament.staff.values() if m.tavla_id)
    # one kind in the feed for both rulings, each in its own words
    return [Notice(str(t), notices.NOSHOW, fields, data, profile, wording) for t in staff]


def _season_name(season_id: str) -> str:
    """The season as people call it ("Greek Tour 2026"), never its id, in a notice."""
    from tavla.store import season as season_store

    season = season_store.get(season_id)
    return season.name if season else season_id


def _invited(detail: Mapping[str, Any]) -> list[Notice]:
    """R10.4, R5.7: each invited player hears their season place and starting lives."""
    season_id = str(detail.get("season_id", ""))
    invited = [i for i in detail.get("invited") or () if i.get("tavla_id")]
    season = _season_name(season_id) if invited else ""
    return [
        Notice(
            str(i["tavla_id"]),
            notices.INVITED,
            {
                "season": season,
                "place": i["place"],
                "lives": i["lives"],
                "reply_by": str(i.get("reply_by") or ""),
            },
            {
                "season_id": season_id,
                "place": str(i["place"]),
                "lives": str(i["lives"]),
                **({"reply_by": str(i["reply_by"])} if i.get("reply_by") else {}),
            },
            wording=notices.INVITED_BY if i.get("reply_by") else None,
        )
        for i in invited
    ]


def _seat_passed(detail: Mapping[str, Any]) -> list[Notice]:
    """R10.4: a player whose deadline passed unanswered hears that the seat went down the list
    (one who declined knows)."""
    if detail.get("reason") != "expired" or not detail.get("tavla_id"):
        return []
    season_id = str(detail.get("season_id", ""))
    fields = {"season": _season_name(season_id)}
    return [Notice(str(detail["tavla_id"]), notices.LAPSED, fields, {"season_id": season_id})]


def _organiser_requested(detail: Mapping[str, Any]) -> list[Notice]:
    """R1.3: every admin with a player profile hears of a request to organise."""
    from tavla.store import roles as role_store

    who, club = str(detail.get("tavla_id", "")), str(detail.get("club", ""))
    admins = dict.fromkeys(g.tavla_id for g in role_store.holders("admins") if g.tavla_id)
    fields = {"who": who, "club": club}
    return [Notice(str(a), notices.ORGANISER_REQUEST, fields, {"tavla_id": who}) for a in admins]


def _organiser_decided(detail: Mapping[str, Any]) -> list[Notice]:
    """R1.3: the player hears the admins' answer (an approval takes effect at the next sign-in)."""
    status = str(detail.get("status"))
    wording = notices.ORGANISER_APPROVED if status == "approved" else None
    tavla_id = str(detail.get("tavla_id", ""))
    return [Notice(tavla_id, notices.ORGANISER_DECISION, {}, {"status": status}, wording=wording)]


def _minute(moment: object) -> str:
    """A time as the organiser set it, to the minute (venue time: its offset is the venue's)."""
    return str(moment or "")[:16].replace("T", " ")


def _entrants_told(detail: Mapping[str, Any], kind: str) -> list[Notice]:
    """Every entrant of a cancelled or postponed tournament (main list, waiting list, awaiting
    approval) hears it, each in their own language."""
    from tavla.store import registrations as registration_store
    from tavla.store import tournaments as tournament_store
    from tavla.store.registrations import PENDING, REGISTERED, WAITLISTED

    tournament_id = str(detail.get("tournament_id", ""))
    tournament = tournament_store.get(tournament_id)
    entrants = [
        r.tavla_id
        for r in registration_store.all_entries(tournament_id)
        if r.status in (REGISTERED, WAITLISTED, PENDING)
    ]
    fields = {
        "tournament": tournament.page.name,
        "reason": detail.get("reason") or "—",
        "starts": _minute(detail.get("starts_at")),
        "closes": _minute(detail.get("registration_closes_at")),
    }
    data = {"tournament_id": tournament_id}
    return [Notice(t, kind, fields, data, tournament.play.rule_profile) for t in dict.fromkeys(entrants)]


def _notices(detail_type: str, detail: Mapping[str, Any]) -> list[Notice]:
    if detail_type == events.REGISTRATION_PROMOTED:
        return _promoted(detail)
    if detail_type == events.SUPER_FINAL_INVITED:
        return _invited(detail)
    if detail_type == events.SUPER_FINAL_SEAT_PASSED:
        return _seat_passed(detail)
    if detail_type == events.MATCHES_CALLED:
        return _called(detail)
    if detail_type == events.NOSHOW_RULED:
        return _noshow_ruled(detail)
    if detail_type == events.ORGANISER_REQUESTED:
        return _organiser_requested(detail)
    if detail_type == events.ORGANISER_REQUEST_DECIDED:
        return _organiser_decided(detail)
    if detail_type == events.TOURNAMENT_CANCELLED:
        return _entrants_told(detail, notices.CANCELLED)
    if detail_type == events.TOURNAMENT_POSTPONED:
        return _entrants_told(detail, notices.POSTPONED)
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
    found = _notices(event.get("detail-type", ""), event.get("detail") or {})
    if not found:
        return False
    at = datetime.fromisoformat(str(event.get("time", "")).replace("Z", "+00:00"))
    detail = event.get("detail") or {}
    # the outbox's id: a repeat put on the bus again has another EventBridge id, but this one
    tell(found, str(detail.get(outbox.ID_FIELD) or event.get("id")), at)
    return True


def _page(n: Notice) -> str:
    """Where a tap on the notice opens the site: the player's match, the tournament, the feed."""
    tournament_id = n.data.get("tournament_id")
    if tournament_id and n.kind in (notices.TABLE_CALL, notices.APPEAL_DECIDED, notices.NOSHOW):
        return f"/#/t/{tournament_id}/match"
    return f"/#/t/{tournament_id}" if tournament_id else "/#/notifications"


@dataclass(frozen=True, eq=False, repr=False)
class _Given(Frozen):
    """A notice stored in the feed now (not before): what still goes out by push, SMS, e-mail."""

    notice: Notice
    note_id: str
    text: str
    contacts: ContactsRecord | None


def tell(found: Sequence[Notice], event_id: str, at: datetime) -> int:
    """Each notice in its player's language: the feed, then every browser of theirs by push, an
    SMS only where they chose it and no browser took the notice, an e-mail where they chose it.
    `event_id` names the occasion: a notice given already for it is not sent again by any way.
    Returns how many were given now."""
    contacts = player_store.get_contacts([n.tavla_id for n in found])
    given: list[_Given] = []
    for n in found:
        note_id = event_id if n.kind == notices.PROMOTED else f"{event_id}.{n.tavla_id}"
        mine = contacts.get(n.tavla_id)
        text = n.text(mine.language if mine is not None else None)
        if notification_store.add(n.tavla_id, note_id, n.kind, text, at, dict(n.data)):
            given.append(_Given(n, note_id, text, mine))
    pushed = _push(given)
    for g in given:
        mine = g.contacts
        if mine is None:
            continue
        if push_rules.wants_sms(bool(mine.sms_opt_in), mine.phone, g.note_id in pushed):
            _sns().publish(PhoneNumber=str(mine.phone), Message=f"Tavla: {g.text}", **_sms_attributes())
        sender = os.environ.get(EMAIL_FROM_ENV)
        if mine.email and mine.notify_by_email and sender:
            _ses().send_email(
                Source=sender,
                Destination={"ToAddresses": [mine.email]},
                Message={
                    "Subject": {"Data": f"Tavla: {g.notice.kind.replace('_', ' ')}"},
                    "Body": {"Text": {"Data": g.text}},
                },
            )
    return len(given)


def _push(given: Sequence[_Given]) -> set[str]:
    """Every browser of each player told, several at once (a round's calls are many players);
    a subscription its push service has forgotten (404/410) is deleted. Returns the note ids
    at least one browser took."""
    listed = {g.notice.tavla_id: sorted(g.contacts.push_subs or ()) for g in given if g.contacts is not None}
    if not any(listed.values()):
        return set()
    browsers = push_store.of_players(listed)
    jobs = [
        (g.note_id, sub, {"title": "Tavla", "body": g.text, "url": _page(g.notice), "tag": g.note_id})
        for g in given
        for sub in browsers.get(g.notice.tavla_id, ())
    ]
    if not jobs:
        return set()
    key = webpush.signing_key()
    with ThreadPoolExecutor(max_workers=min(PUSH_THREADS, len(jobs))) as pool:
        answers = list(pool.map(lambda job: webpush.send(job[1], job[2], key), jobs))
    for (_, sub, _), sent in zip(jobs, answers, strict=True):
        if sent.gone:
            push_store.forget(sub)
    return {note_id for (note_id, _, _), sent in zip(jobs, answers, strict=True) if sent.delivered}
