"""No-show deadlines (R6.1-R6.3, R7.6): a schedule at each lateness step of the rule profile.

When matches are called (`MatchesCalled`), `schedule_calls` creates one EventBridge Scheduler
schedule per lateness step of those matches, shared by the matches called together (a match
called later from the table queue gets its own). `platform`: one step, the call + 10 minutes,
when an absent player forfeits. `hbf` and `cnb`: the penalty-point steps (hbf +15, +20, ...;
cnb +5, +10, ...) up to the one where the points exceed half the match length and the absent
player forfeits (through `progress.apply`, so the bracket moves on). All steps are scheduled
at the call rather than each by the one before: the `noshow` function would otherwise have to
know its own ARN, which CloudFormation cannot give a function (a circular dependency).

What a step does to a match is the day's model (`rules.operations`: `Late`, `NoShow`).
`enforce` is idempotent: the verdict is a function of the call time and the step's moment,
points are stored as absolute numbers, a forfeit happens only to a match still `called` with
that player still absent (re-checked inside the settling transaction). A step that fires
after the referee decided (present, excused, playing, official, re-called...) changes nothing
for that match. Both players absent: flagged `both_absent` for the referee, nobody forfeited.
Either way the tournament's staff are told (`NoShowRuled` on the bus, once: a forfeit happens
once and a flag is raised once).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tavla import events, observability, schedules
from tavla.errors import StaleMatch
from tavla.frozen import Frozen
from tavla.rules import model, operations
from tavla.rules.lateness import LatenessPolicy, LatenessVerdict, lateness_policy
from tavla.rules.operations import Side
from tavla.services import progress
from tavla.store import matches as match_store
from tavla.store.records import SYSTEM, FixtureRecord, TournamentRecord

if TYPE_CHECKING:
    pass

TARGET = "noshow"  # the registry function the schedules invoke
SIDES = operations.SIDES
BOTH_ABSENT = operations.BOTH_ABSENT
ATTEMPTS = 3
MAX_STEPS = 20  # a 25-point match under hbf/cnb forfeits at the 13th step


def policy_of(tournament: TournamentRecord) -> LatenessPolicy:
    """The tournament's rule profile's lateness policy (R6.1, R7.6)."""
    return lateness_policy(tournament.play.rule_profile)


absent_sides = operations.absent_sides
awaited = operations.awaited
verdict = operations.verdict


def schedule_name(tournament_id: str, due: datetime, codes: Iterable[str]) -> str:
    """`noshow-<tournament>-<due>-<codes>`, hashed to Scheduler's 64 characters when longer."""
    return schedules.schedule_name(TARGET, tournament_id, due.strftime("%Y%m%dT%H%M%S.%f"), *sorted(codes))


def steps(policy: LatenessPolicy, match: FixtureRecord) -> list[datetime]:
    """Every moment the verdict on a still-absent player changes, up to the forfeit (R6.1, R7.6):
    platform: the call + 10 min; hbf: +15, +20, ... ; cnb: +5, +10, ... (7 points: 4 steps)."""
    assert match.called_at is not None
    moments: list[datetime] = []
    at: datetime | None = datetime.fromisoformat(match.called_at)
    while at is not None and len(moments) < MAX_STEPS:
        at = verdict(policy, match, at, arrived=False).next_change_at
        if at is not None:
            moments.append(at)
    return moments


def _create(tournament_id: str, groups: Mapping[datetime, Sequence[str]], now: datetime) -> list[str]:
    names = []
    for due, codes in sorted(groups.items()):
        name = schedule_name(tournament_id, due, codes)
        payload = {"tournament_id": tournament_id, "codes": sorted(codes), "due": due.isoformat()}
        schedules.create_once(name, max(due, now), TARGET, payload)  # late event: fire at once
        names.append(name)
    return names


def schedule_calls(tournament_id: str, codes: Sequence[str], now: datetime) -> list[str]:
    """The deadline schedules of matches just called (R6.3): one per distinct lateness step,
    shared by the matches called together (each fires `enforce` for all of them)."""
    read = match_store.several(tournament_id, codes)
    if read.tournament is None:
        return []
    policy = policy_of(read.tournament)
    groups: dict[datetime, list[str]] = {}
    for match in read.matches:
        if awaited(match):
            for due in steps(policy, match):
                groups.setdefault(due, []).append(match.code)
    return _create(tournament_id, groups, now)


def cancel_if_alone(tournament: TournamentRecord, match: FixtureRecord, now: datetime) -> None:
    """Delete the match's remaining deadline schedules once nobody is awaited, where they are the
    match's own (a schedule shared with other matches fires, and is a no-op for this one)."""
    if match.called_at is None:
        return
    for due in steps(policy_of(tournament), match):
        if due >= now:
            schedules.delete(schedule_name(tournament.id, due, [match.code]))


@dataclass(frozen=True, eq=False, repr=False)
class Enforced(Frozen):
    forfeited: tuple[str, ...] = ()
    flagged: tuple[str, ...] = ()
    penalised: tuple[str, ...] = ()


def _forfeit(
    tournament_id: str, code: str, side: Side, tavla_id: str | None, v: LatenessVerdict, now: datetime
) -> bool:
    """Forfeit the absent `side` of match `code` (R6.1, R7.6), re-checked on the match as written;
    the referee hears of it with the forfeit itself."""
    ruled = (_ruled(tournament_id, code, "forfeited", tavla_id),)
    forfeit = operations.NoShow(side, v.penalty_points, SYSTEM, now, ruled)
    try:
        progress.apply(tournament_id, code, forfeit, now)
    except operations.Unchanged:  # the match changed before it was written: the referee ruled first
        return False
    observability.count(observability.NOSHOW_FORFEIT)
    return True


def _one(
    tournament_id: str, policy: LatenessPolicy, match: FixtureRecord, at: datetime, now: datetime
) -> str:
    """Apply the verdict at `at` to one match; what happened to it ("flagged" only the first time)."""
    if not awaited(match):
        return "none"
    absent = absent_sides(match)
    v = verdict(policy, match, at, arrived=False)
    if v.forfeit and len(absent) == 1:
        if not _forfeit(tournament_id, match.code, absent[0], getattr(match, absent[0]), v, now):
            return "none"
        return "forfeited"
    told = (_ruled(tournament_id, match.code, BOTH_ABSENT, None),)
    change = model.Day.of_match(match).apply(
        match.code, operations.Late(v.penalty_points, SYSTEM, now, told), now
    )
    after = change.after(match.code) or match
    if change.matches:
        match_store.save(
            after, match.version, change.audit, [progress.outbox_event(e) for e in change.events]
        )
    flagged = BOTH_ABSENT in after.flags and BOTH_ABSENT not in match.flags
    if flagged:
        return "flagged"
    return "penalised" if any(after.late_points.values()) else "none"


def _ruled(tournament_id: str, code: str, outcome: str, tavla_id: str | None) -> model.DomainEvent:
    """R6.3: "the referee is told" of a forfeit or of a match nobody came to, written with the ruling."""
    detail = {"tournament_id": tournament_id, "code": code, "outcome": outcome}
    return model.DomainEvent(events.NOSHOW_RULED, {**detail, "tavla_id": tavla_id} if tavla_id else detail)


def enforce(payload: Mapping[str, Any], now: datetime) -> Enforced:
    """A deadline schedule fired (R6.3): penalise or forfeit whoever is still absent."""
    tournament_id = str(payload["tournament_id"])
    codes = [str(c) for c in payload.get("codes") or ()]
    due = datetime.fromisoformat(str(payload["due"]))
    at = max(now, due)  # Scheduler never fires early; a Lambda clock a hair behind must not matter
    read = match_store.several(tournament_id, codes)
    if read.tournament is None:
        return Enforced()
    policy = policy_of(read.tournament)
    outcome: dict[str, list[str]] = {"forfeited": [], "flagged": [], "penalised": [], "none": []}
    for match in read.matches:
        current: FixtureRecord | None = match
        for attempt in range(ATTEMPTS):
            if current is None:
                break
            try:
                kind = _one(tournament_id, policy, current, at, now)
            except StaleMatch:
                if attempt == ATTEMPTS - 1:
                    raise
                current = match_store.snapshot(tournament_id, match.code).match
                continue
            outcome[kind].append(match.code)
            break
    return Enforced(
        forfeited=tuple(outcome["forfeited"]),
        flagged=tuple(outcome["flagged"]),
        penalised=tuple(outcome["penalised"]),
    )
