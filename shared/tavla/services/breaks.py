"""Breaks from the match screen (R7.7): started by a player or the referee, ended when the players
are back, an overrun charged by schedules on the profile's lateness ladder (R7.6).

What a break does to the match is the day's model (`rules.match_breaks`: `Start`, `Back`,
`Overrun`), applied through `progress.apply` (an overrun can decide the match). Starting a break
creates one schedule of the no-show function per step of the ladder after the break's end;
each step is a no-op for a break that is over (`Unchanged`), so nobody deletes them in a hurry:
a player's return deletes the ones still ahead.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from tavla import schedules
from tavla.caller import Caller
from tavla.errors import MatchNotFound, NotInMatch, NotYourMatch
from tavla.models.adjournment import BackRequest, BreakRequest, BreaksView
from tavla.models.day import MatchView
from tavla.rules import match_breaks as rules
from tavla.rules import operations
from tavla.rules.lateness import lateness_policy
from tavla.rules.operations import Side
from tavla.services import day, progress
from tavla.services.access import ORGANISER, REFEREE, player_actor, require_staff, role_in
from tavla.store import matches as match_store
from tavla.store.matches import MatchSnapshot
from tavla.store.records import SYSTEM, Actor, FixtureRecord, TournamentRecord

TARGET = "noshow"  # the day's scheduler function
KIND = "break"  # the schedule payload's kind


def _snapshot(match_id: str, sub: str) -> MatchSnapshot:
    parts = day.split_match_id(match_id)
    found = match_store.snapshot(*parts, sub, with_field=True) if parts else None
    if found is None or found.tournament is None or found.match is None:
        raise MatchNotFound(f"No match {match_id}.")
    return found


def _who(caller: Caller, snap: MatchSnapshot, named: str | None) -> tuple[Actor, Side, bool]:
    """The caller as the audit names them, the side they act for, and whether they are staff."""
    assert snap.tournament is not None and snap.match is not None
    match = snap.match
    staff = caller.is_admin or role_in(snap.tournament, caller) in (REFEREE, ORGANISER)
    if staff:
        actor = require_staff(snap.tournament, caller)
        side = operations.side_of(match, named or snap.tavla_id)
        if side is None:
            raise NotInMatch(f"{named or 'You'}: not a player of this match.")
        return actor, side, True
    side = operations.side_of(match, snap.tavla_id)
    if side is None or named not in (None, snap.tavla_id):
        raise NotYourMatch("A player takes a break, or comes back from one, for themself on their own match.")
    assert snap.tavla_id is not None
    return player_actor(caller, snap.tavla_id), side, False


def start(caller: Caller, match_id: str, body: BreakRequest, now: datetime) -> MatchView:
    """A break starts now (between games, within the allowance); its overrun steps are scheduled."""
    snap = _snapshot(match_id, caller.sub)
    assert snap.tournament is not None and snap.match is not None
    actor, side, staff = _who(caller, snap, body.tavla_id)
    if body.both and not staff:
        raise NotYourMatch("The referee joins both players' breaks; a player takes their own.")
    sides: tuple[Side, ...] = ("home", "away") if body.both else (side,)
    from tavla.rules.breaks import break_policy  # builds the profiles' policies when loaded

    policy = break_policy(snap.tournament.play.rule_profile)
    operation = rules.Start(sides, body.count, policy, actor, now)
    settled = progress.apply(snap.tournament.id, snap.match.code, operation, now)
    brk = rules.running(settled.match)
    if brk is not None:
        _schedule(snap.tournament, settled.match, brk, now)
    return day.match_view(snap.tournament.id, settled.match, day.names(settled.field or snap.field))


def back(caller: Caller, match_id: str, body: BackRequest, now: datetime) -> MatchView:
    """A player is back from the break (late: the ladder's points); the steps ahead are deleted."""
    snap = _snapshot(match_id, caller.sub)
    tournament, match = snap.tournament, snap.match
    assert tournament is not None and match is not None
    actor, side, _ = _who(caller, snap, body.tavla_id)
    brk = rules.running(match)
    operation = rules.Back(side, _lateness(tournament), tournament.play, actor, now)
    settled = progress.apply(tournament.id, match.code, operation, now)
    if brk is not None and rules.running(settled.match) is None:
        for due in rules.overrun_steps(_lateness(tournament), match, brk):
            if due > now:
                schedules.delete(_name(match, brk, due))
    return day.match_view(tournament.id, settled.match, day.names(settled.field or snap.field))


def _lateness(tournament: TournamentRecord) -> Any:
    return lateness_policy(tournament.play.rule_profile)


def _name(match: FixtureRecord, brk: Mapping[str, Any], due: datetime) -> str:
    return schedules.schedule_name(
        TARGET, KIND, match.tournament_id, match.code, brk["started_at"], due.strftime("%Y%m%dT%H%M%S")
    )


def _schedule(
    tournament: TournamentRecord, match: FixtureRecord, brk: Mapping[str, Any], now: datetime
) -> None:
    for due in rules.overrun_steps(_lateness(tournament), match, brk):
        payload = {
            "kind": KIND,
            "tournament_id": match.tournament_id,
            "code": match.code,
            "started_at": brk["started_at"],
            "due": due.isoformat(),
        }
        schedules.create_once(_name(match, brk, due), max(due, now), TARGET, payload)


def enforce(payload: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """A step of a break's overrun ladder fired: whoever is still away owes its points."""
    tournament_id, code = str(payload["tournament_id"]), str(payload["code"])
    due = datetime.fromisoformat(str(payload["due"]))
    snap = match_store.snapshot(tournament_id, code)
    if snap.tournament is None or snap.match is None:
        return {"charged": False}
    tournament = snap.tournament
    operation = rules.Overrun(
        str(payload["started_at"]), _lateness(tournament), tournament.play, SYSTEM, max(now, due)
    )
    try:
        progress.apply(tournament_id, code, operation, now)
    except operations.Unchanged:
        return {"charged": False}
    return {"charged": True}


def view(tournament: TournamentRecord, match: FixtureRecord) -> BreaksView | None:
    """What both players see: the breaks left, who is away and until when, overrun points."""
    if match.home is None or match.away is None:
        return None
    from tavla.rules.breaks import break_policy

    policy = break_policy(tournament.play.rule_profile)
    brk = rules.running(match)
    points: dict[Side, int] = {}
    for b in match.breaks:
        for side, n in b.get("points", {}).items():
            if side in ("home", "away"):
                points[side] = points.get(side, 0) + int(n)
    return BreaksView(
        left=rules.left(policy, match),
        running=[s for s in brk["sides"] if s not in brk.get("back", {})] if brk else [],
        ends_at=rules.ends_at(brk) if brk else None,
        overrun_points=points,
        allowed_now=rules.allowed_now(match),
    )
