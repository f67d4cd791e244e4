"""Appeals (R9): a player appeals a score, a pairing or a referee's decision; it is decided.

- Lodged by a player of the match within the profile's window (R9.1): `platform` until 15
  minutes after the match ended; `hbf` (6.3) and `cnb` (5.2) also only while the result can
  still be corrected, i.e. before a match that depends on it has started (R9.4). An appeal
  on a match still being played is within the window (R9.2: play stops).
- While open, the match's `appeal` holds its id: the result is frozen (confirming it is
  refused) and the matches that depend on it are not called (`progress.apply`, R9.2). One
  open appeal per match: lodging writes the match on the version it was read at.
- Decided with reasoning (R9.3). `platform`: by the referee (the tournament's staff), final.
  `hbf`: a committee of three impartial players overturns only unanimously; `cnb`: three or
  five, simple majority (R9.5; `rules.profiles.decide_committee_appeal`). Staff record the
  members and their votes; no player of the match and no staff member of the tournament sits
  on it. "upheld" means the appellant is right (the referee's decision is overturned).
- A decision ends the grievance (R9.3, R9.5; `rules.grievances`): the match records who has
  been heard on which result (`appeals_heard`), written with the decision; a later appeal by
  the same side on the same result is refused (`AppealExhausted`). Both checks run inside
  `progress.apply`, whose match write is conditioned on the version read, so of two
  concurrent appeals (or an appeal racing a decision) at most one passes.
- A decision that sets a new result goes through `progress.apply`: the bracket re-advances
  from it (unless a dependent match has started, R9.4). Both players are told in-app.

The appeal item is written in the same transaction as the match it freezes or frees. What may
be lodged and what a decision does to the match is the day's model (`rules.operations`: `Lodge`,
`Decide`); this module reads, authorises, checks the committee and saves the appeal with the match.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from tavla import ids, notices
from tavla.caller import Caller
from tavla.errors import (
    AppealDecided,
    AppealNotFound,
    CommitteeNotImpartial,
    InvalidCommittee,
    InvalidDecision,
    MatchNotFound,
    NotYourMatch,
)
from tavla.models.appeals import AppealBody, AppealView, DecisionBody, NewResult
from tavla.rules import operations
from tavla.rules.results import Result
from tavla.services import day, progress
from tavla.services.access import player_actor, require_staff, role_in
from tavla.store import appeals as appeal_store
from tavla.store import matches as match_store
from tavla.store.audit import entry as audit_entry
from tavla.store.records import AppealRecord, FixtureRecord, TournamentRecord

if TYPE_CHECKING:
    from tavla.rules.profiles import RuleProfile

APPEAL_MARK = "A"

_system_random = random.SystemRandom()


def appeal_id(tournament_id: str, rng: random.Random) -> str:
    """An appeal's public id: its tournament's id first, so one read finds it."""
    return f"{tournament_id}{day.MATCH_ID_SEPARATOR}{APPEAL_MARK}{ids.opaque(rng)}"


def _tournament_of(value: str) -> str:
    tournament_id, _, rest = value.partition(day.MATCH_ID_SEPARATOR)
    if not tournament_id or not rest:
        raise AppealNotFound(f"No appeal {value}.")
    return tournament_id


def profile_of(tournament: TournamentRecord) -> RuleProfile:
    from tavla.rules import profiles  # ~60 ms: only the requests that need the rules load them

    return profiles.get_profile(tournament.play.rule_profile)


def window_of(profile: RuleProfile) -> operations.Window:
    """The profile's appeal window (R9.1)."""
    return operations.Window(profile.appeal_window, profile.appeal.above_referee == "committee")


def lodge(
    caller: Caller, match_id: str, body: AppealBody, now: datetime, rng: random.Random = _system_random
) -> AppealView:
    """A player of the match appeals (R9.1); the match is frozen until the decision (R9.2)."""
    split = day.split_match_id(match_id)
    if split is None:
        raise MatchNotFound(f"No match {match_id}.")
    tournament_id, code = split
    seen = match_store.snapshot(tournament_id, code, caller.sub)
    if seen.tournament is None or seen.match is None:
        raise MatchNotFound(f"No match {match_id}.")
    me, match = seen.tavla_id, seen.match
    if me is None or me not in (match.home, match.away):
        raise NotYourMatch("Only the players of this match may appeal it.")
    profile = profile_of(seen.tournament)
    record = AppealRecord(
        id=appeal_id(tournament_id, rng),
        tournament_id=tournament_id,
        code=code,
        kind=body.kind,
        statement=body.statement,
        appellant=me,
        opponent=match.away if me == match.home else match.home,
        lodged_at=now.isoformat(),
        result_before=match.result.as_json() if match.result else None,
    )

    actor = player_actor(caller, me)
    audits = [
        audit_entry(
            actor,
            "appeal_lodged",
            now,
            appeal_id=record.id,
            match_id=match_id,
            kind=body.kind,
            statement=body.statement,
            appellant=me,
        )
    ]
    hold = operations.Lodge(record.id, me, window_of(profile), now, tuple(audits))
    lodged = appeal_store.lodged(record)
    # the whole day: the window looks at later matches (R9.4), and what the appeal holds is all of it
    progress.apply(tournament_id, code, hold, now, extra=lodged, whole_day=True)
    return view_of(record)


def _committee(
    profile: RuleProfile, body: DecisionBody, match: FixtureRecord, tournament: TournamentRecord
) -> tuple[str, str, tuple[str, ...], tuple[bool, ...]]:
    """(route, outcome, members, votes) by the profile's route above the referee (R9.5)."""
    if profile.appeal.above_referee == "none":
        if body.committee is not None:
            raise InvalidCommittee("Under the platform's rules the referee decides: there is no committee.")
        if body.outcome is None:
            raise InvalidDecision("Say whether the appeal is upheld or dismissed (outcome).")
        return "referee", body.outcome, (), ()
    committee = body.committee
    if committee is None:
        sizes = " or ".join(str(n) for n in profile.appeal.committee_sizes)
        raise InvalidCommittee(f"Under {profile.name} rules a committee of {sizes} players decides (R9.5).")
    members, votes = tuple(committee.members), tuple(committee.votes)
    if len(set(members)) != len(members) or len(votes) != len(members):
        raise InvalidCommittee("Name each member once, with one vote per member.")
    parties = {match.home, match.away}
    staff = {m.tavla_id for m in tournament.staff.values() if m.tavla_id}
    partial = [m for m in members if m in parties or m in staff]
    if partial:
        raise CommitteeNotImpartial(
            f"{', '.join(partial)} may not sit on the committee: no party to the match and no one "
            "running the tournament (R9.5)."
        )
    from tavla.rules import profiles

    try:
        decided = profiles.decide_committee_appeal(profile.appeal, votes)
    except profiles.InvalidCommittee as wrong:
        raise InvalidCommittee(str(wrong)) from wrong
    outcome = "upheld" if decided.overturned else "dismissed"
    if body.outcome is not None and body.outcome != outcome:
        raise InvalidDecision(f"The votes decide: {decided.reason}.")
    return "committee", outcome, members, votes


def new_result(match: FixtureRecord, given: NewResult) -> Result:
    """The result a decision sets (how: decision): the points given, or the winner by length-0."""
    if match.home is None or match.away is None:
        raise InvalidDecision("The match has no players yet.")
    if given.home_points is None or given.away_points is None:
        if given.winner not in (match.home, match.away):
            raise InvalidDecision(f"{given.winner} does not play this match.")
        return Result.awarded(match.home, match.away, match.won_at, given.winner)
    from tavla.rules.match import ImpossibleScore, check_final_score  # heavy: loaded when needed
    from tavla.rules.series import SeriesError, check_series_score

    home, away = given.home_points, given.away_points
    try:  # the official form, as a confirmed score (R7.5): the winner has the length, the other less
        if match.best_of > 1:
            check_series_score(match.best_of, (home, away))
        else:
            check_final_score(match.length, home, away)
    except (ImpossibleScore, SeriesError) as impossible:
        raise InvalidDecision(str(impossible)) from None
    result = Result.by_score(match.home, match.away, (home, away), "decision")
    if given.winner is not None and given.winner != result.winner:
        raise InvalidDecision("The winner given is not the one the points give.")
    return result


def decide(caller: Caller, appeal_id: str, body: DecisionBody, now: datetime) -> AppealView:
    """Record the decision and its reasoning (R9.3, R9.5); a new result moves the day on (R9.4)."""
    tournament_id = _tournament_of(appeal_id)
    appeal = appeal_store.get(tournament_id, appeal_id)
    if appeal is None:
        raise AppealNotFound(f"No appeal {appeal_id}.")
    seen = match_store.snapshot(tournament_id, appeal.code)
    if seen.tournament is None or seen.match is None:
        raise AppealNotFound(f"No appeal {appeal_id}.")
    actor = require_staff(seen.tournament, caller)
    if appeal.status != "open":
        raise AppealDecided("This appeal has been decided: the decision is final (R9.3).")
    profile = profile_of(seen.tournament)
    route, outcome, members, votes = _committee(profile, body, seen.match, seen.tournament)
    result = new_result(seen.match, body.new_result) if outcome == "upheld" and body.new_result else None
    decided = replace(
        appeal,
        status="decided",
        outcome=outcome,
        reasoning=body.reasoning,
        route=route,
        members=members,
        votes=votes,
        new_result=result.as_json() if result else None,
        decided_at=now.isoformat(),
        decided_by=actor.tavla_id or actor.role,
    )

    match_id = day.match_id(tournament_id, appeal.code)
    audits = [
        audit_entry(
            actor,
            "appeal_decided",
            now,
            appeal_id=appeal.id,
            match_id=match_id,
            outcome=outcome,
            reasoning=body.reasoning,
            route=route,
            members=list(members) or None,
            votes=list(votes) or None,
            result_before=seen.match.result.as_json() if seen.match.result else None,
            new_result=result.as_json() if result else None,
        )
    ]
    decision = operations.Decide(appeal.id, appeal.appellant, result, now, tuple(audits))
    progress.apply(
        tournament_id,
        appeal.code,
        decision,
        now,
        extra=appeal_store.decided(decided),
        whole_day=True,  # R9.4 looks at every later match; the matches it held are freed
    )
    _tell_players(decided, match_id, now, seen.tournament.play.rule_profile)
    return view_of(decided)


def _tell_players(appeal: AppealRecord, match_id: str, now: datetime, rule_profile: str) -> None:
    """R9.3: the decision and its reasoning go to both players, each in their own language
    (else the tournament's federation's), by the feed and push as every notice goes."""
    from tavla.services import notify

    fields = {"match": match_id, "outcome": appeal.outcome or "", "reasoning": appeal.reasoning or ""}
    data = {
        "appeal_id": appeal.id,
        "match_id": match_id,
        "outcome": appeal.outcome or "",
        "tournament_id": appeal.tournament_id,
    }
    told = [
        notify.Notice(player, notices.APPEAL_DECIDED, fields, data, rule_profile)
        for player in (appeal.appellant, appeal.opponent)
        if player
    ]
    notify.tell(told, f"{appeal.id}.decided", now)


def get(caller: Caller, appeal_id: str) -> AppealView:
    """An appeal as its appellant, the opponent and the tournament's staff see it."""
    tournament_id = _tournament_of(appeal_id)
    appeal = appeal_store.get(tournament_id, appeal_id)
    if appeal is None:
        raise AppealNotFound(f"No appeal {appeal_id}.")
    seen = match_store.snapshot(tournament_id, appeal.code, caller.sub)
    if seen.tournament is None:
        raise AppealNotFound(f"No appeal {appeal_id}.")
    party = seen.tavla_id is not None and seen.tavla_id in (appeal.appellant, appeal.opponent)
    if not (party or role_in(seen.tournament, caller) or caller.is_admin):
        raise NotYourMatch("Only the players of the match and the tournament's staff may read this appeal.")
    return view_of(appeal)


def view_of(record: AppealRecord) -> AppealView:
    return AppealView(
        id=record.id,
        tournament_id=record.tournament_id,
        match_id=day.match_id(record.tournament_id, record.code),
        kind=record.kind,
        statement=record.statement,
        appellant=record.appellant,
        opponent=record.opponent,
        lodged_at=datetime.fromisoformat(record.lodged_at),
        status=record.status,
        result_before=dict(record.result_before) if record.result_before else None,
        outcome=record.outcome,
        reasoning=record.reasoning,
        route=record.route,
        members=list(record.members),
        votes=list(record.votes),
        new_result=dict(record.new_result) if record.new_result else None,
        decided_at=datetime.fromisoformat(record.decided_at) if record.decided_at else None,
    )
