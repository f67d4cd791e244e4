"""At the table (R6.1-R6.3, R7.6): the referee (or the player) marks who is there; staff call.

Marking a player present settles their lateness once and for all (the penalty points of
their arrival, hbf/cnb; none within the deadline), excusing them clears it: either way the
no-show deadline no longer touches them. Once nobody is awaited, the match's own pending
deadline schedule is deleted. A player may mark only themself, and only in time: after the
deadline only the referee can (their ruling wins, R6.3). Staff call or re-call a match to its
table now: the clock starts again, and `MatchesCalled` brings the notices and deadlines.
What each does to the match is the day's model (`rules.operations`: `Presence`, `Recall`, `Seat`).
"""

from __future__ import annotations

from datetime import datetime

from tavla.caller import Caller
from tavla.errors import (
    MatchNotFound,
    NoFreeTable,
    NotInMatch,
    NotStaff,
    NotYourMatch,
)
from tavla.models.day import MatchView, PresenceRequest
from tavla.rules import model, operations
from tavla.rules.operations import Side
from tavla.rules.states import State
from tavla.services import day, noshow, progress
from tavla.services.access import ORGANISER, REFEREE, player_actor, require_staff, role_in
from tavla.store import matches as match_store
from tavla.store.matches import MatchSnapshot
from tavla.store.records import Actor


def _snapshot(match_id: str, sub: str) -> MatchSnapshot:
    parts = day.split_match_id(match_id)
    found = match_store.snapshot(*parts, sub, with_field=True) if parts else None
    if found is None or found.tournament is None or found.match is None:
        raise MatchNotFound(f"No match {match_id}.")
    return found


def mark(caller: Caller, match_id: str, body: PresenceRequest, now: datetime) -> MatchView:
    """Mark a player of the match present or excused (staff; a player only themself, present)."""
    snap = _snapshot(match_id, caller.sub)
    tournament, match = snap.tournament, snap.match
    assert tournament is not None and match is not None
    staff = role_in(tournament, caller) in (REFEREE, ORGANISER) or caller.is_admin
    sides: tuple[tuple[str | None, Side], ...] = ((match.home, "home"), (match.away, "away"))
    players = {p: s for p, s in sides if p is not None}
    if staff:
        actor = require_staff(tournament, caller)
        who = body.tavla_id or snap.tavla_id
        if who not in players:
            raise NotInMatch(f"{body.tavla_id or 'You'}: not a player of match {match_id}.")
    else:
        if body.excused:
            raise NotStaff("Only this tournament's referees and organisers may excuse a player.")
        who = snap.tavla_id
        if who is None or who not in players or body.tavla_id not in (None, who):
            raise NotYourMatch("A player marks only themself present, on their own match.")
        actor = player_actor(caller, who)
    side = players[who]
    presence = operations.Presence(side, bool(body.present), staff, noshow.policy_of(tournament), actor, now)
    try:
        change = model.Day.of_match(match).apply(match.code, presence, now)
    except operations.Unchanged:  # said already: no change
        return day.match_view(tournament.id, match, day.names(snap.field))
    saved = match_store.save(change.after(match.code) or match, match.version, change.audit)
    if not noshow.absent_sides(saved):
        noshow.cancel_if_alone(tournament, saved, now)
    return day.match_view(tournament.id, saved, day.names(snap.field))


def call(caller: Caller, match_id: str, now: datetime) -> MatchView:
    """Call (a queued match, to a free table) or re-call (a called one) now: the clock restarts."""
    snap = _snapshot(match_id, caller.sub)
    tournament, match = snap.tournament, snap.match
    assert tournament is not None and match is not None
    actor = require_staff(tournament, caller)
    if match.state == State.QUEUED:
        return _seat(actor, snap, now)
    called = (model.called_event(tournament.id, [match.code], now),)
    change = model.Day.of_match(match).apply(match.code, operations.Recall(actor, now, called), now)
    if match.called_at is not None:
        noshow.cancel_if_alone(tournament, match, now)  # the old clock's step, if the match's own
    events = [progress.outbox_event(e) for e in change.events]
    saved = match_store.save(change.after(match.code) or match, match.version, change.audit, events)
    return day.match_view(tournament.id, saved, day.names(snap.field))


def _seat(actor: Actor, snap: MatchSnapshot, now: datetime) -> MatchView:
    """A queued match takes a free table if there is one (settle seats what it can)."""
    assert snap.tournament is not None and snap.match is not None
    tournament_id = snap.tournament.id
    settled = progress.apply(tournament_id, snap.match.code, operations.Seat(actor, now), now)
    if settled.match.state != State.CALLED:
        raise NoFreeTable("Every table is taken: the match is called as soon as one frees up.")
    return day.match_view(tournament_id, settled.match, day.names(snap.field))
