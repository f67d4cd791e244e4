"""Adjourned matches: staff adjourn and resume; the position's photo; the deadline to resume.

What becomes of the match is the day's model (`rules.adjournment`: `Adjourn`, `Resume`,
`Overdue`), applied through `progress.apply` (an adjourned match frees its table, a resumed one
queues for the next free one). The photo goes from the phone straight to the private statement
bucket, under its own prefix, by a presigned POST limited in size and type; it is read through
a link valid for a few minutes, given only to the tournament's staff and the match's two
players. The deadline is a one-time schedule of the no-show function (the scheduler function
of the day): a match still adjourned from then is flagged for the referee, who is told.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from tavla import events, schedules, statement_files
from tavla.caller import Caller
from tavla.errors import MatchNotFound, NotYourMatch
from tavla.models.adjournment import (
    AdjournmentView,
    AdjournRequest,
    PhotoLink,
    PhotoUpload,
    PhotoUploadRequest,
)
from tavla.models.day import MatchView
from tavla.rules import adjournment as rules
from tavla.rules import model, operations
from tavla.services import day, progress
from tavla.services.access import ORGANISER, REFEREE, require_staff, role_in
from tavla.store import matches as match_store
from tavla.store.matches import MatchSnapshot
from tavla.store.records import SYSTEM, FixtureRecord

TARGET = "noshow"  # the day's scheduler function
KIND = "adjournment"  # the schedule payload's kind
MAX_PHOTO_BYTES = 8 * 1024 * 1024  # a phone's photo, with room
LINK_SECONDS = 300
EXTENSIONS = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp"}


def _snapshot(match_id: str, sub: str) -> MatchSnapshot:
    parts = day.split_match_id(match_id)
    found = match_store.snapshot(*parts, sub, with_field=True) if parts else None
    if found is None or found.tournament is None or found.match is None:
        raise MatchNotFound(f"No match {match_id}.")
    return found


def adjourn(caller: Caller, match_id: str, body: AdjournRequest, now: datetime) -> MatchView:
    """Staff adjourn a match at its table; its deadline to resume is scheduled."""
    snap = _snapshot(match_id, caller.sub)
    assert snap.tournament is not None and snap.match is not None
    actor = require_staff(snap.tournament, caller)
    board = rules.Board(body.cube_value, body.cube_owner, body.clock_home, body.clock_away, body.photo)
    operation = rules.Adjourn(body.reason, board, body.resume_by, actor, now)
    settled = progress.apply(snap.tournament.id, snap.match.code, operation, now)
    _schedule_deadline(settled.match, now)
    return day.match_view(snap.tournament.id, settled.match, day.names(settled.field or snap.field))


def resume(caller: Caller, match_id: str, now: datetime) -> MatchView:
    """Staff resume an adjourned match: it is seated at the next free table."""
    snap = _snapshot(match_id, caller.sub)
    assert snap.tournament is not None and snap.match is not None
    actor = require_staff(snap.tournament, caller)
    settled = progress.apply(snap.tournament.id, snap.match.code, rules.Resume(actor, now), now)
    return day.match_view(snap.tournament.id, settled.match, day.names(settled.field or snap.field))


def schedule_name(match: FixtureRecord, adjourned_at: str) -> str:
    return schedules.schedule_name(TARGET, KIND, match.tournament_id, match.code, adjourned_at)


def _schedule_deadline(match: FixtureRecord, now: datetime) -> None:
    due = rules.resume_by(match.adjournment)
    if due is None or match.adjournment is None:
        return
    adjourned_at = str(match.adjournment["at"])
    payload = {
        "kind": KIND,
        "tournament_id": match.tournament_id,
        "code": match.code,
        "adjourned_at": adjourned_at,
        "due": due.isoformat(),
    }
    schedules.create_once(schedule_name(match, adjourned_at), max(due, now), TARGET, payload)


def enforce(payload: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """The deadline to resume passed: a match still adjourned goes to the referee (once)."""
    tournament_id, code = str(payload["tournament_id"]), str(payload["code"])
    ruled = model.DomainEvent(
        events.NOSHOW_RULED, {"tournament_id": tournament_id, "code": code, "outcome": rules.OVERDUE}
    )
    overdue = rules.Overdue(str(payload["adjourned_at"]), SYSTEM, now, (ruled,))
    match = match_store.snapshot(tournament_id, code).match
    if match is None:
        return {"overdue": False}
    try:
        change = model.Day.of_match(match).apply(code, overdue, now)
    except operations.Unchanged:
        return {"overdue": False}
    after = change.after(code) or match
    match_store.save(after, match.version, change.audit, [progress.outbox_event(e) for e in change.events])
    return {"overdue": True}


# --------------------------------------------------------------------------- the photo


def _allowed(snap: MatchSnapshot, caller: Caller) -> bool:
    """Staff of the tournament, or one of the match's two players."""
    assert snap.tournament is not None and snap.match is not None
    if caller.is_admin or role_in(snap.tournament, caller) in (REFEREE, ORGANISER):
        return True
    return snap.tavla_id is not None and snap.tavla_id in (snap.match.home, snap.match.away)


def upload(caller: Caller, match_id: str, body: PhotoUploadRequest, now: datetime) -> PhotoUpload:
    """A presigned POST for one photo of this match's position (staff): size and type limited."""
    snap = _snapshot(match_id, caller.sub)
    assert snap.tournament is not None and snap.match is not None
    require_staff(snap.tournament, caller)
    prefix = rules.photo_prefix(snap.tournament.id, snap.match.code)
    key = f"{prefix}{uuid.uuid4().hex}.{EXTENSIONS[body.content_type]}"
    form = statement_files.presigned_post(key, body.content_type, MAX_PHOTO_BYTES, LINK_SECONDS)
    return PhotoUpload(
        url=form["url"],
        fields={k: str(v) for k, v in form["fields"].items()},
        key=key,
        max_bytes=MAX_PHOTO_BYTES,
        expires_at=now + timedelta(seconds=LINK_SECONDS),
    )


def photo(caller: Caller, match_id: str, now: datetime) -> PhotoLink:
    """A short-lived link to the last adjournment's photo: staff and the two players only."""
    snap = _snapshot(match_id, caller.sub)
    assert snap.match is not None
    if not _allowed(snap, caller):
        raise NotYourMatch("The position's photo is shown to the referee and the two players only.")
    key = (snap.match.adjournment or {}).get("photo")
    if not key:
        raise MatchNotFound("This match has no photo of an adjourned position.")
    url = statement_files.presigned_get(str(key), LINK_SECONDS)
    return PhotoLink(url=url, expires_at=now + timedelta(seconds=LINK_SECONDS))


def view(match: FixtureRecord) -> AdjournmentView | None:
    """The last adjournment as the match screen shows it (the reason stays in the audit trail)."""
    a = match.adjournment
    if not a:
        return None
    return AdjournmentView(
        adjourned_at=datetime.fromisoformat(str(a["at"])),
        resume_by=datetime.fromisoformat(str(a["resume_by"])),
        resumed_at=datetime.fromisoformat(str(a["resumed_at"])) if a.get("resumed_at") else None,
        table=a.get("table"),
        score=[int(x) for x in a.get("score", (0, 0))],
        cube_value=int(a.get("cube_value", 1)),
        cube_owner=a.get("cube_owner", "centre"),
        clock_home=a.get("clock_home"),
        clock_away=a.get("clock_away"),
        photo=bool(a.get("photo")),
        overdue=rules.OVERDUE in match.flags,
    )
